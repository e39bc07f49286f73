// The op dialect bridge (skiff/ops/ir): every op record's infer-meta on IR types agrees with the
// eager call on the op database's samples, kernel-executing folding gives the eager values,
// dynamic dims propagate, and the conversions between tensors and dense attributes round-trip.
#include "skiff/ir/dialects/op_dialect.h"

#include <gtest/gtest.h>

#include <cstring>

#include "op_db.h"
#include "skiff/core/generator.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/core/program.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/register.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/ops/boxed.h"
#include "skiff/ops/generated/dense/all.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/ops/ir/op_bridge.h"
#include "skiff/ops/kernel_registry.h"

namespace skiff::testing {
namespace {

namespace br = ops::ir_bridge;

class OpDialectBridge : public ::testing::Test {
 protected:
  void SetUp() override {
    ir::load_all_dialects(&ctx);
    br::attach_op_interfaces(&ctx);
  }
  ir::IrContext ctx;
};

TEST_F(OpDialectBridge, EveryRecordGetsItsInterfaces) {
  for (const ops::OpSchema& s : ops::all_op_schemas()) {
    const ir::OpInfo* info = ctx.find_op(str("op.", s.name));
    ASSERT_NE(info, nullptr) << s.name << " has no IR op";
    EXPECT_NE(info->interface<ir::InferMetaInterface>(), nullptr) << s.name;
    EXPECT_NE(info->interface<ir::FoldInterface>(), nullptr) << s.name;
    const auto* ks = info->interface<ir::KernelSelectInterface>();
    ASSERT_NE(ks, nullptr) << s.name;
    EXPECT_FALSE(ks->kernel_name.empty()) << s.name;
  }
  // The ops without a record get the IR's own rules.
  for (const char* name : {"op.data", "op.print", "op.swiglu", "op.rotary_embedding"}) {
    EXPECT_NE(ctx.op_info(name)->interface<ir::InferMetaInterface>(), nullptr) << name;
  }
}

DType tested_dtype(const ops::OpSchema& s) {
  std::vector<DType> cpu;
  for (const auto& k : ops::KernelRegistry::global().kernels_of(s.id)) {
    if (k.backend == Backend::kCPU) cpu.push_back(k.dtype);
  }
  for (DType d : {DType::kFloat32, DType::kInt64, DType::kBool}) {
    if (std::find(cpu.begin(), cpu.end(), d) != cpu.end()) return d;
  }
  return cpu.empty() ? DType::kFloat32 : cpu[0];
}

ops::BoxedInputs make_inputs(const OpInfo& info, const OpSample& sample, DType dtype) {
  std::mt19937_64 rng(7);
  ops::BoxedInputs in;
  in.tensors = sample_inputs(info, sample, dtype, rng);
  in.attrs = sample.attrs;
  return in;
}

/// Equal values (NaN equal to NaN) and dtype.
bool same_values(const DenseTensor& a, const DenseTensor& b) {
  if (a.dtype() != b.dtype() || a.dims() != b.dims()) return false;
  std::vector<double> x = to_doubles(a), y = to_doubles(b);
  for (size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i])))) return false;
  }
  return true;
}

void expect_type_matches(ir::Type t, const DenseTensor& want, const std::string& where) {
  auto tt = t.dyn_cast<ir::TensorType>();
  ASSERT_TRUE(tt) << where << ": " << ir::to_string(t);
  EXPECT_EQ(br::from_ir(tt.dtype()), want.dtype()) << where;
  ASSERT_EQ(tt.rank(), want.rank()) << where << ": " << ir::to_string(t);
  for (int i = 0; i < want.rank(); ++i) {
    // Data-dependent dims (nonzero, unique, masked_select) are dynamic in the IR.
    if (tt.shape()[i] != ir::kDynamic) {
      EXPECT_EQ(tt.shape()[i], want.dim(i)) << where;
    }
  }
}

// Every op of the op table, every sample: build the IR op on constant operands (result types
// from the bridge's infer-meta), compare with the eager outputs, fold, and compare the folded
// data with the eager values (ops that cannot fold must stay).
TEST_F(OpDialectBridge, InferMetaAndFoldingMatchEagerForEveryOp) {
  int folded = 0, checked = 0;
  for (const auto& [name, info] : OpDb::get().infos()) {
    if (info.eager_only) continue;  // complex inputs or results: the IR has no complex type
    const ops::OpSchema& s = ops::op_schema(name);
    const DType dtype = tested_dtype(s);
    for (size_t k = 0; k < info.samples.size(); ++k) {
      const std::string where = str(name, " sample ", k, " ", dtype);
      const ops::BoxedInputs in = make_inputs(info, info.samples[k], dtype);
      default_generator(Place::cpu()).set_state({1234, 0});
      ops::BoxedOutputs want;
      try {
        want = ops::call_boxed(s.id, in);
      } catch (const Error& e) {
        ADD_FAILURE() << where << ": eager call threw " << e.what();
        continue;
      }
      ir::Program program(&ctx);
      ir::Builder b(&ctx, program.block());
      std::vector<ir::Value> operands;
      bool has_list = false;
      size_t t = 0;
      for (const ops::ArgSchema& arg : s.args) {
        if (!ops::is_tensor_kind(arg.kind)) continue;
        const auto& list = in.tensors[t++];
        std::vector<ir::Value> vals;
        for (const DenseTensor& x : list) {
          ir::DenseElementsAttr a = br::to_attr(&ctx, x);
          vals.push_back(ir::ConstantOp::build(b, a, a.type()).out());
        }
        if (arg.kind == ops::ArgKind::kTensorList) {
          has_list = true;
          operands.push_back(ir::CombineOp::build(b, vals).out());
        } else {
          operands.push_back(vals.empty() ? ir::Value() : vals[0]);
        }
      }
      ir::Operation* op = nullptr;
      try {
        op = b.create_inferred(str("op.", name), operands, br::to_ir_attrs(&ctx, s, in.attrs));
      } catch (const Error& e) {
        ADD_FAILURE() << where << ": IR build threw " << e.what();
        continue;
      }
      ASSERT_EQ(op->num_results(), want.size()) << where;
      bool list_out = false;
      for (uint32_t j = 0; j < op->num_results(); ++j) {
        if (s.outputs[j].is_list) {
          list_out = true;
          auto vt = op->result_type(j).dyn_cast<ir::VectorType>();
          ASSERT_TRUE(vt && vt.size() == want[j].size()) << where;
          for (size_t e = 0; e < vt.size(); ++e) {
            expect_type_matches(vt.elements()[e], want[j][e], where);
          }
        } else {
          expect_type_matches(op->result_type(j), want[j][0], where);
        }
      }
      ++checked;
      std::vector<ir::Value> results = op->results();
      for (ir::Value r : results) ir::ShadowOutputOp::build(b, r, "out");
      bool dynamic = false;
      int64_t elements = 0;
      for (ir::Value r : results) {
        auto tt = r.type().dyn_cast<ir::TensorType>();
        dynamic = dynamic || (tt && tt.is_dynamic());
        if (tt && !tt.is_dynamic()) elements += tt.numel();
      }
      // Creation ops (no operands) are sources like constants: the pass leaves them.
      const bool has_operands = op->num_operands() > 0;
      ir::PassManager pm(&ctx);
      pm.add_pass(ir::create_constant_fold_pass());
      pm.run(program);  // `op` may be gone now
      const bool can_fold = !s.is_random && !has_list && !list_out && !dynamic && has_operands &&
                            elements <= br::fold_max_elements();
      for (size_t j = 0; j < results.size(); ++j) {
        // After folding, the shadow outputs read constants.
        ir::Operation* out = program.block()->front();
        for (size_t skip = 0; out && (out->name() != ir::ShadowOutputOp::kName || skip < j);
             out = out->next()) {
          if (out->name() == ir::ShadowOutputOp::kName) ++skip;
        }
        ASSERT_NE(out, nullptr) << where;
        ir::Operation* def = out->operand(0).defining_op();
        if (!can_fold) {
          EXPECT_EQ(def->name(), str("op.", name)) << where << " must not fold";
          continue;
        }
        if (!def->has_trait<ir::ConstantLikeTrait>()) {
          ADD_FAILURE() << where << " did not fold: " << ir::to_string(def);
          continue;
        }
        ir::Attribute v = def->attr("value") ? def->attr("value") : def->attr("fill_value");
        DenseTensor got = br::to_dense(v, out->operand(0).type().cast<ir::TensorType>());
        EXPECT_TRUE(same_values(got, want[j][0])) << where << " output " << j;
        ++folded;
      }
    }
  }
  EXPECT_GT(checked, 300);
  EXPECT_GT(folded, 250);
}

TEST_F(OpDialectBridge, DynamicDimsPropagate) {
  ir::Program program(&ctx);
  ir::Builder b(&ctx, program.block());
  auto x = ir::op::DataOp::build_typed(
               b, std::vector<ir::Type>{ir::TensorType::get(&ctx, ir::DataType::kFloat32, {-1, 4})},
               "x", {-1, 4}, ir::DataType::kFloat32)
               .out();
  auto w = ir::ConstantOp::build(b, ir::FloatAttr::get(&ctx, 1.0),
                                 ir::TensorType::get(&ctx, ir::DataType::kFloat32, {4, 3}))
               .out();
  auto m = ir::op::MatmulOp::build(b, x, w).out();
  EXPECT_EQ(ir::to_string(m.type()), "tensor<?x3xf32>");
  auto s = ir::op::AddOp::build(
               b, m, ir::op::SumOp::build(b, m, {0}, ir::DataType::kUndefined, true).out())
               .out();
  EXPECT_EQ(ir::to_string(s.type()), "tensor<?x3xf32>");
  auto r = ir::op::ReshapeOp::build(b, s, {-1}).out();
  EXPECT_EQ(ir::to_string(r.type()), "tensor<?xf32>");
  auto t = ir::op::TransposeOp::build(b, m, {1, 0}).out();
  EXPECT_EQ(ir::to_string(t.type()), "tensor<3x?xf32>");
}

TEST_F(OpDialectBridge, PromotionAndKernelDType) {
  ir::Program program(&ctx);
  ir::Builder b(&ctx, program.block());
  auto i = ir::ConstantOp::build(b, ir::IntAttr::get(&ctx, 1),
                                 ir::TensorType::get(&ctx, ir::DataType::kInt32, {2}))
               .out();
  auto f = ir::ConstantOp::build(b, ir::FloatAttr::get(&ctx, 1.0),
                                 ir::TensorType::get(&ctx, ir::DataType::kFloat32, {2}))
               .out();
  auto add = ir::op::AddOp::build(b, i, f);
  EXPECT_EQ(ir::to_string(add.out().type()), "tensor<2xf32>");
  EXPECT_EQ(br::kernel_dtype(add.operation()), DType::kFloat32);
  auto cast = ir::op::CastOp::build(b, f, ir::DataType::kFloat64);
  EXPECT_EQ(br::kernel_dtype(cast.operation()), DType::kFloat32);  // cast is keyed by its input
  const auto* ks = cast.operation()->info()->interface<ir::KernelSelectInterface>();
  ASSERT_NE(ks, nullptr);
  EXPECT_EQ(ks->kernel_name, "cast");
  EXPECT_EQ(ks->kernel_dtype(cast.operation()), ir::DataType::kFloat32);
  const auto* add_ks = add.operation()->info()->interface<ir::KernelSelectInterface>();
  EXPECT_EQ(add_ks->kernel_dtype(add.operation()), ir::DataType::kFloat32);  // promoted
}

TEST_F(OpDialectBridge, InferMetaErrorsNameTheOpAndArgument) {
  ir::Program program(&ctx);
  ir::Builder b(&ctx, program.block());
  auto x = ir::ConstantOp::build(b, ir::FloatAttr::get(&ctx, 1.0),
                                 ir::TensorType::get(&ctx, ir::DataType::kFloat32, {2, 3}))
               .out();
  try {
    ir::op::MatmulOp::build(b, x, x);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("matmul"), std::string::npos) << e.what();
  }
  ir::Value operands[] = {x, x};
  try {
    b.create_inferred(
        "op.matmul", operands,
        {b.named("transpose_x", b.int_attr(1)), b.named("transpose_y", b.bool_attr(true))});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("matmul: argument 'transpose_x' expected a bool, got 1"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(OpDialectBridge, LargeResultsAreNotFolded) {
  ir::Program program(&ctx);
  ir::Builder b(&ctx, program.block());
  auto col = ir::TensorType::get(&ctx, ir::DataType::kFloat32, {300, 1});
  auto row = ir::TensorType::get(&ctx, ir::DataType::kFloat32, {1, 300});
  auto a = ir::ConstantOp::build(b, ir::FloatAttr::get(&ctx, 1.0), col).out();
  auto c = ir::ConstantOp::build(b, ir::FloatAttr::get(&ctx, 2.0), row).out();
  auto m = ir::op::MatmulOp::build(b, a, c).out();  // 300x300 results
  ir::ShadowOutputOp::build(b, m, "m");
  EXPECT_GT(300 * 300, br::fold_max_elements());
  ir::PassManager pm(&ctx);
  pm.add_pass(ir::create_constant_fold_pass());
  pm.run(program);
  EXPECT_NE(program.print().find("op.matmul"), std::string::npos) << program.print();
}

TEST_F(OpDialectBridge, TensorsAndDenseAttributesRoundTrip) {
  std::mt19937_64 rng(3);
  for (DType d :
       {DType::kBool, DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32, DType::kInt64,
        DType::kFloat16, DType::kBFloat16, DType::kFloat32, DType::kFloat64}) {
    DenseTensor x = random_tensor(Dims{3, 7}, d, Domain::kAny, rng);
    DenseTensor strided = noncontiguous_copy(x);
    ir::DenseElementsAttr a = br::to_attr(&ctx, strided);
    EXPECT_EQ(a, br::to_attr(&ctx, x)) << d;  // uniqued: same data, same attribute
    EXPECT_TRUE(same_values(br::to_dense(a, a.type()), x)) << d;
    // Print -> parse gives the same attribute (hex blob above 16 elements).
    std::string text = ir::to_string(a);
    ir::AsmParser p(&ctx, text);
    EXPECT_EQ(p.parse_attr(), a) << text;
  }
  // A scalar constant is a splat of the type.
  DenseTensor s = br::to_dense(ir::FloatAttr::get(&ctx, 2.5),
                               ir::TensorType::get(&ctx, ir::DataType::kBFloat16, {2, 2}));
  EXPECT_EQ(to_doubles(s), (std::vector<double>{2.5, 2.5, 2.5, 2.5}));
  try {
    br::to_dense(ir::ArrayAttr::get_floats(&ctx, std::vector<double>{1.0, 2.0}),
                 ir::TensorType::get(&ctx, ir::DataType::kFloat32, {3}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a number or 3 numbers for tensor<3xf32>"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace skiff::testing
