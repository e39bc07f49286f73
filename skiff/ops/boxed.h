// The boxed calling convention: an op by name with tensors and attributes in generic
// containers. Generic tests, the static-graph executor and tools call ops this way; the typed
// dense API does the work underneath.
#pragma once

#include "skiff/ops/op_schema.h"

namespace skiff::ops {

using BoxedFn = BoxedOutputs (*)(const OpSchema&, const BoxedInputs&);

/// Runs op `name`; errors name the op and the offending argument (missing inputs, attribute
/// of the wrong kind, unknown attribute names).
BoxedOutputs call_boxed(std::string_view name, const BoxedInputs& inputs);
BoxedOutputs call_boxed(OpId id, const BoxedInputs& inputs);

// Unboxing helpers used by the generated code.
BoxedFn boxed_fn(OpId id);  // generated
void boxed_check_arity(const OpSchema& s, const BoxedInputs& in, size_t num_tensor_args);
const DenseTensor& boxed_tensor(const OpSchema& s, const BoxedInputs& in, size_t index);
const std::vector<DenseTensor>& boxed_tensor_list(const OpSchema& s, const BoxedInputs& in,
                                                  size_t index);
const DenseTensor* boxed_optional_tensor(const OpSchema& s, const BoxedInputs& in, size_t index);
/// The attribute for argument `arg_index` from `attrs`, or the record's default.
template <typename T>
T boxed_attr(const OpSchema& s, const std::map<std::string, AttrValue>& attrs, size_t arg_index);
/// Rejects attribute names the op does not have.
void check_attr_names(const OpSchema& s, const std::map<std::string, AttrValue>& attrs);

}  // namespace skiff::ops
