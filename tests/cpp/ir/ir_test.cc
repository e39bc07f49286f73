// Unit tests of the IR core: uniquing, use-def chains, builder, walk/erase/clone, traits and
// interfaces attached after registration, printer/parser round trips, verifier, passes.
#include <gtest/gtest.h>

#include <thread>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/core/program.h"
#include "skiff/ir/core/verifier.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/cf.h"
#include "skiff/ir/dialects/dist.h"
#include "skiff/ir/dialects/kernel.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/dialects/register.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/ir/passes/pattern.h"
#include "tests/cpp/ir/test_infer_meta.h"

namespace skiff::ir {
namespace {

class IrTest : public ::testing::Test {
 protected:
  void SetUp() override {
    load_all_dialects(&ctx);
    attach_test_infer_meta(&ctx);
    register_standard_passes();
  }
  TensorType f32(std::initializer_list<int64_t> shape) {
    return TensorType::get(&ctx, DataType::kFloat32, shape);
  }
  IrContext ctx;
};

TEST_F(IrTest, TypesAndAttributesAreUniqued) {
  EXPECT_EQ(f32({2, 3}), f32({2, 3}));
  EXPECT_NE(f32({2, 3}), f32({3, 2}));
  EXPECT_NE(f32({2, 3}), TensorType::get(&ctx, DataType::kFloat32, {2, 3}, Layout::kNHWC));
  EXPECT_EQ(f32({-1, 3}).numel(), -1);
  EXPECT_TRUE(f32({-1, 3}).is_dynamic());
  EXPECT_EQ(IntAttr::get(&ctx, 3), IntAttr::get(&ctx, 3));
  EXPECT_NE(FloatAttr::get(&ctx, 0.0), FloatAttr::get(&ctx, -0.0));
  EXPECT_EQ(StrAttr::get(&ctx, "a").value(), "a");
  int64_t v[] = {1, 2};
  EXPECT_EQ(ArrayAttr::get_ints(&ctx, v), ArrayAttr::get_ints(&ctx, v));
  Type t = f32({2});
  EXPECT_TRUE(t.isa<TensorType>());
  EXPECT_FALSE(t.isa<VectorType>());
  EXPECT_EQ(to_string(VectorType::get(&ctx, std::vector<Type>{t, t})),
            "vec<tensor<2xf32>, tensor<2xf32>>");
}

TEST_F(IrTest, UniquingIsThreadSafe) {
  std::vector<std::thread> threads;
  std::vector<Type> got(8);
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < 2000; ++k) {
        got[i] = TensorType::get(&ctx, DataType::kFloat32, {k % 50, 7});
        IntAttr::get(&ctx, k);
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 1; i < 8; ++i) EXPECT_EQ(got[i], got[0]);
}

TEST_F(IrTest, UseDefChainsAndReplaceAllUses) {
  Program p(&ctx);
  Builder b(&ctx, p.block());
  auto x = b.build<op::DataOp>("x", std::vector<int64_t>{2, 3}, DataType::kFloat32);
  auto r1 = b.build<op::ReluOp>(x.out());
  auto r2 = b.build<op::ExpOp>(x.out());
  auto s = b.build<op::AddOp>(r1.out(), r2.out());
  EXPECT_EQ(x.out().use_count(), 2u);
  EXPECT_EQ(s.out().type(), f32({2, 3}));
  EXPECT_EQ(s.x().defining_op(), r1.operation());
  r2.out().replace_all_uses_with(r1.out());
  EXPECT_TRUE(r2.out().use_empty());
  EXPECT_EQ(r1.out().use_count(), 2u);
  r2->erase();
  EXPECT_EQ(x.out().use_count(), 1u);
  EXPECT_EQ(p.num_ops(), 3u);
  for (OpOperand& u : r1.out().uses()) EXPECT_EQ(u.owner(), s.operation());
  EXPECT_EQ(OpResult::of(s.out()).owner(), s.operation());
  EXPECT_EQ(OpResult::of(s.out()).result_number(), 0u);
  EXPECT_FALSE(BlockArgument::of(s.out()));
  EXPECT_EQ(s->op_operand(1).index(), 1u);
  EXPECT_THROW(x->erase(), Error);  // still used
  p.verify();
}

TEST_F(IrTest, BuilderInsertionPointsWalkAndClone) {
  Program p(&ctx);
  Builder b(&ctx, p.block());
  b.set_loc(LocAttr::get(&ctx, "m.py", 4, 2));
  auto x = b.build<op::DataOp>("x", std::vector<int64_t>{4}, DataType::kFloat32);
  auto c = b.build<op::DataOp>("c", std::vector<int64_t>{}, DataType::kBool);
  Type types[] = {x.out().type()};
  auto iff = b.build<IfOp>(c.out(), std::span<const Type>(types));
  b.set_insertion_point_to_end(iff.then_block());
  auto e = b.build<op::ExpOp>(x.out());
  Value ev[] = {e.out()};
  b.build<YieldOp>(std::span<const Value>(ev));
  b.set_insertion_point_to_end(iff.else_block());
  Value xv[] = {x.out()};
  b.build<YieldOp>(std::span<const Value>(xv));
  b.set_insertion_point(iff.operation());  // before the if
  auto r = b.build<op::ReluOp>(x.out());
  EXPECT_EQ(r->next(), iff.operation());
  EXPECT_EQ(e->loc().file(), "m.py");
  p.verify();

  std::vector<std::string> names;
  p.module()->walk([&](Operation* op) { names.push_back(std::string(op->name())); });
  std::vector<std::string> want = {"builtin.module", "op.data", "op.data",  "op.relu",
                                   "cf.if",          "op.exp",  "cf.yield", "cf.yield"};
  EXPECT_EQ(names, want);

  auto copy = p.clone();
  EXPECT_EQ(copy->print(), p.print());
  copy->verify();
  // The clone is independent: erasing in it leaves the original intact.
  Operation* relu_copy = copy->block()->front()->next()->next();
  EXPECT_EQ(relu_copy->name(), "op.relu");
  relu_copy->erase();
  EXPECT_EQ(p.num_ops(), 7u);
  EXPECT_EQ(copy->num_ops(), 6u);
}

TEST_F(IrTest, TraitsAndInterfacesAttachAfterRegistration) {
  OpInfo* add = ctx.op_info("op.add");
  EXPECT_TRUE(add->has_trait<PureTrait>());
  EXPECT_TRUE(add->has_trait<CommutativeTrait>());
  EXPECT_FALSE(ctx.op_info("op.data")->has_trait<PureTrait>());
  EXPECT_TRUE(ctx.op_info("cf.yield")->has_trait<TerminatorTrait>());
  // A "higher library" attaches an interface to an op it does not own.
  OpInfo* relu = ctx.op_info("op.relu");
  EXPECT_EQ(relu->interface<VjpInterface>(), nullptr);
  int calls = 0;
  relu->attach_interface<VjpInterface>(
      VjpConcept{[&](Builder&, Operation*, std::span<const Value> g) {
        ++calls;
        return std::vector<Value>(g.begin(), g.end());
      }});
  Program p(&ctx);
  Builder b(&ctx, p.block());
  auto x = b.build<op::DataOp>("x", std::vector<int64_t>{4}, DataType::kFloat32);
  auto r = b.build<op::ReluOp>(x.out());
  auto vjp = r->interface<VjpInterface>();
  ASSERT_TRUE(vjp);
  Value g[] = {x.out()};
  EXPECT_EQ(vjp.impl()->vjp(b, r.operation(), g).size(), 1u);
  EXPECT_EQ(calls, 1);
  // Trait added later takes part in verification.
  relu->add_trait<SameOperandsAndResultShapeTrait>();
  p.verify();
}

TEST_F(IrTest, InferMetaAndSchemaVerification) {
  Program p(&ctx);
  Builder b(&ctx, p.block());
  auto x = b.build<op::DataOp>("x", std::vector<int64_t>{-1, 8}, DataType::kFloat32);
  auto w = b.build<op::DataOp>("w", std::vector<int64_t>{16, 8}, DataType::kFloat32);
  auto mm = b.build<op::MatmulOp>(x.out(), w.out(), false, true);
  EXPECT_EQ(to_string(mm.out().type()), "tensor<?x16xf32>");
  EXPECT_FALSE(mm.transpose_x());
  EXPECT_TRUE(mm.transpose_y());
  auto t = b.build<op::TransposeOp>(mm.out(), std::vector<int64_t>{1, 0});
  EXPECT_EQ(to_string(t.out().type()), "tensor<16x?xf32>");
  auto m = b.build<op::MeanOp>(t.out(), std::vector<int64_t>{-1}, true);
  EXPECT_EQ(to_string(m.out().type()), "tensor<16x1xf32>");
  EXPECT_THROW(b.build<op::MatmulOp>(x.out(), w.out()), Error);  // k: 8 vs 16
  p.verify();
  mm->remove_attr("transpose_y");
  try {
    p.verify();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'op.matmul': argument 'transpose_y'"), std::string::npos);
  }
}

TEST_F(IrTest, ParsePrintFixedPointAndErrors) {
  const char* text = R"(builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2, -1]} : () -> tensor<2x?xf32>
  %1 = op.relu(%0) : (tensor<2x?xf32>) -> tensor<2x?xf32> loc("a.py":1:2)
  %2 = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %3 = cf.while(%2, %1) : (tensor<bool>, tensor<2x?xf32>) -> tensor<2x?xf32> {
  ^bb0(%4: tensor<2x?xf32>):
    %5 = op.exp(%4) : (tensor<2x?xf32>) -> tensor<2x?xf32>
    cf.yield(%2, %5) : (tensor<bool>, tensor<2x?xf32>) -> ()
  }
}
)";
  auto p = Program::parse(&ctx, text);
  p->verify();
  EXPECT_EQ(p->print(), text);
  EXPECT_EQ(Program::parse(&ctx, p->print())->print(), text);
  for (const char* bad :
       {"", "builtin.module {", "builtin.module { %0 = }", "op.relu", "builtin.module {} trailing",
        "builtin.module { %0 = op.data : () -> tensor<2xq32> }",
        "builtin.module { %0 = op.full {a = [[[[[[[} }",
        // Found by the fuzzer: a later region uses an earlier region's value,
        // then parsing fails; teardown must drop all uses before freeing.
        "builtin.module { %c = op.data {dtype = bool, name = \"c\", shape = []} : "
        "() -> tensor<bool>\n %r = cf.if(%c) : (tensor<bool>) -> tensor<bool> {\n"
        " %a = op.relu(%c) : (tensor<bool>) -> tensor<bool>\n cf.yield(%a) : "
        "(tensor<bool>) -> ()\n } {\n cf.yield(%a) : (tensor<bool>) -> ()\n } {"}) {
    EXPECT_THROW(Program::parse(&ctx, bad), Error) << bad;
  }
}

TEST_F(IrTest, PassManagerInstrumentationAndOptLevels) {
  auto p = Program::parse(&ctx, R"(builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %1 = op.relu(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = op.relu(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %3 = op.add(%1, %2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = op.silu(%3) : (tensor<2xf32>) -> tensor<2xf32>
  %5 = op.multiply(%4, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  builtin.shadow_output(%5) {name = "out"} : (tensor<2xf32>) -> ()
})");
  std::ostringstream log;
  PassManager pm(&ctx, /*opt_level=*/1);
  pm.add_pipeline("cse,fuse-swiglu,dce");
  pm.enable_timing(log);
  pm.enable_ir_printing(log, {"cse"}, {"*"});
  pm.run(*p);
  std::string out = p->print();
  EXPECT_EQ(out.find("op.relu(%0)", out.find("op.relu(%0)") + 1), std::string::npos);  // CSE'd
  EXPECT_NE(out.find("op.silu"), std::string::npos);  // fusion is level 2: skipped
  EXPECT_NE(log.str().find("IR Dump Before cse"), std::string::npos);
  EXPECT_NE(log.str().find("IR Dump After dce"), std::string::npos);
  EXPECT_NE(log.str().find("pass timing"), std::string::npos);
  PassManager pm2(&ctx, 2);
  pm2.add_pipeline("fusion");
  pm2.run(*p);
  EXPECT_NE(p->print().find("op.swiglu"), std::string::npos);
}

// A pattern written by hand: relu(relu(x)) -> relu(x).
class ReluRelu : public OpRewritePattern<op::ReluOp> {
 public:
  bool match_and_rewrite(op::ReluOp op, PatternRewriter& r) const override {
    Operation* def = op.x().defining_op();
    if (!def || !def->isa<op::ReluOp>()) return false;
    r.replace_op(op.operation(), op.x());
    return true;
  }
};

TEST_F(IrTest, GreedyDriverReachesFixedPoint) {
  Program p(&ctx);
  Builder b(&ctx, p.block());
  Value v = b.build<op::DataOp>("x", std::vector<int64_t>{3}, DataType::kFloat32).out();
  for (int i = 0; i < 50; ++i) v = b.build<op::ReluOp>(v).out();
  ShadowOutputOp::build(b, v, "y");
  RewritePatternSet patterns(&ctx);
  patterns.add<ReluRelu>();
  GreedyResult r = apply_patterns_greedily(p.module(), patterns);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(p.num_ops(), 3u);  // data, relu, shadow_output
  p.verify();
}

TEST_F(IrTest, KernelDialectTypes) {
  auto t = DenseTensorOnPlaceType::get(&ctx, Place{"gpu", 0}, f32({2, 3}));
  EXPECT_EQ(to_string(t), "!kernel.dense<gpu:0, tensor<2x3xf32>>");
  auto k = KernelKeyAttr::get(&ctx, "cpu", DataType::kBFloat16, Layout::kNCHW);
  EXPECT_EQ(to_string(k), "#kernel.key<cpu, bf16, NCHW>");
  Program p(&ctx);
  Builder b(&ctx, p.block());
  Value x = ParameterOp::build(b, "w", t).operation()->result(0);
  auto tr = TransferOp::build(b, x, Place{"cpu", -1});
  EXPECT_EQ(to_string(tr->result_type(0)), "!kernel.dense<cpu, tensor<2x3xf32>>");
  p.verify();
  EXPECT_EQ(Program::parse(&ctx, p.print())->print(), p.print());
}

TEST_F(IrTest, DistTensorType) {
  Placement s0 = Placement::shard(0), r = Placement::replicate();
  int64_t mesh[] = {2, 4};
  Placement pl[] = {s0, r};
  auto t = DistTensorType::get(&ctx, f32({8, 6}), mesh, pl);
  EXPECT_EQ(t, DistTensorType::get(&ctx, f32({8, 6}), mesh, pl));
  EXPECT_EQ(t, DistTensorType::get(&ctx, f32({8, 6}), ProcessMesh({2, 4}), pl));
  EXPECT_EQ(t.process_mesh(), ProcessMesh({2, 4}));
  EXPECT_EQ(t.local_shape(), (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(to_string(t), "!dist.tensor<tensor<8x6xf32>, mesh = [2, 4], placements = [S(0), R]>");
  Placement bad[] = {Placement::shard(2), r};
  EXPECT_THROW(DistTensorType::get(&ctx, f32({8, 6}), mesh, bad), Error);
  EXPECT_THROW(Program::parse(&ctx,
                              "builtin.module { %0 = builtin.parameter {name = \"w\"} : () -> "
                              "!dist.tensor<tensor<8xf32>, mesh = [2], placements = [S(3)]> }"),
               Error);
}

TEST_F(IrTest, DistTensorTypeWithNamedMeshAndPartialReductions) {
  ProcessMesh m({2}, {4, 5}, {"mp"});
  Placement pl[] = {Placement::partial(dist::ReduceType::kRedMax)};
  auto t = DistTensorType::get(&ctx, f32({8}), m, pl);
  EXPECT_NE(t, DistTensorType::get(&ctx, f32({8}), ProcessMesh({2}), pl));
  EXPECT_EQ(to_string(t),
            "!dist.tensor<tensor<8xf32>, mesh = [2], process_ids = [4, 5], dim_names = [\"mp\"], "
            "placements = [P(max)]>");
  Program p(&ctx);
  Builder b(&ctx, p.block());
  ParameterOp::build(b, "w", t);
  const std::string text = p.print();
  auto q = Program::parse(&ctx, text);
  EXPECT_EQ(q->print(), text);
  // Bad meshes and reductions in the text are parse errors naming what is wrong.
  auto parse_error = [&](const std::string& type) {
    try {
      Program::parse(
          &ctx, "builtin.module { %0 = builtin.parameter {name = \"w\"} : () -> " + type + " }");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(parse_error("!dist.tensor<tensor<8xf32>, mesh = [2], placements = [P(mean)]>")
                .find("reduce_type"),
            std::string::npos);
  EXPECT_NE(parse_error("!dist.tensor<tensor<8xf32>, mesh = [2], process_ids = [1, 1], "
                        "placements = [R]>")
                .find("distinct ids"),
            std::string::npos);
}

}  // namespace
}  // namespace skiff::ir
