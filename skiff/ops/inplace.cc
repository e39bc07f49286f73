#include "skiff/ops/inplace.h"

#include <algorithm>

#include "skiff/ops/dispatch.h"

namespace skiff::ops {

namespace {
bool same_view(const DenseTensor& a, const DenseTensor& b) {
  return a.storage() == b.storage() && a.offset() == b.offset() && a.dims() == b.dims() &&
         a.strides() == b.strides();
}

// Another input that shares x's memory but is not exactly x (x.add_(x.flip()), a broadcast
// slice of x) would be read after the kernel already wrote parts of x.
bool overlaps(const DenseTensor& x, const DenseTensor& other) {
  return other.defined() && other.storage() == x.storage() && !same_view(x, other);
}

// A stride of 0 (expand/broadcast_to) makes several elements one memory location.
void check_no_internal_overlap(const char* op, const char* arg, const DenseTensor& x) {
  for (int d = 0; d < x.rank(); ++d) {
    SKIFF_ENFORCE(x.strides()[d] != 0 || x.dims()[d] <= 1, kInvalidArgument, op, arg,
                  "a tensor whose elements have distinct memory (not an expanded view)",
                  str("dims ", x.dims(), " with strides ", x.strides()));
  }
}
}  // namespace

DType inplace_dtype(const char* op, const char* arg, DType target, DType promoted) {
  // Same kind or a wider kind (PyTorch's can_cast): float <- any, int <- int or bool.
  const bool fits =
      promoted == target || is_floating(target) || (is_integral(target) && !is_floating(promoted));
  SKIFF_ENFORCE(fits, kTypeError, op, arg,
                str("a tensor whose dtype can hold the result (", promoted, ")"), target);
  return target;
}

void check_inplace_meta(const char* op, const char* arg, const DenseTensor& input,
                        const TensorMeta& out) {
  SKIFF_ENFORCE(out.dims == input.dims(), kInvalidArgument, op, arg,
                str("the result's shape ", out.dims, " (in place, broadcasting cannot grow x)"),
                input.dims());
  SKIFF_ENFORCE(out.dtype == input.dtype(), kTypeError, op, arg,
                str("the result's dtype ", out.dtype, " (in place, the dtype cannot change)"),
                input.dtype());
}

void check_inplace_meta(const char* op, const char* arg, const std::vector<DenseTensor>& inputs,
                        const std::vector<TensorMeta>& outs) {
  SKIFF_ENFORCE(outs.size() == inputs.size(), kInvalidArgument, op, arg,
                str(outs.size(), " tensors (one per result)"), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    // The element's name is formatted only for the error (optimizer updates check every
    // parameter, every step).
    if (outs[i].dims == inputs[i].dims() && outs[i].dtype == inputs[i].dtype()) continue;
    check_inplace_meta(op, str(arg, "[", i, "]").c_str(), inputs[i], outs[i]);
  }
}

InplaceTarget::InplaceTarget(const char* op, const char* arg, const DenseTensor& input,
                             const TensorMeta& meta, const Place& place,
                             std::initializer_list<const DenseTensor*> others,
                             std::initializer_list<const std::vector<DenseTensor>*> other_lists) {
  add(op, arg, input, meta, place, others, other_lists, nullptr);
}

// Only a tensor on x's storage can overlap x. An optimizer's update has one list entry per
// parameter in each of several lists (parameters, gradients, moments), so each input is checked
// against the list entries on its own storage, found in a sorted index, instead of against
// every entry of every list (quadratic in the parameter count).
InplaceTarget::InplaceTarget(const char* op, const char* arg,
                             const std::vector<DenseTensor>& inputs,
                             const std::vector<TensorMeta>& metas, const Place& place,
                             std::initializer_list<const DenseTensor*> others,
                             std::initializer_list<const std::vector<DenseTensor>*> other_lists) {
  using Entry = std::pair<const Storage*, const DenseTensor*>;
  std::vector<Entry> index;
  auto add_entries = [&index](const std::vector<DenseTensor>& list) {
    for (const DenseTensor& t : list) {
      if (t.defined() && t.storage()) index.emplace_back(t.storage().get(), &t);
    }
  };
  add_entries(inputs);
  for (const auto* list : other_lists) add_entries(*list);
  auto by_storage = [](const Entry& a, const Entry& b) { return a.first < b.first; };
  std::sort(index.begin(), index.end(), by_storage);
  inputs_.reserve(inputs.size());
  outputs_.reserve(inputs.size());
  std::vector<DenseTensor> sharing;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Storage* key = inputs[i].storage().get();
    auto [lo, hi] = std::equal_range(index.begin(), index.end(), Entry{key, nullptr}, by_storage);
    // The input itself is always in its range; others there may overlap it.
    sharing.clear();
    if (key != nullptr && hi - lo > 1) {
      for (auto it = lo; it != hi; ++it) sharing.push_back(*it->second);
    }
    add(op, arg, inputs[i], metas[i], place, others, {}, sharing.empty() ? nullptr : &sharing);
  }
}

void InplaceTarget::add(const char* op, const char* arg, const DenseTensor& input,
                        const TensorMeta& meta, const Place& place,
                        std::initializer_list<const DenseTensor*> others,
                        std::initializer_list<const std::vector<DenseTensor>*> other_lists,
                        const std::vector<DenseTensor>* own_list) {
  check_no_internal_overlap(op, arg, input);
  bool direct = input.is_contiguous();
  for (const DenseTensor* t : others) direct = direct && !(t && overlaps(input, *t));
  for (const auto* list : other_lists) {
    for (const DenseTensor& t : *list) direct = direct && !overlaps(input, t);
  }
  if (own_list) {
    for (const DenseTensor& t : *own_list) direct = direct && !overlaps(input, t);
  }
  inputs_.push_back(input);
  outputs_.push_back(direct ? input : allocate_output(op, meta, place));
  direct_.push_back(direct);
}

void InplaceTarget::finish() {
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (!direct_[i]) inputs_[i].copy_from(outputs_[i]);
    if (inputs_[i].storage()) inputs_[i].storage()->bump_version();
  }
}

}  // namespace skiff::ops
