#include "skiff/ir/dialects/builtin.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/dense_elements.h"

namespace skiff::ir {

BuiltinDialect::BuiltinDialect(IrContext* ctx) : Dialect(ctx, kName) {
  // Builtin kinds print without a prefix; AsmPrinter and AsmParser know them.
  register_kind<TensorType>("tensor", nullptr);
  register_kind<VectorType>("vec", nullptr);
  register_kind<BoolAttr>("bool", nullptr);
  register_kind<IntAttr>("int", nullptr);
  register_kind<FloatAttr>("float", nullptr);
  register_kind<StrAttr>("str", nullptr);
  register_kind<ArrayAttr>("array", nullptr);
  register_kind<DTypeAttr>("dtype", nullptr);
  register_kind<TypeAttr>("type", nullptr);
  register_kind<LocAttr>("loc", nullptr);
  register_kind<DenseElementsAttr>("dense", nullptr);
  register_op<ModuleOp>();
  register_op<ParameterOp>();
  register_op<ConstantOp>();
  register_op<CombineOp>();
  register_op<SplitOp>();
  register_op<ShadowOutputOp>();
}

namespace {
void expect_counts(Operation* op, uint32_t operands, uint32_t results, uint32_t regions = 0) {
  SKIFF_ENFORCE(op->num_operands() == operands, kInvalidArgument, op->describe(), "operands",
                str(operands, " operands"), op->num_operands());
  SKIFF_ENFORCE(op->num_results() == results, kInvalidArgument, op->describe(), "results",
                str(results, " results"), op->num_results());
  SKIFF_ENFORCE(op->num_regions() == regions, kInvalidArgument, op->describe(), "regions",
                str(regions, " regions"), op->num_regions());
}
void expect_str_attr(Operation* op, std::string_view name) {
  SKIFF_ENFORCE(op->attr_of<StrAttr>(name), kInvalidArgument, op->describe(), name,
                "a string attribute", op->has_attr(name) ? to_string(op->attr(name)) : "none");
}
}  // namespace

void ModuleOp::populate(OpInfo& info) { info.add_trait<NoTerminatorTrait>(); }
void ModuleOp::verify(Operation* op) {
  expect_counts(op, 0, 0, 1);
  SKIFF_ENFORCE(op->region(0).size() == 1, kInvalidArgument, op->describe(), "region",
                "exactly one block", op->region(0).size());
}

void ParameterOp::verify(Operation* op) {
  expect_counts(op, 0, 1);
  expect_str_attr(op, "name");
}
ParameterOp ParameterOp::build(Builder& b, std::string_view name, Type type) {
  return ParameterOp(b.create(kName, {}, {&type, 1}, {b.named("name", b.str_attr(name))}));
}

void ConstantOp::populate(OpInfo& info) { info.add_traits<PureTrait, ConstantLikeTrait>(); }
void ConstantOp::verify(Operation* op) {
  expect_counts(op, 0, 1);
  Attribute v = op->attr("value");
  SKIFF_ENFORCE(v && (v.isa<FloatAttr>() || v.isa<IntAttr>() || v.isa<BoolAttr>() ||
                      v.isa<ArrayAttr>() || v.isa<DenseElementsAttr>()),
                kInvalidArgument, op->describe(), "value", "a number, bool, array or dense<...>",
                v ? to_string(v) : "none");
  auto t = op->result_type(0).dyn_cast<TensorType>();
  SKIFF_ENFORCE(t, kTypeError, op->describe(), "result", "a tensor type",
                to_string(op->result_type(0)));
  if (auto d = v.dyn_cast<DenseElementsAttr>()) {
    SKIFF_ENFORCE(d.type() == t, kTypeError, op->describe(), "value",
                  str("dense data of the result type ", to_string(t)), to_string(d.type()));
  }
  if (auto arr = v.dyn_cast<ArrayAttr>()) {
    SKIFF_ENFORCE(!t.is_dynamic() && t.numel() == static_cast<int64_t>(arr.size()),
                  kInvalidArgument, op->describe(), "value",
                  str("dense data with numel(", to_string(t), ") elements"),
                  str(arr.size(), " elements"));
  }
}
ConstantOp ConstantOp::build(Builder& b, Attribute value, Type type) {
  return ConstantOp(b.create(kName, {}, {&type, 1}, {b.named("value", value)}));
}

void CombineOp::populate(OpInfo& info) { info.add_trait<PureTrait>(); }
void CombineOp::verify(Operation* op) {
  SKIFF_ENFORCE(op->num_results() == 1, kInvalidArgument, op->describe(), "results", "1 result",
                op->num_results());
  auto vt = op->result_type(0).dyn_cast<VectorType>();
  SKIFF_ENFORCE(vt && vt.elements().size() == op->num_operands(), kTypeError, op->describe(),
                "result", str("a vec of ", op->num_operands(), " types"),
                to_string(op->result_type(0)));
  for (uint32_t i = 0; i < op->num_operands(); ++i) {
    SKIFF_ENFORCE(op->operand(i) && op->operand(i).type() == vt.elements()[i], kTypeError,
                  op->describe(), str("operand #", i), to_string(vt.elements()[i]),
                  op->operand(i) ? to_string(op->operand(i).type()) : "null");
  }
}
CombineOp CombineOp::build(Builder& b, std::span<const Value> inputs) {
  std::vector<Type> types;
  for (Value v : inputs) types.push_back(v.type());
  Type vt = VectorType::get(b.context(), types);
  return CombineOp(b.create(kName, inputs, {&vt, 1}));
}

void SplitOp::populate(OpInfo& info) { info.add_trait<PureTrait>(); }
void SplitOp::verify(Operation* op) {
  SKIFF_ENFORCE(op->num_operands() == 1 && op->operand(0), kInvalidArgument, op->describe(),
                "operands", "1 operand", op->num_operands());
  auto vt = op->operand(0).type().dyn_cast<VectorType>();
  SKIFF_ENFORCE(vt && vt.elements().size() == op->num_results(), kTypeError, op->describe(),
                "operand", str("a vec of ", op->num_results(), " types"),
                to_string(op->operand(0).type()));
  for (uint32_t i = 0; i < op->num_results(); ++i) {
    SKIFF_ENFORCE(op->result_type(i) == vt.elements()[i], kTypeError, op->describe(),
                  str("result #", i), to_string(vt.elements()[i]), to_string(op->result_type(i)));
  }
}
SplitOp SplitOp::build(Builder& b, Value input) {
  auto vt = input.type().cast<VectorType>();
  return SplitOp(b.create(kName, {&input, 1}, vt.elements()));
}

void ShadowOutputOp::verify(Operation* op) {
  expect_counts(op, 1, 0);
  expect_str_attr(op, "name");
}
ShadowOutputOp ShadowOutputOp::build(Builder& b, Value v, std::string_view name) {
  return ShadowOutputOp(b.create(kName, {&v, 1}, {}, {b.named("name", b.str_attr(name))}));
}

}  // namespace skiff::ir
