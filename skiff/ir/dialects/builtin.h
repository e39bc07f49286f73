// The builtin dialect: module, parameter, constant, combine/split (Tensor[] <-> vec) and
// shadow_output, plus the builtin type and attribute kinds.
#pragma once

#include <span>
#include <string_view>

#include "skiff/ir/core/builder.h"
#include "skiff/ir/core/dialect.h"
#include "skiff/ir/core/op_base.h"

namespace skiff::ir {

class BuiltinDialect : public Dialect {
 public:
  static constexpr std::string_view kName = "builtin";
  explicit BuiltinDialect(IrContext* ctx);
};

/// The top-level op of a program: one region with one block and no terminator.
class ModuleOp : public Op<ModuleOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "builtin.module";
  static void populate(OpInfo& info);
  static void verify(Operation* op);
  Block* body() const { return op_->region(0).front(); }
};

/// A named, persistable weight: () -> tensor {name = "fc.w"}.
class ParameterOp : public Op<ParameterOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "builtin.parameter";
  static void verify(Operation* op);
  static ParameterOp build(Builder& b, std::string_view name, Type type);
  const std::string& param_name() const { return op_->attr_of<StrAttr>("name").value(); }
};

/// A compile-time constant: {value = 1.5} is a splat, {value = [1.0, 2.0]} dense row-major data,
/// {value = dense<tensor<2xf32>, [1.0, 2.0]>} typed data (what kernel-executing folding makes).
class ConstantOp : public Op<ConstantOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "builtin.constant";
  static void populate(OpInfo& info);
  static void verify(Operation* op);
  static ConstantOp build(Builder& b, Attribute value, Type type);
  Attribute value() const { return op_->attr("value"); }
  Value out() const { return op_->result(0); }
};

/// Packs tensors into a vec value (a Tensor[] argument).
class CombineOp : public Op<CombineOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "builtin.combine";
  static void populate(OpInfo& info);
  static void verify(Operation* op);
  static CombineOp build(Builder& b, std::span<const Value> inputs);
  Value out() const { return op_->result(0); }
};

/// Unpacks a vec value into its tensors.
class SplitOp : public Op<SplitOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "builtin.split";
  static void populate(OpInfo& info);
  static void verify(Operation* op);
  static SplitOp build(Builder& b, Value input);
};

/// Marks a value as a named output of the program (a side effect: never removed by DCE).
class ShadowOutputOp : public Op<ShadowOutputOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "builtin.shadow_output";
  static void verify(Operation* op);
  static ShadowOutputOp build(Builder& b, Value v, std::string_view name);
};

}  // namespace skiff::ir
