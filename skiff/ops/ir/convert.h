// Conversions between the ops layer's values (DType, TensorMeta, DenseTensor, boxed attribute
// values) and the IR's (DataType, TensorType, DenseElementsAttr, attributes). The bridge uses
// them for infer-meta and folding; static-graph capture uses them to build ops from Tensor calls.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/core/tensor_impl.h"
#include "skiff/ir/core/builtin_attributes.h"
#include "skiff/ir/core/dense_elements.h"
#include "skiff/ops/op_schema.h"

namespace skiff::ops::ir_bridge {

ir::DataType to_ir(DType t);
/// Throws kUnimplemented for IR element types the ops layer lacks (complex).
DType from_ir(ir::DataType t);

ir::TensorType to_ir_type(ir::IrContext* ctx, const TensorMeta& meta);
/// A Tensor[] result: vec<...> of the element types.
ir::Type to_ir_type(ir::IrContext* ctx, const std::vector<TensorMeta>& metas);
/// Dtype and dims (dynamic dims stay -1) of a tensor type.
TensorMeta to_meta(ir::TensorType t);

/// The data of a CPU tensor (any strides) as a dense elements attribute.
ir::DenseElementsAttr to_attr(ir::IrContext* ctx, const DenseTensor& t);
/// A constant operand's data as a CPU tensor of `type` (static shape): a dense elements
/// attribute, a scalar (splat) or an array of numbers (row-major), as builtin.constant and
/// op.full hold them. Throws kInvalidArgument when the constant does not fit the type.
DenseTensor to_dense(ir::Attribute value, ir::TensorType type);

/// An IR attribute as the boxed value of an ops-layer argument of `kind` (kTypeError if the
/// attribute does not fit).
AttrValue to_attr_value(const OpSchema& s, const ArgSchema& arg, ir::Attribute a);
/// The IR attribute of a boxed value for argument `arg` (ints given for float arguments become
/// floats, as the IR schema expects).
ir::Attribute to_ir_attr(ir::IrContext* ctx, const ArgSchema& arg, const AttrValue& v);
/// Every attribute argument of `s` as IR attributes: the given values, else the record's
/// defaults (kInvalidArgument for a missing argument without default, or an unknown name).
std::vector<ir::NamedAttribute> to_ir_attrs(ir::IrContext* ctx, const OpSchema& s,
                                            const std::map<std::string, AttrValue>& attrs);

}  // namespace skiff::ops::ir_bridge
