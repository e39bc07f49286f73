// The cf dialect: structured control flow. cf.if has a then and an else region; cf.while has one
// body region whose block arguments carry the loop state; both end their blocks with cf.yield.
//   %r = cf.if(%c) : (tensor<bool>) -> tensor<2xf32> { ... cf.yield(%a) ... } { ... }
//   %x = cf.while(%c0, %x0) : (tensor<bool>, tensor<2xf32>) -> tensor<2xf32> {
//   ^bb0(%x1: tensor<2xf32>):
//     ... cf.yield(%c1, %x2) : (tensor<bool>, tensor<2xf32>) -> ()
//   }
// The while body runs while the condition is true; its yield gives the next condition first.
// Yielded values and inits may have more static shapes than the results they flow into
// (flows_into); the executor runs both ops (see docs/ARCHITECTURE.md "Control flow").
#pragma once

#include <span>

#include "skiff/ir/core/builder.h"
#include "skiff/ir/core/dialect.h"
#include "skiff/ir/core/op_base.h"

namespace skiff::ir {

/// Whether a value of type `from` may flow into a slot of type `to` (a cf result, a block
/// argument): the same type, or the same tensor dtype and rank where `to` leaves dims dynamic
/// (branches of different shapes, a loop var that grows).
bool flows_into(Type from, Type to);

class CfDialect : public Dialect {
 public:
  static constexpr std::string_view kName = "cf";
  explicit CfDialect(IrContext* ctx);
};

class IfOp : public Op<IfOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "cf.if";
  static void populate(OpInfo& info);
  static void verify(Operation* op);
  /// Creates the op with an empty then block and an empty else block.
  static IfOp build(Builder& b, Value cond, std::span<const Type> result_types);
  Value cond() const { return op_->operand(0); }
  Block* then_block() const { return op_->region(0).front(); }
  Block* else_block() const { return op_->region(1).front(); }
};

class WhileOp : public Op<WhileOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "cf.while";
  static void verify(Operation* op);
  /// Creates the op and its body block with one argument per loop-carried value.
  static WhileOp build(Builder& b, Value cond, std::span<const Value> inits);
  Value cond() const { return op_->operand(0); }
  Block* body() const { return op_->region(0).front(); }
};

class YieldOp : public Op<YieldOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "cf.yield";
  static void populate(OpInfo& info);
  static void verify(Operation* op);
  static YieldOp build(Builder& b, std::span<const Value> values);
};

}  // namespace skiff::ir
