// The inference pass pipeline (skiff/inference/pass_pipeline.h), before/after IR: parameter
// folding, the oneDNN fusions, and the switches that turn them off.
#include "skiff/inference/pass_pipeline.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "model_util.h"
#include "skiff/inference.h"
#include "skiff/inference/saved_model.h"
#include "skiff/ops/generated/api.h"
#include "skiff/tensor_util.h"

namespace skiff {
namespace {

using inference::Config;
using inference::CreatePredictor;

// y = x @ (2 * w^T) + b: the transpose and the scale depend only on the weight.
struct Folding {
  Tensor w = to_tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});  // [out=2, in=3]
  Tensor b = to_tensor<float>({0.5f, -0.5f}, {2});
  std::vector<Tensor> operator()(const std::vector<Tensor>& in) const {
    return {add(matmul(in[0], scale(transpose(w, {1, 0}), 2.0)), b)};
  }
};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

class PassPipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = inference::testing::temp_dir(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    inference::testing::save_model(dir_ + "/m", Folding(), {{{-1, 3}, DType::kFloat32, "x"}});
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::vector<float> run(inference::Predictor& p) {
    auto in = p.GetInputHandle("x");
    in->Reshape({2, 3});
    const float x[6] = {1, 0, -1, 0.5f, 2, 1};
    in->CopyFromCpu(x);
    p.Run();
    std::vector<float> y(4);
    p.GetOutputHandle("out0")->CopyToCpu(y.data());
    return y;
  }
  std::string dir_;
};

TEST_F(PassPipelineTest, FoldParamsEvaluatesWeightOnlyOpsAtLoad) {
  inference::SavedModel m = inference::read_saved_model(dir_ + "/m.pdmodel", dir_ + "/m.pdiparams");
  const std::string before = m.program.program->print();
  EXPECT_EQ(count(before, "op.transpose"), 1u);
  EXPECT_EQ(count(before, "op.scale"), 1u);
  EXPECT_EQ(inference::fold_params(m.program), 1);
  const std::string after = m.program.program->print();
  EXPECT_EQ(count(after, "op.transpose"), 0u) << after;
  EXPECT_EQ(count(after, "op.scale"), 0u) << after;
  EXPECT_NE(after.find("builtin.parameter {name = \"folded0\"} : () -> tensor<3x2xf32>"),
            std::string::npos)
      << after;
  EXPECT_NE(after.find("op.matmul(%"), std::string::npos) << after;
  // The folded value is 2 * w^T, bound as a parameter.
  const auto& folded = m.program.params.back();
  EXPECT_EQ(folded.first, "folded0");
  EXPECT_EQ(to_vector<float>(folded.second), (std::vector<float>{2, 8, 4, 10, 6, 12}));
  // Nothing left to fold.
  EXPECT_EQ(inference::fold_params(m.program), 0);
}

TEST_F(PassPipelineTest, PredictorOutputsAreTheSameWithAndWithoutPasses) {
  // y = x @ (2 w^T) + b for x = [[1, 0, -1], [0.5, 2, 1]].
  const std::vector<float> want = {2 * (1 - 3) + 0.5f, 2 * (4 - 6) - 0.5f,
                                   2 * (0.5f + 4 + 3) + 0.5f, 2 * (2 + 10 + 6) - 0.5f};
  auto optimized = CreatePredictor(Config(dir_));
  const std::string text = optimized->optimized_program();
  // Folded weight, matmul + bias fused into linear, lowered to kernels.
  EXPECT_EQ(count(text, "transpose"), 0u) << text;
  EXPECT_EQ(count(text, "\"linear\""), 1u) << text;
  EXPECT_EQ(count(text, "\"add\""), 0u) << text;
  Config plain(dir_);
  plain.SwitchIrOptim(false);
  auto unoptimized = CreatePredictor(plain);
  const std::string raw = unoptimized->optimized_program();
  EXPECT_EQ(count(raw, "\"transpose\""), 1u) << raw;
  EXPECT_EQ(count(raw, "\"linear\""), 0u) << raw;
  Config no_fold(dir_);
  no_fold.DeletePass("fold-params");
  no_fold.DeletePass("fuse-linear");
  auto partial = CreatePredictor(no_fold);
  EXPECT_EQ(count(partial->optimized_program(), "\"transpose\""), 1u);
  EXPECT_EQ(count(partial->optimized_program(), "\"add\""), 1u);
  for (auto* p : {optimized.get(), unoptimized.get(), partial.get()}) {
    const std::vector<float> y = run(*p);
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(y[i], want[i], 1e-5) << i;
  }
}

TEST_F(PassPipelineTest, IrDebugPrintsAfterEveryPass) {
  Config c(dir_);
  c.SwitchIrDebug(true);
  ::testing::internal::CaptureStderr();
  CreatePredictor(c);
  const std::string err = ::testing::internal::GetCapturedStderr();
  for (const std::string& pass : c.passes()) {
    EXPECT_NE(err.find("// ----- IR after " + pass + "\n"), std::string::npos) << pass;
  }
  EXPECT_NE(err.find("// ----- IR after lower-to-kernel\n"), std::string::npos);
}

TEST_F(PassPipelineTest, CpuBfloat16RunsTheMatmulOnBfloat16Operands) {
  inference::SavedModel m = inference::read_saved_model(dir_ + "/m.pdmodel", dir_ + "/m.pdiparams");
  EXPECT_EQ(inference::fold_params(m.program), 1);
  EXPECT_EQ(count(m.program.program->print(), "op.cast"), 0u);
  // matmul is white: it alone changes dtype. add meets bfloat16 and the float32 bias, so it
  // stays float32 on a cast back.
  EXPECT_EQ(inference::mixed_precision(m.program, DType::kBFloat16), 1);
  std::string after = m.program.program->print();
  EXPECT_EQ(count(after, "op.cast"), 3u) << after;  // x and the weight in, the product back
  EXPECT_NE(after.find("op.matmul(%"), std::string::npos) << after;
  EXPECT_NE(after.find("-> tensor<?x2xbf16>"), std::string::npos) << after;
  EXPECT_NE(after.find("op.add"), std::string::npos) << after;
  EXPECT_NE(after.find("(tensor<?x2xf32>, tensor<2xf32>) -> tensor<?x2xf32>"), std::string::npos)
      << after;
  // The weight's cast is parameter-only: fold-params makes it a bfloat16 parameter.
  EXPECT_EQ(inference::fold_params(m.program), 1);
  after = m.program.program->print();
  EXPECT_EQ(count(after, "op.cast"), 2u) << after;
  EXPECT_NE(after.find("() -> tensor<3x2xbf16>"), std::string::npos) << after;
  // A second run finds nothing to change.
  EXPECT_EQ(inference::mixed_precision(m.program, DType::kBFloat16), 0);
}

TEST_F(PassPipelineTest, LlmInt8TurnsTheMatmulIntoLlmInt8Linear) {
  inference::SavedModel m = inference::read_saved_model(dir_ + "/m.pdmodel", dir_ + "/m.pdiparams");
  EXPECT_EQ(inference::fold_params(m.program), 1);
  const std::string before = m.program.program->print();
  EXPECT_EQ(count(before, "op.matmul"), 1u) << before;
  EXPECT_EQ(count(before, "op.llm_int8_linear"), 0u) << before;
  EXPECT_EQ(inference::llm_int8_quantize(m.program), 1);
  const std::string after = m.program.program->print();
  EXPECT_EQ(count(after, "op.matmul"), 0u) << after;
  EXPECT_EQ(count(after, "op.llm_int8_linear"), 1u) << after;
  EXPECT_NE(after.find("threshold = 6"), std::string::npos) << after;
  // The int8 rows [out, in] and float32 per-channel scales replace the folded float weight.
  EXPECT_NE(after.find("() -> tensor<2x3xi8>"), std::string::npos) << after;
  EXPECT_NE(after.find("() -> tensor<2xf32>"), std::string::npos) << after;
  EXPECT_EQ(count(after, "tensor<3x2xf32>"), 0u) << after;
  EXPECT_EQ(inference::llm_int8_quantize(m.program), 0);  // nothing left to rewrite
}

TEST_F(PassPipelineTest, EnableMkldnnInt8ServesTheModelInInt8) {
  Config c(dir_);
  EXPECT_FALSE(c.mkldnn_int8_enabled());
  c.EnableMkldnnInt8();
  EXPECT_TRUE(c.mkldnn_int8_enabled());
  EXPECT_EQ(c.passes().back(), inference::kLlmInt8Pass);
  auto p = CreatePredictor(c);
  EXPECT_NE(p->optimized_program().find("op.llm_int8_linear"), std::string::npos);
  // LLM.int8 by hand: x's rows [1, 0, -1] and [0.5, 2, 1] become levels (127, 0, -127) of
  // 1 / 127 and (32, 127, 64) of 2 / 127; the weight columns (2, 4, 6) and (8, 10, 12) levels
  // (42, 85, 127) of 6 / 127 and (85, 106, 127) of 12 / 127.
  const std::vector<float> y = run(*p);
  const std::vector<float> want = {-3.515748f, -4.468504f, 15.578678f, 35.673352f};
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], 1e-4f) << i;
}

TEST_F(PassPipelineTest, EnableMkldnnBfloat16KeepsFloat32InputsAndOutputs) {
  Config c(dir_);
  EXPECT_FALSE(c.mkldnn_bfloat16_enabled());
  c.EnableMkldnnBfloat16();
  EXPECT_TRUE(c.mkldnn_bfloat16_enabled());
  auto p = CreatePredictor(c);
  EXPECT_EQ(p->GetOutputHandle("out0")->type(), inference::FLOAT32);
  const std::string text = p->optimized_program();
  EXPECT_NE(text.find("bf16"), std::string::npos) << text;
  // The bfloat16 weight replaces the float32 one (the bias stays float32: add is not white).
  EXPECT_EQ(count(text, "builtin.parameter"), 2u) << text;
  EXPECT_NE(text.find("tensor<3x2xbf16>"), std::string::npos) << text;
  // Every input, weight and product here is exact in bfloat16 (8 significant bits).
  EXPECT_EQ(run(*p), (std::vector<float>{-3.5f, -4.5f, 15.5f, 35.5f}));
}

TEST(PassBuilderTest, EditsThePipeline) {
  Config c;
  inference::PassBuilder* b = c.pass_builder();
  EXPECT_EQ(b->AllPasses(), inference::default_passes(true));
  b->DeletePass("cse");
  b->InsertPass(0, "dce");
  b->AppendPass("fuse-rms-norm");
  EXPECT_EQ(b->AllPasses().front(), "dce");
  EXPECT_EQ(b->AllPasses().back(), "fuse-rms-norm");
  EXPECT_EQ(c.passes(), b->AllPasses());
  b->DeletePass(size_t{0});
  EXPECT_NE(b->AllPasses().front(), "dce");
  EXPECT_THROW(b->DeletePass(size_t{99}), Error);
  c.SwitchIrOptim(false);
  EXPECT_TRUE(c.passes().empty());
}

TEST(PassBuilderTest, WeightOnlyInt8RunsLastAndOnce) {
  Config c;
  EXPECT_FALSE(c.weight_only_int8_enabled());
  c.EnableWeightOnlyInt8();
  std::vector<std::string> want = inference::default_passes(true);
  want.push_back(inference::kWeightOnlyInt8Pass);
  EXPECT_EQ(c.passes(), want);
  c.pass_builder()->AppendPass(inference::kWeightOnlyInt8Pass);
  EXPECT_EQ(c.passes(), want);  // named by the builder too: still once
  c.pass_builder()->DeletePass(inference::kWeightOnlyInt8Pass);
  c.EnableWeightOnlyInt8(false);
  EXPECT_EQ(c.passes(), inference::default_passes(true));
}

TEST(PassBuilderTest, LlmInt8RunsBeforeWeightOnlyInt8) {
  Config c;
  c.EnableWeightOnlyInt8();
  c.EnableMkldnnInt8({"fc", "matmul_v2"});
  std::vector<std::string> want = inference::default_passes(true);
  want.insert(want.end(), {inference::kLlmInt8Pass, inference::kWeightOnlyInt8Pass});
  EXPECT_EQ(c.passes(), want);
  EXPECT_NE(c.Summary().find("mkldnn_int8"), std::string::npos);
}

TEST(PassBuilderTest, Bfloat16RunsAfterTheFusionsAndBeforeInt8) {
  Config c;
  c.EnableMkldnnBfloat16();
  c.EnableWeightOnlyInt8();
  std::vector<std::string> want = inference::default_passes(true);
  want.insert(want.end(), {inference::kCpuBfloat16Pass, inference::kFoldParamsPass,
                           inference::kWeightOnlyInt8Pass});
  EXPECT_EQ(c.passes(), want);
}

}  // namespace
}  // namespace skiff
