#include "skiff/ops/boxed.h"

#include "skiff/base/error.h"

namespace skiff::ops {

namespace {
// Name of the index-th tensor argument of the schema.
const std::string& tensor_arg_name(const OpSchema& s, size_t index) {
  size_t i = 0;
  for (const ArgSchema& a : s.args) {
    if (!is_tensor_kind(a.kind)) continue;
    if (i++ == index) return a.name;
  }
  SKIFF_CHECK(false);
  return s.name;
}
}  // namespace

void check_attr_names(const OpSchema& s, const std::map<std::string, AttrValue>& attrs) {
  for (const auto& [name, value] : attrs) {
    bool known = false;
    for (const ArgSchema& a : s.args) known |= !is_tensor_kind(a.kind) && a.name == name;
    SKIFF_ENFORCE(known, kInvalidArgument, s.name, name, "a known attribute of " + s.signature,
                  "an unknown attribute");
  }
}

BoxedOutputs call_boxed(OpId id, const BoxedInputs& inputs) {
  const OpSchema& s = op_schema(id);
  check_attr_names(s, inputs.attrs);
  return boxed_fn(id)(s, inputs);
}

BoxedOutputs call_boxed(std::string_view name, const BoxedInputs& inputs) {
  return call_boxed(op_schema(name).id, inputs);
}

void boxed_check_arity(const OpSchema& s, const BoxedInputs& in, size_t num_tensor_args) {
  SKIFF_ENFORCE(in.tensors.size() == num_tensor_args, kInvalidArgument, s.name, "inputs",
                str(num_tensor_args, " tensor arguments (", s.signature, ")"), in.tensors.size());
}

const DenseTensor& boxed_tensor(const OpSchema& s, const BoxedInputs& in, size_t index) {
  const auto& list = in.tensors[index];
  SKIFF_ENFORCE(list.size() == 1, kInvalidArgument, s.name, tensor_arg_name(s, index),
                "exactly one tensor", str(list.size(), " tensors"));
  return list[0];
}

const std::vector<DenseTensor>& boxed_tensor_list(const OpSchema&, const BoxedInputs& in,
                                                  size_t index) {
  return in.tensors[index];
}

const DenseTensor* boxed_optional_tensor(const OpSchema& s, const BoxedInputs& in, size_t index) {
  const auto& list = in.tensors[index];
  SKIFF_ENFORCE(list.size() <= 1, kInvalidArgument, s.name, tensor_arg_name(s, index),
                "at most one tensor", str(list.size(), " tensors"));
  return list.empty() ? nullptr : &list[0];
}

template <typename T>
T boxed_attr(const OpSchema& s, const std::map<std::string, AttrValue>& attrs, size_t arg_index) {
  const ArgSchema& a = s.args[arg_index];
  auto it = attrs.find(a.name);
  const AttrValue* v = nullptr;
  if (it != attrs.end()) {
    v = &it->second;
  } else {
    SKIFF_ENFORCE(a.default_value.has_value(), kInvalidArgument, s.name, a.name,
                  "a value (the argument has no default)", "none");
    v = &*a.default_value;
  }
  if (const T* t = std::get_if<T>(v)) return *t;
  // Lenient numeric conversions that Python callers rely on (an int where a float is wanted).
  if constexpr (std::is_same_v<T, double>) {
    if (const int64_t* i = std::get_if<int64_t>(v)) return static_cast<double>(*i);
  }
  if constexpr (std::is_same_v<T, Scalar>) {
    if (const int64_t* i = std::get_if<int64_t>(v)) return Scalar(*i);
    if (const double* d = std::get_if<double>(v)) return Scalar(*d);
    if (const bool* b = std::get_if<bool>(v)) return Scalar(*b);
  }
  if constexpr (std::is_same_v<T, std::vector<double>>) {
    if (const auto* iv = std::get_if<std::vector<int64_t>>(v)) {
      return std::vector<double>(iv->begin(), iv->end());
    }
  }
  SKIFF_THROW(kTypeError, s.name, a.name, str("a value of type ", arg_kind_name(a.kind)),
              attr_to_string(*v));
}

#define SKIFF_INSTANTIATE_BOXED_ATTR(T) \
  template T boxed_attr<T>(const OpSchema&, const std::map<std::string, AttrValue>&, size_t);
SKIFF_INSTANTIATE_BOXED_ATTR(bool)
SKIFF_INSTANTIATE_BOXED_ATTR(int64_t)
SKIFF_INSTANTIATE_BOXED_ATTR(double)
SKIFF_INSTANTIATE_BOXED_ATTR(std::string)
SKIFF_INSTANTIATE_BOXED_ATTR(std::vector<int64_t>)
SKIFF_INSTANTIATE_BOXED_ATTR(std::vector<double>)
SKIFF_INSTANTIATE_BOXED_ATTR(Scalar)
SKIFF_INSTANTIATE_BOXED_ATTR(DType)
SKIFF_INSTANTIATE_BOXED_ATTR(Place)
#undef SKIFF_INSTANTIATE_BOXED_ATTR

}  // namespace skiff::ops
