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

BoxedOutputs call_boxed(OpId id, const BoxedInputs& inputs) {
  const OpSchema& s = op_schema(id);
  for (const auto& [name, value] : inputs.attrs) {
    bool known = false;
    for (const ArgSchema& a : s.args) known |= !is_tensor_kind(a.kind) && a.name == name;
    SKIFF_ENFORCE(known, kInvalidArgument, s.name, name, "a known attribute of " + s.signature,
                  "an unknown attribute");
  }
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
  boxed_check_arity(s, in, std::max(in.tensors.size(), index + 1));
  const auto& list = in.tensors[index];
  SKIFF_ENFORCE(list.size() == 1, kInvalidArgument, s.name, tensor_arg_name(s, index),
                "exactly one tensor", str(list.size(), " tensors"));
  return list[0];
}

const std::vector<DenseTensor>& boxed_tensor_list(const OpSchema& s, const BoxedInputs& in,
                                                  size_t index) {
  boxed_check_arity(s, in, std::max(in.tensors.size(), index + 1));
  return in.tensors[index];
}

const DenseTensor* boxed_optional_tensor(const OpSchema& s, const BoxedInputs& in, size_t index) {
  boxed_check_arity(s, in, std::max(in.tensors.size(), index + 1));
  const auto& list = in.tensors[index];
  SKIFF_ENFORCE(list.size() <= 1, kInvalidArgument, s.name, tensor_arg_name(s, index),
                "at most one tensor", str(list.size(), " tensors"));
  return list.empty() ? nullptr : &list[0];
}

template <typename T>
T boxed_attr(const OpSchema& s, const BoxedInputs& in, size_t arg_index) {
  const ArgSchema& a = s.args[arg_index];
  auto it = in.attrs.find(a.name);
  const AttrValue* v = nullptr;
  if (it != in.attrs.end()) {
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

template bool boxed_attr<bool>(const OpSchema&, const BoxedInputs&, size_t);
template int64_t boxed_attr<int64_t>(const OpSchema&, const BoxedInputs&, size_t);
template double boxed_attr<double>(const OpSchema&, const BoxedInputs&, size_t);
template std::string boxed_attr<std::string>(const OpSchema&, const BoxedInputs&, size_t);
template std::vector<int64_t> boxed_attr<std::vector<int64_t>>(const OpSchema&, const BoxedInputs&,
                                                               size_t);
template std::vector<double> boxed_attr<std::vector<double>>(const OpSchema&, const BoxedInputs&,
                                                             size_t);
template Scalar boxed_attr<Scalar>(const OpSchema&, const BoxedInputs&, size_t);
template DType boxed_attr<DType>(const OpSchema&, const BoxedInputs&, size_t);
template Place boxed_attr<Place>(const OpSchema&, const BoxedInputs&, size_t);

}  // namespace skiff::ops
