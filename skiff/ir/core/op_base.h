// Typed op classes are zero-cost views over an Operation*: `MatmulOp m = op->dyn_cast<MatmulOp>()`
// then `m.x()`, `m.transpose_x()`. A class supplies kName, `static void verify(Operation*)`,
// optional `static void populate(OpInfo&)` (traits, interfaces) and static `build` functions that
// create the op through a Builder. Classes add no data members.
#pragma once

#include <string_view>

#include "skiff/ir/core/operation.h"

namespace skiff::ir {

class OpState {
 public:
  OpState() = default;
  explicit OpState(Operation* op) : op_(op) {}
  explicit operator bool() const { return op_ != nullptr; }
  Operation* operation() const { return op_; }
  Operation* operator->() const { return op_; }
  LocAttr loc() const { return op_->loc(); }

 protected:
  Operation* op_ = nullptr;
};

template <typename ConcreteOp>
class Op : public OpState {
 public:
  using OpState::OpState;
  static bool classof(Operation* op) { return op && op->info()->id == type_id<ConcreteOp>(); }
  static void verify(Operation*) {}
};

// Traits ------------------------------------------------------------------------------------------
// Marker classes; a static verify(Operation*) runs for every op that has the trait.

/// No side effects: DCE may delete the op when its results are unused, CSE may merge it.
struct PureTrait {
  static constexpr std::string_view kName = "pure";
};
struct CommutativeTrait {
  static constexpr std::string_view kName = "commutative";
};
/// Ends a block; it must be the last op.
struct TerminatorTrait {
  static constexpr std::string_view kName = "terminator";
};
/// Produces a value known at compile time (constant folding reads its attributes).
struct ConstantLikeTrait {
  static constexpr std::string_view kName = "constant_like";
};
/// Regions of the op hold no terminator (builtin.module).
struct NoTerminatorTrait {
  static constexpr std::string_view kName = "no_terminator";
};
/// Tensor operands and results all have the same shape (dynamic dims match anything).
struct SameOperandsAndResultShapeTrait {
  static constexpr std::string_view kName = "same_operands_and_result_shape";
  static void verify(Operation* op);
};
struct SameOperandsAndResultTypeTrait {
  static constexpr std::string_view kName = "same_operands_and_result_type";
  static void verify(Operation* op);
};
/// Elementwise on its tensor operands (a fusion and broadcasting hint).
struct ElementwiseTrait {
  static constexpr std::string_view kName = "elementwise";
};
/// f(f(x)) == f(x) for equal attributes (canonicalization drops the outer op).
struct IdempotentTrait {
  static constexpr std::string_view kName = "idempotent";
};

}  // namespace skiff::ir
