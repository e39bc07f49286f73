// DRR: rules compile to patterns, match DAGs (shared inputs, commutative operands), respect
// constraints and private intermediates, and build results with computed attributes.
#include "skiff/ir/drr/drr.h"

#include <gtest/gtest.h>

#include "skiff/base/error.h"
#include "skiff/ir/core/program.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/dialects/register.h"
#include "skiff/ir/drr/fusion_rules.h"
#include "skiff/ir/passes/pattern.h"
#include "tests/cpp/ir/test_infer_meta.h"

namespace skiff::ir {
namespace {

class DrrTest : public ::testing::Test {
 protected:
  void SetUp() override {
    load_all_dialects(&ctx);
    attach_test_infer_meta(&ctx);
  }
  Value data(Builder& b, const char* name, std::vector<int64_t> shape) {
    return b.build<op::DataOp>(name, shape, DataType::kFloat32).out();
  }
  std::vector<std::string> op_names(Program& p) {
    std::vector<std::string> out;
    for (Operation* op : *p.block()) out.push_back(std::string(op->name()));
    return out;
  }
  IrContext ctx;
};

TEST_F(DrrTest, RmsNormWithCommutedOperands) {
  Program p(&ctx);
  Builder b(&ctx, p.block());
  Value x = data(b, "x", {4, 8}), w = data(b, "w", {8});
  Value sq = b.build<op::MultiplyOp>(x, x).out();
  Value ms = b.build<op::MeanOp>(sq, std::vector<int64_t>{-1}, true).out();
  Value eps = b.build<op::FullOp>(std::vector<int64_t>{1}, 1e-5, DataType::kFloat32).out();
  Value mse = b.build<op::AddOp>(eps, ms).out();  // commuted
  Value inv = b.build<op::RsqrtOp>(mse).out();
  Value n = b.build<op::MultiplyOp>(inv, x).out();  // commuted
  Value out = b.build<op::MultiplyOp>(n, w).out();
  ShadowOutputOp::build(b, out, "y");
  RewritePatternSet ps(&ctx);
  add_rms_norm_fusion(ps);
  apply_patterns_greedily(p.module(), ps);
  std::vector<std::string> want = {"op.data", "op.data", "op.rms_norm", "builtin.shadow_output"};
  EXPECT_EQ(op_names(p), want);
  Operation* fused = p.block()->front()->next()->next();
  EXPECT_DOUBLE_EQ(attr_double(fused, "epsilon"), 1e-5);
  p.verify();
}

TEST_F(DrrTest, EscapingIntermediateBlocksTheRewrite) {
  Program p(&ctx);
  Builder b(&ctx, p.block());
  Value x = data(b, "x", {4, 8}), w = data(b, "w", {8, 8}), bias = data(b, "b", {8});
  Value mm = b.build<op::MatmulOp>(x, w).out();
  Value y = b.build<op::AddOp>(mm, bias).out();
  ShadowOutputOp::build(b, y, "y");
  ShadowOutputOp::build(b, mm, "mm");  // matmul result used outside the pattern
  RewritePatternSet ps(&ctx);
  add_linear_fusion(ps);
  apply_patterns_greedily(p.module(), ps);
  EXPECT_EQ(op_names(p)[3], "op.matmul");
  p.block()->back()->erase();
  apply_patterns_greedily(p.module(), ps);
  EXPECT_EQ(op_names(p)[3], "op.linear");
  p.verify();
}

TEST_F(DrrTest, CustomRuleWithConstraintAndComputedAttribute) {
  // scale(scale(x, a), b) -> scale(x, a * b) when both biases are zero.
  drr::Rule rule("scale_scale");
  auto& src = rule.source();
  src.op("op.scale", {{"scale", drr::bind("a")}, {"bias", drr::bind("ba")}})({"x"}, {"t"});
  src.op("op.scale", {{"scale", drr::bind("b")}, {"bias", drr::bind("bb")}})({"t"}, {"out"});
  rule.require([](const drr::MatchContext& m) {
    return m.attr_double("ba") == 0 && m.attr_double("bb") == 0;
  });
  rule.result().op("op.scale", {{"scale", drr::compute([](const drr::MatchContext& m) -> Attribute {
                                   return FloatAttr::get(m.context(),
                                                         m.attr_double("a") * m.attr_double("b"));
                                 })}})({"x"}, {"out"});
  RewritePatternSet ps(&ctx);
  ps.add(rule.build(&ctx));
  Program p(&ctx);
  Builder b(&ctx, p.block());
  Value v = data(b, "x", {3});
  v = b.build<op::ScaleOp>(v, 2.0, 0.0).out();
  v = b.build<op::ScaleOp>(v, 3.0, 0.0).out();
  v = b.build<op::ScaleOp>(v, 5.0, 1.0).out();  // bias: not folded
  ShadowOutputOp::build(b, v, "y");
  apply_patterns_greedily(p.module(), ps);
  std::vector<std::string> want = {"op.data", "op.scale", "op.scale", "builtin.shadow_output"};
  EXPECT_EQ(op_names(p), want);
  EXPECT_DOUBLE_EQ(attr_double(p.block()->front()->next(), "scale"), 6.0);
  // Defaults of unset result attributes come from the schema.
  EXPECT_TRUE(attr_bool(p.block()->front()->next(), "bias_after_scale"));
  p.verify();
}

TEST_F(DrrTest, InvalidRulesAreRejected) {
  drr::Rule two_sinks("two_sinks");
  two_sinks.source().op("op.relu")({"x"}, {"a"});
  two_sinks.source().op("op.exp")({"x"}, {"b"});
  two_sinks.result().op("op.relu")({"x"}, {"a"});
  EXPECT_THROW(two_sinks.build(&ctx), Error);
  drr::Rule unknown("unknown");
  unknown.source().op("op.nope")({"x"}, {"a"});
  unknown.result().op("op.relu")({"x"}, {"a"});
  EXPECT_THROW(unknown.build(&ctx), Error);
  drr::Rule unbound("unbound");
  unbound.source().op("op.relu")({"x"}, {"a"});
  unbound.result().op("op.add")({"x", "zz"}, {"a"});
  EXPECT_THROW(unbound.build(&ctx), Error);
}

}  // namespace
}  // namespace skiff::ir
