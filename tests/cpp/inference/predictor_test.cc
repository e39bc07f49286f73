// The predictor (include/skiff/inference.h): a saved model served from C++ gives the eager
// outputs, clones run from threads, and damaged files give errors naming them.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "model_util.h"
#include "skiff/base/error.h"
#include "skiff/inference.h"
#include "skiff/ops/generated/api.h"
#include "skiff/tensor_util.h"

namespace skiff {
namespace {

using inference::Config;
using inference::CreatePredictor;
using inference::FLOAT32;
using inference::GetVersion;
using inference::Predictor;
using inference::testing::save_model;
using inference::testing::temp_dir;

// A two-layer MLP with fixed weights: [?, 4] -> [?, 3].
struct Mlp {
  Tensor w1 = to_tensor<float>(
      {0.1f, -0.2f, 0.3f, 0.5f, 0.4f, -0.1f, -0.3f, 0.2f, 0.6f, 0.1f, 0.2f, -0.5f,
       0.3f, 0.3f, -0.2f, 0.1f, 0.05f, -0.4f, 0.2f, 0.1f},
      {4, 5});
  Tensor b1 = to_tensor<float>({0.1f, 0.0f, -0.1f, 0.2f, 0.05f}, {5});
  Tensor w2 = to_tensor<float>({0.2f, -0.1f, 0.4f, 0.3f, 0.2f, -0.2f, -0.5f, 0.1f, 0.3f,
                                0.1f, 0.6f, -0.3f, 0.2f, -0.4f, 0.1f},
                               {5, 3});
  std::vector<Tensor> operator()(const std::vector<Tensor>& in) const {
    Tensor h = relu(add(matmul(in[0], w1), b1));
    return {tanh(add(matmul(h, w2), b2()))};
  }
  static Tensor b2() { return to_tensor<float>({0.01f, 0.02f, 0.03f}, {3}); }
};

std::vector<float> input_data(int rows, float seed) {
  std::vector<float> v(static_cast<size_t>(rows) * 4);
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(seed + 0.37f * static_cast<float>(i));
  return v;
}

std::vector<float> eager(const Mlp& m, const std::vector<float>& x, int rows) {
  return to_vector<float>(m({to_tensor<float>(x, {rows, 4})})[0]);
}

class PredictorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = temp_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    prefix_ = dir_ + "/mlp";
    save_model(prefix_, mlp_, {{{-1, 4}, DType::kFloat32, "x"}});
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::vector<float> predict(Predictor& p, const std::vector<float>& x, int rows) {
    auto in = p.GetInputHandle(p.GetInputNames()[0]);
    in->Reshape({rows, 4});
    in->CopyFromCpu(x.data());
    EXPECT_TRUE(p.Run());
    auto out = p.GetOutputHandle(p.GetOutputNames()[0]);
    EXPECT_EQ(out->shape(), (std::vector<int>{rows, 3}));
    std::vector<float> y(static_cast<size_t>(rows) * 3);
    out->CopyToCpu(y.data());
    return y;
  }

  Mlp mlp_;
  std::string dir_, prefix_;
};

void expect_near(const std::vector<float>& a, const std::vector<float>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6) << "element " << i;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(PredictorTest, OutputsEqualEager) {
  Config config(prefix_ + ".pdmodel", prefix_ + ".pdiparams");
  auto p = CreatePredictor(config);
  EXPECT_EQ(p->GetInputNames(), std::vector<std::string>{"x"});
  EXPECT_EQ(p->GetOutputNames(), std::vector<std::string>{"out0"});
  EXPECT_EQ(p->GetInputTensorShape()["x"], (std::vector<int64_t>{-1, 4}));
  EXPECT_EQ(p->GetInputTypes()["x"], FLOAT32);
  EXPECT_EQ(p->GetOutputTensorShape()["out0"], (std::vector<int64_t>{-1, 3}));
  for (int rows : {1, 3, 8}) {
    const std::vector<float> x = input_data(rows, 0.5f * rows);
    expect_near(predict(*p, x, rows), eager(mlp_, x, rows));
  }
  // Paddle 3's Run(inputs, &outputs).
  std::vector<Tensor> outs;
  const std::vector<float> x = input_data(2, 1.0f);
  ASSERT_TRUE(p->Run({to_tensor<float>(x, {2, 4})}, &outs));
  ASSERT_EQ(outs.size(), 1u);
  expect_near(to_vector<float>(outs[0]), eager(mlp_, x, 2));
}

TEST_F(PredictorTest, ConfigFormsAndSwitches) {
  // A directory with one model; (dir, prefix) as Paddle 3; the paddle_infer spelling.
  paddle_infer::Config by_dir(dir_);
  EXPECT_EQ(by_dir.prog_file(), prefix_ + ".pdmodel");
  EXPECT_EQ(by_dir.params_file(), prefix_ + ".pdiparams");
  Config by_prefix(dir_, "mlp");
  EXPECT_EQ(by_prefix.prog_file(), prefix_ + ".pdmodel");
  const std::vector<float> x = input_data(4, 2.0f);
  for (bool optim : {true, false}) {
    Config c(dir_);
    c.SwitchIrOptim(optim);
    c.SetCpuMathLibraryNumThreads(2);
    c.EnableMemoryOptim();
    EXPECT_EQ(c.ir_optim(), optim);
    EXPECT_EQ(c.passes().empty(), !optim);
    auto p = paddle_infer::CreatePredictor(c);
    expect_near(predict(*p, x, 4), eager(mlp_, x, 4));
  }
  Config c(dir_);
  c.DeletePass("cse");
  std::vector<std::string> passes = c.passes();
  EXPECT_EQ(std::count(passes.begin(), passes.end(), "cse"), 0);
  EXPECT_EQ(std::count(passes.begin(), passes.end(), "dce"), 1);
  c.pass_builder()->AppendPass("no-such-pass");
  EXPECT_NE(error_of([&] { CreatePredictor(c); }).find("'no-such-pass'"), std::string::npos);
  Config d(dir_);
  d.DisableMKLDNN();
  passes = d.passes();
  EXPECT_EQ(std::count(passes.begin(), passes.end(), "fuse-linear"), 0);
  // Devices this build lacks answer false and the predictor runs on the CPU.
  d.EnableUseGpu(100, 0);
  d.EnableONNXRuntime();
  EXPECT_FALSE(d.use_gpu());
  EXPECT_FALSE(d.use_onnxruntime());
  EXPECT_NE(d.Summary().find("use_mkldnn"), std::string::npos);
  expect_near(predict(*CreatePredictor(d), x, 4), eager(mlp_, x, 4));
  EXPECT_NE(GetVersion().find("model format 1"), std::string::npos);
}

TEST_F(PredictorTest, ClonesShareWeightsAndRunFromThreads) {
  auto p = CreatePredictor(Config(dir_));
  constexpr int kThreads = 4;
  std::vector<std::unique_ptr<Predictor>> clones;
  for (int i = 0; i < kThreads; ++i) clones.push_back(p->Clone());
  // The clones read the same weights (one program, one set of bound tensors).
  EXPECT_EQ(clones[0]->optimized_program(), p->optimized_program());
  std::vector<std::vector<float>> got(kThreads), want(kThreads);
  for (int i = 0; i < kThreads; ++i) want[i] = eager(mlp_, input_data(16 + i, 0.1f * i), 16 + i);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      const std::vector<float> x = input_data(16 + i, 0.1f * i);
      for (int r = 0; r < 50; ++r) {
        auto in = clones[i]->GetInputHandle("x");
        in->Reshape({16 + i, 4});
        in->CopyFromCpu(x.data());
        clones[i]->Run();
        std::vector<float> y(static_cast<size_t>(16 + i) * 3);
        clones[i]->GetOutputHandle("out0")->CopyToCpu(y.data());
        if (r > 0 && y != got[i]) failures++;
        got[i] = y;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  for (int i = 0; i < kThreads; ++i) expect_near(got[i], want[i]);
}

TEST_F(PredictorTest, HandleErrorsNameTheInput) {
  auto p = CreatePredictor(Config(dir_));
  auto in = p->GetInputHandle("x");
  EXPECT_NE(error_of([&] { p->GetInputHandle("y"); }).find("one of [x], got 'y'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p->Run(); }).find("x"), std::string::npos);
  const float data[8] = {};
  EXPECT_NE(error_of([&] { in->CopyFromCpu(data); }).find("Reshape"), std::string::npos);
  std::string e = error_of([&] { in->Reshape({2, 5}); });
  EXPECT_NE(e.find("[-1, 4]"), std::string::npos) << e;
  in->Reshape({2, 4});
  const int64_t ints[8] = {};
  e = error_of([&] { in->CopyFromCpu(ints); });
  EXPECT_NE(e.find("float32"), std::string::npos) << e;
  EXPECT_NE(e.find("int64"), std::string::npos) << e;
  auto out = p->GetOutputHandle("out0");
  float y[6];
  EXPECT_NE(error_of([&] { out->CopyToCpu(y); }).find("Run()"), std::string::npos);
  // Zero copy: the input reads the caller's buffer.
  std::vector<float> x = input_data(2, 3.0f);
  in->ShareExternalData(x.data(), {2, 4});
  p->Run();
  out->CopyToCpu(y);
  expect_near(std::vector<float>(y, y + 6), eager(mlp_, x, 2));
  // mutable_data fills the input in place.
  float* buf = in->mutable_data<float>();
  std::copy(x.begin(), x.end(), buf);
  p->Run();
  out->CopyToCpu(y);
  expect_near(std::vector<float>(y, y + 6), eager(mlp_, x, 2));
  p->ClearIntermediateTensor();
  EXPECT_NE(error_of([&] { out->CopyToCpu(y); }).find("Run()"), std::string::npos);
}

TEST_F(PredictorTest, DamagedFilesAreNamed) {
  const std::string params = prefix_ + ".pdiparams", model = prefix_ + ".pdmodel";
  auto load = [&] { CreatePredictor(Config(model, params)); };
  std::string e = error_of([&] { CreatePredictor(Config(dir_ + "/none.pdmodel", params)); });
  EXPECT_NE(e.find("none.pdmodel"), std::string::npos) << e;
  // A program that does not parse.
  std::string text;
  {
    std::ifstream f(model);
    text.assign(std::istreambuf_iterator<char>(f), {});
  }
  std::ofstream(model) << "builtin.module { %0 = op.nonsense() }";
  e = error_of(load);
  EXPECT_NE(e.find("mlp.pdmodel"), std::string::npos) << e;
  std::ofstream(model) << text;
  // Truncated parameters.
  std::string bytes;
  {
    std::ifstream f(params, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(f), {});
  }
  std::ofstream(params, std::ios::binary) << bytes.substr(0, bytes.size() - 10);
  e = error_of(load);
  EXPECT_NE(e.find("mlp.pdiparams"), std::string::npos) << e;
  std::ofstream(params, std::ios::binary) << bytes;
  EXPECT_EQ(error_of(load), "no error");
}

TEST(SavedModelTest, FormatVersionsAndMetadataAreChecked) {
  const std::string dir = temp_dir("versions");
  Mlp m;
  auto load = [&] { CreatePredictor(Config(dir + "/m.pdmodel", dir + "/m.pdiparams")); };
  save_model(dir + "/m", m, {{{-1, 4}, DType::kFloat32, "x"}},
             {{"skiff.format", "2"}, {"skiff.producer", "skiff 9.0.0"}});
  std::string e = error_of(load);
  EXPECT_NE(e.find("model format version 1"), std::string::npos) << e;
  EXPECT_NE(e.find("'2' (written by skiff 9.0.0), newer than this Skiff"), std::string::npos)
      << e;
  EXPECT_NE(e.find("m.pdiparams"), std::string::npos) << e;
  save_model(dir + "/m", m, {{{-1, 4}, DType::kFloat32, "x"}}, {{"skiff.format", "x"}});
  EXPECT_NE(error_of(load).find("unknown to this Skiff"), std::string::npos);
  save_model(dir + "/m", m, {{{-1, 4}, DType::kFloat32, "x"}}, {{"skiff.inputs", "[{"}});
  EXPECT_NE(error_of(load).find("'skiff.inputs' that is not JSON"), std::string::npos);
  save_model(dir + "/m", m, {{{-1, 4}, DType::kFloat32, "x"}},
             {{"skiff.inputs", R"([{"name": "y", "shape": [-1, 4], "dtype": "float32"}])"}});
  EXPECT_NE(error_of(load).find("disagreeing"), std::string::npos);
  save_model(dir + "/m", m, {{{-1, 4}, DType::kFloat32, "x"}},
             {{"skiff.outputs", R"({"count": 2})"}});
  EXPECT_NE(error_of(load).find("declaring 2 outputs"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(SavedModelTest, PlannedPeakEqualsMeasuredForStaticShapes) {
  const std::string dir = temp_dir("peak");
  Mlp m;
  save_model(dir + "/m", m, {{{8, 4}, DType::kFloat32, "x"}});
  auto p = CreatePredictor(Config(dir));
  auto in = p->GetInputHandle("x");
  in->Reshape({8, 4});
  const std::vector<float> x = input_data(8, 0.0f);
  in->CopyFromCpu(x.data());
  p->Run();
  EXPECT_GT(p->planned_peak_bytes(), 0);
  EXPECT_EQ(p->planned_peak_bytes(), p->measured_peak_bytes());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace skiff
