#include "skiff/runtime/eager/saved_tensor.h"

#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/grad_node.h"
#include "skiff/runtime/eager/saved_tensor_hooks.h"

namespace skiff::autograd {

namespace {
uint32_t version_of(const Tensor& t) {
  return t.is_dense() && t.dense().storage() ? t.dense().storage()->version() : 0;
}

// Note [saved tensor hooks] (saved_tensor_hooks.h): the packed forms alive, by storage.
struct Packed {
  std::weak_ptr<Storage> storage;  // expired: the entry is stale (its handle is gone)
  std::shared_ptr<const SavedTensorHooks> hooks;
  Dims dims;
  DType dtype = DType::kUndefined;
  bool input_needs_grad = false;
};

std::mutex packed_mutex;
std::unordered_map<const Storage*, Packed>& packed_registry() {
  static auto* registry = new std::unordered_map<const Storage*, Packed>();
  return *registry;
}

thread_local std::vector<std::shared_ptr<const SavedTensorHooks>> hook_stack;
thread_local bool in_hook = false;  // a hook running ops that save tensors packs nothing

struct InHook {
  InHook() { in_hook = true; }
  ~InHook() { in_hook = false; }
};

const Storage* storage_of(const Tensor& t) {
  return t.defined() && t.is_dense() ? t.dense().storage().get() : nullptr;
}

Tensor pack(const std::shared_ptr<const SavedTensorHooks>& hooks, const Tensor& t,
            bool input_needs_grad) {
  Tensor packed;
  {
    InHook guard;
    packed = hooks->pack(t);
  }
  const Storage* key = storage_of(packed);
  SKIFF_ENFORCE(key != nullptr, kInvalidArgument, "saved_tensors_hooks", "pack_hook",
                "a packed form with storage", "none");
  std::lock_guard<std::mutex> lock(packed_mutex);
  auto& registry = packed_registry();
  if (registry.size() > 1024) {  // drop the entries of handles that are gone
    for (auto it = registry.begin(); it != registry.end();) {
      it = it->second.storage.expired() ? registry.erase(it) : std::next(it);
    }
  }
  registry[key] = Packed{packed.dense().storage(), hooks, t.dims(), t.dtype(), input_needs_grad};
  return packed;
}

/// The entry of a packed form, if `t` is one.
bool find_packed(const Tensor& t, Packed* out) {
  const Storage* key = storage_of(t);
  if (key == nullptr) return false;
  std::lock_guard<std::mutex> lock(packed_mutex);
  auto& registry = packed_registry();
  auto it = registry.find(key);
  if (it == registry.end()) return false;
  if (it->second.storage.lock().get() != key) {  // a stale entry of a freed handle
    registry.erase(it);
    return false;
  }
  *out = it->second;
  return true;
}

Tensor unpack_packed(const Packed& p, const Tensor& packed, const char* node_name) {
  SKIFF_ENFORCE(!(p.input_needs_grad && grad_enabled()), kUnimplemented, node_name, "saved tensor",
                "a first-order backward for tensors saved under "
                "saved_tensors_hooks (their autograd history stays with the original)",
                "a backward that builds a differentiable graph (create_graph=True)");
  Tensor t;
  {
    InHook guard;
    t = p.hooks->unpack(packed);
  }
  SKIFF_ENFORCE(
      t.defined() && t.dims() == p.dims && t.dtype() == p.dtype, kInvalidArgument,
      "saved_tensors_hooks", "unpack_hook",
      str("a tensor of the saved tensor's shape ", p.dims, " and dtype ", dtype_name(p.dtype)),
      t.defined() ? str("shape ", t.dims(), " and dtype ", dtype_name(t.dtype()))
                  : std::string("no tensor"));
  return t;
}
}  // namespace

void push_saved_tensor_hooks(std::shared_ptr<const SavedTensorHooks> hooks) {
  hook_stack.push_back(std::move(hooks));
}

void pop_saved_tensor_hooks() {
  SKIFF_ENFORCE(!hook_stack.empty(), kPrecondition, "saved_tensors_hooks", "hooks",
                "hooks pushed before", "none");
  hook_stack.pop_back();
}

const std::shared_ptr<const SavedTensorHooks>& current_saved_tensor_hooks() {
  static const std::shared_ptr<const SavedTensorHooks> none;
  return hook_stack.empty() ? none : hook_stack.back();
}

SavedTensor::SavedTensor(const Tensor& t, int output_nr)
    : output_nr_(output_nr), saved_(true), was_defined_(t.defined()) {
  if (!t.defined()) return;
  version_ = version_of(t);
  const auto& hooks = current_saved_tensor_hooks();
  if (hooks && !in_hook && t.is_dense()) {
    if (output_nr < 0) {
      tensor_ = pack(hooks, t, requires_grad(t));
    } else {
      data_ = pack(hooks, detach(t), false);
    }
    return;
  }
  if (output_nr < 0) {
    tensor_ = t;
  } else {
    data_ = detach(t);
  }
}

Tensor SavedTensor::unpack(const std::shared_ptr<GradNode>& owner, const char* node_name) const {
  SKIFF_ENFORCE(saved_, kPrecondition, node_name, "saved tensors",
                "tensors that are still saved; a second backward through the same graph needs "
                "retain_graph=True in the first",
                "tensors freed by an earlier backward");
  if (!was_defined_) return Tensor();
  const Tensor& stored = output_nr_ < 0 ? tensor_ : data_;
  Packed packed;
  Tensor t;
  if (find_packed(stored, &packed)) {  // the hooks' copy: no version to compare
    t = unpack_packed(packed, stored, node_name);
    if (output_nr_ >= 0) t = detach(t);
  } else {
    t = output_nr_ < 0 ? tensor_ : detach(data_);
    const uint32_t now = version_of(t);
    SKIFF_ENFORCE(
        now == version_, kPrecondition, node_name, "saved tensor",
        str("data unchanged since it was saved for the gradient (version ", version_, ")"),
        str("version ", now, ": it was modified by an in-place operation"));
  }
  if (output_nr_ >= 0 && owner) {
    // Re-attach a saved output to the node that produced it, so a VJP rule that uses the
    // output (exp, tanh, ...) is itself differentiable.
    AutogradMeta& m = ensure_autograd_meta(t);
    m.stop_gradient = false;
    m.grad_node = owner;
    m.output_nr = static_cast<uint32_t>(output_nr_);
  }
  return t;
}

void SavedTensor::reset() {
  tensor_ = Tensor();
  data_ = Tensor();
  saved_ = false;
}

}  // namespace skiff::autograd
