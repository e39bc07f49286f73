// Tests of the nn ops beyond the generic consistency test: bad inputs (messages and codes),
// Paddle semantics of edge cases, NaN and -inf handling, the exp polynomial's error bound,
// soft-label cross entropy against the reference, and dropout's thread-count independence.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/core/generator.h"
#include "skiff/core/parallel.h"
#include "skiff/ops/dispatch.h"
#include "skiff/ops/generated/dense/all.h"
#include "skiff/ops/kernels/cpu/nn_math.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;

DenseTensor f32(const Dims& dims, const std::vector<double>& v) {
  return make_tensor(dims, DType::kFloat32, v);
}
DenseTensor i64(const Dims& dims, const std::vector<double>& v) {
  return make_tensor(dims, DType::kInt64, v);
}

DenseTensor random_f32(const Dims& dims, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return random_tensor(dims, DType::kFloat32, Domain::kAny, rng);
}

TEST(NnMathTest, ExpF32RelativeErrorBound) {
  double worst = 0;
  for (float x = -87.3f; x <= 88.0f; x += 0.000731f) {
    const double want = std::exp(static_cast<double>(x));
    worst = std::max(worst, std::abs(ops::cpu::exp_f32(x) - want) / want);
  }
  EXPECT_LT(worst, 2e-7);
  EXPECT_EQ(ops::cpu::exp_f32(0.0f), 1.0f);
  EXPECT_EQ(ops::cpu::exp_f32(-100.0f), 0.0f);
  EXPECT_EQ(ops::cpu::exp_f32(-std::numeric_limits<float>::infinity()), 0.0f);
  EXPECT_TRUE(std::isnan(ops::cpu::exp_f32(std::numeric_limits<float>::quiet_NaN())));
}

TEST(SoftmaxTest, BadInputs) {
  expect_error(
      [] {
        dense::softmax(f32({2, 3}, {1, 2, 3, 4, 5, 6}), 2);
      },
      ErrorCode::kOutOfRange, {"softmax", "'axis'", "got 2"});
  expect_error(
      [] {
        dense::log_softmax(i64({2}, {1, 2}), -1);
      },
      ErrorCode::kTypeError, {"log_softmax", "'x'", "floating-point", "int64"});
}

TEST(SoftmaxTest, NanPropagatesPerRowAndMinusInfGivesZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const auto y = to_doubles(dense::softmax(f32({2, 3}, {1, nan, 2, 0, -inf, 0}), -1));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(y[i]));
  EXPECT_FLOAT_EQ(y[3], 0.5f);
  EXPECT_EQ(y[4], 0.0);
  EXPECT_FLOAT_EQ(y[5], 0.5f);
}

TEST(SoftmaxTest, LargeValuesAreStableAndRank0IsOne) {
  const auto y = to_doubles(dense::log_softmax(f32({2}, {1000, 1000}), -1));
  EXPECT_NEAR(y[0], -std::log(2.0), 1e-6);
  EXPECT_NEAR(y[1], -std::log(2.0), 1e-6);
  EXPECT_EQ(to_doubles(dense::softmax(f32({}, {5}), -1))[0], 1.0);
  EXPECT_EQ(to_doubles(dense::log_softmax(f32({}, {5}), 0))[0], 0.0);
}

TEST(SoftmaxTest, RowsSumToOneOnTheThreadedPath) {
  const DenseTensor y = dense::softmax(random_f32({128, 4096}, 1), 1);
  const auto v = to_doubles(y);
  for (int r = 0; r < 128; ++r) {
    double s = 0;
    for (int c = 0; c < 4096; ++c) s += v[r * 4096 + c];
    ASSERT_NEAR(s, 1.0, 1e-5) << "row " << r;
  }
}

TEST(LayerNormTest, BadInputs) {
  const DenseTensor x = random_f32({2, 3, 4}, 2);
  expect_error([&] { dense::layer_norm(x, nullptr, nullptr, 1e-5f, 3); }, ErrorCode::kOutOfRange,
               {"layer_norm", "'begin_norm_axis'", "got 3"});
  const DenseTensor s5 = random_f32({5}, 3);
  expect_error([&] { dense::layer_norm(x, &s5, nullptr, 1e-5f, 1); }, ErrorCode::kInvalidArgument,
               {"layer_norm", "'scale'", "[12]", "got [5]"});
  const DenseTensor b64 = make_tensor({4}, DType::kFloat64, {1, 2, 3, 4});
  expect_error([&] { dense::layer_norm(x, nullptr, &b64, 1e-5f, 2); }, ErrorCode::kTypeError,
               {"layer_norm", "'bias'", "float32", "got float64"});
  expect_error([&] { dense::layer_norm(x, nullptr, nullptr, -1.0f, 1); },
               ErrorCode::kInvalidArgument, {"layer_norm", "'epsilon'"});
  expect_error([&] { dense::rms_norm(x, &s5, 1e-6f, -1); }, ErrorCode::kInvalidArgument,
               {"rms_norm", "'weight'", "got [5]"});
}

TEST(BatchNormTest, BadInputsNameTheArgument) {
  const DenseTensor x = random_f32({2, 3, 4}, 2);
  const DenseTensor c3 = random_f32({3}, 3), c4 = random_f32({4}, 4);
  auto bn = [&](const DenseTensor& in, const DenseTensor& m, const DenseTensor& v,
                const DenseTensor* s, const std::string& fmt = "NCHW", float eps = 1e-5f) {
    return dense::batch_norm(in, m, v, s, nullptr, false, 0.9f, eps, fmt);
  };
  expect_error([&] { bn(x, c4, c4, nullptr); }, ErrorCode::kInvalidArgument,
               {"batch_norm", "'x'", "4 channels on axis 1", "got 3 in shape [2, 3, 4]"});
  expect_error([&] { bn(x, c3, c4, nullptr); }, ErrorCode::kInvalidArgument,
               {"batch_norm", "'variance'", "[3]", "got [4]"});
  expect_error([&] { bn(x, c3, c3, &c4); }, ErrorCode::kInvalidArgument,
               {"batch_norm", "'scale'", "got [4]"});
  expect_error([&] { bn(x, c3, c3, nullptr, "NCWH"); }, ErrorCode::kInvalidArgument,
               {"batch_norm", "'data_format'", "NHWC", "got 'NCWH'"});
  expect_error([&] { bn(x, c3, c3, nullptr, "NCHW", -1.0f); }, ErrorCode::kInvalidArgument,
               {"batch_norm", "'epsilon'"});
  expect_error([&] { bn(random_f32({6}, 5), c3, c3, nullptr); }, ErrorCode::kInvalidArgument,
               {"batch_norm", "'x'", "rank 2 to 5", "got shape [6]"});
  const DenseTensor m64 = make_tensor({3}, DType::kFloat64, {0, 0, 0});
  expect_error([&] { bn(x, m64, c3, nullptr); }, ErrorCode::kTypeError,
               {"batch_norm", "'mean'", "float32", "got float64"});
  const DenseTensor xi = make_tensor({2, 3}, DType::kInt64, {1, 2, 3, 4, 5, 6});
  expect_error([&] { bn(xi, c3, c3, nullptr); }, ErrorCode::kTypeError, {"batch_norm", "'x'"});
  expect_error(
      [&] {
        dense::batch_norm_grad(x, c3, c3, random_f32({2, 3, 5}, 6));
      },
      ErrorCode::kInvalidArgument, {"batch_norm_grad", "'out_grad'", "got [2, 3, 5]"});
}

TEST(BatchNormTest, SixteenBitInputKeepsFloat32Statistics) {
  const DenseTensor xb = dense::cast(random_f32({4, 3, 5}, 7), DType::kBFloat16);
  const DenseTensor m = make_tensor({3}, DType::kFloat32, {0, 0, 0});
  const DenseTensor v = make_tensor({3}, DType::kFloat32, {1, 1, 1});
  auto [out, mean_out, var_out, saved_mean, saved_inv_std] =
      dense::batch_norm(xb, m, v, &v, &m, false, 0.9f, 1e-5f, "NCHW");
  EXPECT_EQ(out.dtype(), DType::kBFloat16);
  EXPECT_EQ(mean_out.dtype(), DType::kFloat32);
  EXPECT_EQ(saved_mean.dtype(), DType::kFloat32);
  EXPECT_EQ(saved_inv_std.dims(), Dims({3}));
  auto [dx, dscale, dbias] = dense::batch_norm_grad(xb, saved_mean, saved_inv_std, xb, nullptr);
  EXPECT_EQ(dx.dtype(), DType::kBFloat16);
  EXPECT_EQ(dscale.dtype(), DType::kFloat32);
  EXPECT_EQ(dbias.dims(), Dims({3}));
}

TEST(LayerNormTest, StatisticsAndMixedPrecisionParameters) {
  const DenseTensor x = f32({2, 2}, {1, 3, -2, 2});
  auto [out, mean, var] = dense::layer_norm(x, nullptr, nullptr, 0.0f, 1);
  EXPECT_EQ(to_doubles(mean), (std::vector<double>{2, 0}));
  EXPECT_EQ(to_doubles(var), (std::vector<double>{1, 4}));
  EXPECT_EQ(to_doubles(out), (std::vector<double>{-1, 1, -1, 1}));
  // 16-bit x: statistics in float32, and float32 scale/bias are accepted.
  const DenseTensor xb = dense::cast(random_f32({3, 8}, 4), DType::kBFloat16);
  const DenseTensor s = random_f32({8}, 5);
  auto [ob, mb, vb] = dense::layer_norm(xb, &s, &s, 1e-5f, 1);
  EXPECT_EQ(ob.dtype(), DType::kBFloat16);
  EXPECT_EQ(mb.dtype(), DType::kFloat32);
  EXPECT_EQ(vb.dims(), Dims({3}));
  auto [orms, inv] = dense::rms_norm(xb, &s, 1e-6f, -1);
  EXPECT_EQ(inv.dtype(), DType::kFloat32);
  EXPECT_EQ(inv.dims(), Dims({3}));
}

TEST(EmbeddingTest, BadInputsAndPadding) {
  const DenseTensor w = random_f32({4, 3}, 6);
  expect_error(
      [&] {
        dense::embedding(i64({2}, {1, 4}), w, -1);
      },
      ErrorCode::kOutOfRange, {"embedding", "'x'", "[0, 4)", "got 4"});
  expect_error(
      [&] {
        dense::embedding(f32({2}, {1, 2}), w, -1);
      },
      ErrorCode::kTypeError, {"embedding", "'x'", "int32 or int64", "got float32"});
  expect_error(
      [&] {
        dense::embedding(i64({2}, {1, 2}), random_f32({12}, 7), -1);
      },
      ErrorCode::kInvalidArgument, {"embedding", "'weight'", "2-D", "got [12]"});
  expect_error(
      [&] {
        dense::embedding(i64({2}, {1, 2}), w, 4);
      },
      ErrorCode::kOutOfRange, {"embedding", "'padding_idx'", "got 4"});
  const DenseTensor ids = make_tensor({3}, DType::kInt32, {2, 0, 2});
  const auto out = to_doubles(dense::embedding(ids, w, 2));
  const auto wv = to_doubles(w);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(out[c], 0.0);
    EXPECT_EQ(out[3 + c], wv[c]);
    EXPECT_EQ(out[6 + c], 0.0);
  }
}

TEST(OneHotTest, BadInputs) {
  expect_error(
      [] {
        dense::one_hot(i64({2}, {0, 3}), 3);
      },
      ErrorCode::kOutOfRange, {"one_hot", "'x'", "[0, 3)", "got 3"});
  expect_error(
      [] {
        dense::one_hot(i64({2}, {0, 1}), 0);
      },
      ErrorCode::kInvalidArgument, {"one_hot", "'num_classes'", "got 0"});
  const DenseTensor y = dense::one_hot(i64({2}, {2, 0}), 3);
  EXPECT_EQ(y.dtype(), DType::kFloat32);
  EXPECT_EQ(to_doubles(y), (std::vector<double>{0, 0, 1, 1, 0, 0}));
}

TEST(CrossEntropyTest, BadInputs) {
  const DenseTensor x = random_f32({4, 5}, 8);
  expect_error(
      [&] {
        dense::cross_entropy_with_softmax(x, i64({4}, {0, 1, 2, 3}));
      },
      ErrorCode::kInvalidArgument, {"cross_entropy_with_softmax", "'label'", "[4, 1]", "got [4]"});
  expect_error(
      [&] {
        dense::cross_entropy_with_softmax(x, f32({4, 1}, {0, 1, 2, 3}));
      },
      ErrorCode::kTypeError, {"'label'", "int32 or int64", "got float32"});
  expect_error(
      [&] {
        dense::cross_entropy_with_softmax(x, i64({4, 1}, {0, 1, 5, 3}));
      },
      ErrorCode::kOutOfRange, {"'label'", "[0, 5)", "got 5"});
  expect_error(
      [&] {
        dense::cross_entropy_with_softmax(x, i64({4, 5}, std::vector<double>(20)), true);
      },
      ErrorCode::kTypeError, {"'label'", "soft labels", "got int64"});
  expect_error(
      [&] {
        dense::cross_entropy_with_softmax(x, i64({4, 1}, {0, 1, 2, 3}), false, true, true, -100, 2);
      },
      ErrorCode::kOutOfRange, {"'axis'", "got 2"});
}

TEST(CrossEntropyTest, HardLabelLossAndIgnoreIndex) {
  const DenseTensor x = random_f32({3, 4}, 9);
  auto [sm, loss] = dense::cross_entropy_with_softmax(x, i64({3, 1}, {1, -100, 3}));
  const auto ls = to_doubles(dense::log_softmax(x, -1));
  const auto l = to_doubles(loss);
  EXPECT_NEAR(l[0], -ls[1], 1e-6);
  EXPECT_EQ(l[1], 0.0);
  EXPECT_NEAR(l[2], -ls[8 + 3], 1e-6);
  EXPECT_EQ(to_doubles(sm).size(), 12u);
}

TEST(CrossEntropyTest, SoftLabelsMatchTheReference) {
  for (DType dtype : {DType::kFloat32, DType::kFloat64, DType::kBFloat16}) {
    for (int axis : {-1, 0}) {
      std::mt19937_64 rng(10);
      const DenseTensor x = random_tensor({6, 7}, dtype, Domain::kAny, rng);
      const DenseTensor label =
          dense::softmax(random_tensor({6, 7}, dtype, Domain::kAny, rng), axis);
      auto [sm, loss] = dense::cross_entropy_with_softmax(x, label, true, true, true, -100, axis);
      ops::ScopedBackend ref(Backend::kReference);
      auto [sm_ref, loss_ref] = dense::cross_entropy_with_softmax(
          dense::cast(x, DType::kFloat64), dense::cast(label, DType::kFloat64), true, true, true,
          -100, axis);
      const Tolerance tol = tolerance_for(dtype);
      EXPECT_EQ(compare(to_doubles(loss), to_doubles(dense::cast(loss_ref, dtype)), tol), "")
          << dtype << " axis " << axis;
      EXPECT_EQ(compare(to_doubles(sm), to_doubles(dense::cast(sm_ref, dtype)), tol), "");
    }
  }
}

TEST(DropoutTest, BadInputs) {
  const DenseTensor x = random_f32({4}, 11);
  expect_error([&] { dense::dropout(x, 1.5f); }, ErrorCode::kInvalidArgument,
               {"dropout", "'p'", "got 1.5"});
  expect_error([&] { dense::dropout(x, 0.5f, false, "scale"); }, ErrorCode::kInvalidArgument,
               {"dropout", "'mode'", "got 'scale'"});
  expect_error([&] { dense::dropout(i64({1}, {1})); }, ErrorCode::kTypeError, {"dropout", "'x'"});
}

TEST(DropoutTest, SameMaskForAnyThreadCount) {
  const DenseTensor x = random_f32({512, 300}, 12);
  const int saved = num_threads();
  std::vector<std::vector<double>> masks, outs;
  for (int threads : {1, 2, 3}) {
    set_num_threads(threads);
    default_generator(Place::cpu()).set_state({99, 5});
    auto [out, mask] = dense::dropout(x, 0.3f);
    masks.push_back(to_doubles(mask));
    outs.push_back(to_doubles(out));
  }
  set_num_threads(saved);
  EXPECT_EQ(masks[0], masks[1]);
  EXPECT_EQ(masks[0], masks[2]);
  EXPECT_EQ(outs[0], outs[2]);
  double kept = 0;
  for (double m : masks[0]) kept += m;
  EXPECT_NEAR(kept / masks[0].size(), 0.7, 0.01);
  const auto xv = to_doubles(x);
  for (size_t i = 0; i < 100; ++i) {
    EXPECT_FLOAT_EQ(outs[0][i], masks[0][i] ? xv[i] / 0.7 : 0.0);
  }
}

TEST(DropoutTest, SeedAndGeneratorAdvance) {
  const DenseTensor x = random_f32({1000}, 13);
  Generator& g = default_generator(Place::cpu());
  g.set_state({7, 0});
  const auto a = to_doubles(std::get<1>(dense::dropout(x)));
  EXPECT_EQ(g.offset(), 250u);  // one counter per 4 elements
  const auto b = to_doubles(std::get<1>(dense::dropout(x)));
  EXPECT_NE(a, b);
  const auto s1 = to_doubles(std::get<1>(dense::dropout(x, 0.5f, false, "upscale_in_train", 3)));
  const auto s2 = to_doubles(std::get<1>(dense::dropout(x, 0.5f, false, "upscale_in_train", 3)));
  EXPECT_EQ(s1, s2);
  EXPECT_EQ(g.offset(), 500u);  // a fixed seed leaves the default generator alone
  auto [t, m] = dense::dropout(x, 0.5f, true, "downgrade_in_infer");
  EXPECT_FLOAT_EQ(to_doubles(t)[0], to_doubles(x)[0] * 0.5);
}

}  // namespace
}  // namespace skiff::testing
