// Interfaces: tables of functions attached to op definitions, possibly long after registration
// and from a library the IR does not link (skiff_ops attaches InferMeta and kernel-executing Fold,
// autodiff attaches Vjp, dist attaches Spmd). Usage:
//   ctx.op_info("op.matmul")->attach_interface<InferMetaInterface>({my_infer_fn});
//   if (auto im = op->interface<InferMetaInterface>()) types = im.infer(...);
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "skiff/ir/core/builtin_attributes.h"
#include "skiff/ir/core/op_info.h"
#include "skiff/ir/core/value.h"

namespace skiff::ir {

struct InferMetaConcept {
  /// Result types from operand types (null for absent optional inputs) and attributes (sorted).
  std::function<std::vector<Type>(IrContext*, std::span<const Type>,
                                  std::span<const NamedAttribute>)>
      infer;
};
class InferMetaInterface : public OpInterface<InferMetaInterface, InferMetaConcept> {
 public:
  using OpInterface::OpInterface;
  std::vector<Type> infer(std::span<const Type> inputs,
                          std::span<const NamedAttribute> attrs) const;
};

/// Folds an op whose operands are constants. `operands[i]` is the constant attribute of operand i
/// (null when not constant). Returns false when it cannot fold; else fills one attribute per
/// result (materialized by the constant-folding pass).
struct FoldConcept {
  std::function<bool(Operation*, std::span<const Attribute>, std::vector<Attribute>&)> fold;
};
class FoldInterface : public OpInterface<FoldInterface, FoldConcept> {
 public:
  using OpInterface::OpInterface;
};

/// Vector-Jacobian product: gradients of the inputs given gradients of the outputs, built as new
/// ops at the builder's insertion point. Attached by the autodiff layer.
class Builder;
struct VjpConcept {
  std::function<std::vector<Value>(Builder&, Operation*, std::span<const Value> out_grads)> vjp;
};
class VjpInterface : public OpInterface<VjpInterface, VjpConcept> {
 public:
  using OpInterface::OpInterface;
};

/// SPMD (sharding propagation) rule: output placements from input placements, encoded as
/// attributes of the dist dialect. Attached by the distributed layer.
struct SpmdConcept {
  std::function<std::vector<Attribute>(Operation*, std::span<const Attribute> input_dist_attrs)>
      infer_spmd;
};
class SpmdInterface : public OpInterface<SpmdInterface, SpmdConcept> {
 public:
  using OpInterface::OpInterface;
};

/// Kernel selection: the kernel name, the operand whose dtype keys the kernel (-1 when the rule
/// is another: a dtype attribute, promotion of several inputs, a result) and that rule itself:
/// the kernel dtype of a built op. The lowering to the kernel dialect reads it.
struct KernelSelectConcept {
  std::string kernel_name;
  int data_type_operand = -1;
  std::function<DataType(Operation*)> kernel_dtype;
};
class KernelSelectInterface : public OpInterface<KernelSelectInterface, KernelSelectConcept> {
 public:
  using OpInterface::OpInterface;
};

/// Side effects decided per op (for ops whose purity depends on attributes).
struct SideEffectConcept {
  std::function<bool(Operation*)> has_side_effect;
};
class SideEffectInterface : public OpInterface<SideEffectInterface, SideEffectConcept> {
 public:
  using OpInterface::OpInterface;
};

/// True when an op may be removed if unused: it has PureTrait and no SideEffectInterface says
/// otherwise, and it has no regions with side-effecting ops.
bool is_pure(Operation* op);

}  // namespace skiff::ir
