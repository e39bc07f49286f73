// Weight-only quantization (skiff/ops/yaml/quant.yaml): the layout bit for bit, round trips,
// the direct and GEMM paths of weight_only_linear against each other, and bad inputs with
// their exact messages.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/base/error.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;

DenseTensor random_weight(int64_t k, int64_t n, DType t, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> d(0.0, 0.05);
  std::vector<double> v(k * n);
  for (auto& x : v) x = d(rng);
  return make_tensor({k, n}, t, v);
}

TEST(QuantTest, Int8LayoutIsTransposedRowsWithChannelScales) {
  // w [k=2, n=3]: column j is channel j.
  const DenseTensor w =
      make_tensor({2, 3}, DType::kFloat32, {127 / 64.0, -0.5, 0, -63.5 / 64, 0.125, 0});
  auto [q, scale] = dense::weight_quantize(w, "weight_only_int8", -1);
  ASSERT_EQ(q.dims(), (Dims{3, 2}));
  EXPECT_EQ(q.dtype(), DType::kInt8);
  EXPECT_EQ(scale.dtype(), DType::kFloat32);
  const std::vector<double> s = to_doubles(scale);
  EXPECT_EQ(s[0], 1 / 64.0);
  EXPECT_NEAR(s[1], 0.5 / 127, 1e-8);
  EXPECT_EQ(s[2], 0.0);  // an all-zero channel
  const std::vector<double> qv = to_doubles(q);
  EXPECT_EQ(qv, (std::vector<double>{127, -64, -127, 32, 0, 0}));  // -63.5 rounds away from 0
}

TEST(QuantTest, Int4PacksTwoSignedNibblesPerByteEvenInTheLowNibble) {
  // One channel of k = 3 values: 7, -7, 3 (scale 1) -> bytes 0x97 (low 7, high -7) and 0x03.
  const DenseTensor w = make_tensor({3, 1}, DType::kFloat64, {7, -7, 3});
  auto [q, scale] = dense::weight_quantize(w, "weight_only_int4", -1);
  ASSERT_EQ(q.dims(), (Dims{1, 2}));
  const std::vector<double> qv = to_doubles(q);
  EXPECT_EQ(static_cast<uint8_t>(static_cast<int8_t>(qv[0])), 0x97);
  EXPECT_EQ(qv[1], 3);
  EXPECT_EQ(to_doubles(scale)[0], 1.0);
  const std::vector<double> back =
      to_doubles(dense::weight_dequantize(q, scale, "weight_only_int4", -1));
  EXPECT_EQ(back, (std::vector<double>{7, -7, 3, 0}));  // k rounds up to even
}

TEST(QuantTest, RoundTripErrorIsAtMostHalfAStep) {
  for (const char* algo : {"weight_only_int8", "weight_only_int4", "llm.int8"}) {
    for (int64_t group : {int64_t{-1}, int64_t{64}}) {
      const DenseTensor w = random_weight(130, 7, DType::kFloat32, 3);
      auto [q, scale] = dense::weight_quantize(w, algo, group);
      const DenseTensor back = dense::weight_dequantize(q, scale, algo, group);
      const std::vector<double> a = to_doubles(w), b = to_doubles(back), s = to_doubles(scale);
      for (int64_t i = 0; i < 130; ++i) {
        for (int64_t j = 0; j < 7; ++j) {
          const double step = group < 0 ? s[j] : s[(i / group) * 7 + j];
          ASSERT_LE(std::abs(a[i * 7 + j] - b[i * 7 + j]), 0.5 * step * (1 + 1e-5) + 1e-7)
              << algo << " group " << group << " at " << i << ", " << j;
        }
      }
    }
  }
}

TEST(QuantTest, LinearEqualsMatmulWithTheDequantizedWeight) {
  // Rows 1 (direct path) and 40 (GEMM panels) against x @ dequantize(q) + bias.
  for (int64_t m : {int64_t{1}, int64_t{40}}) {
    for (const char* wd : {"int8", "int4"}) {
      const std::string algo = std::string("weight_only_") + wd;
      const DenseTensor w = random_weight(96, 200, DType::kFloat32, 5);
      auto [q, scale] = dense::weight_quantize(w, algo, 64);
      const DenseTensor deq = dense::weight_dequantize(q, scale, algo, 64);
      const DenseTensor x = random_weight(m, 96, DType::kFloat32, 7);
      const DenseTensor bias = dense::reshape(random_weight(1, 200, DType::kFloat32, 9), {200});
      const DenseTensor got = dense::weight_only_linear(x, q, &bias, scale, wd, 64);
      const DenseTensor want = dense::add(dense::matmul(x, deq, false, false), bias);
      const std::vector<double> g = to_doubles(got), e = to_doubles(want);
      ASSERT_EQ(g.size(), e.size());
      for (size_t i = 0; i < g.size(); ++i)
        ASSERT_NEAR(g[i], e[i], 1e-5) << m << " " << wd << " " << i;
      // x's gradient: out_grad @ dequantize(q)^T.
      const DenseTensor og = random_weight(m, 200, DType::kFloat32, 11);
      const DenseTensor gx = dense::weight_only_linear_grad(x, q, scale, og, wd, 64);
      const DenseTensor gx_want = dense::matmul(og, deq, false, true);
      const std::vector<double> a = to_doubles(gx), b = to_doubles(gx_want);
      for (size_t i = 0; i < a.size(); ++i)
        ASSERT_NEAR(a[i], b[i], 1e-5) << m << " " << wd << " " << i;
    }
  }
}

TEST(QuantTest, BadInputs) {
  const DenseTensor w = random_weight(8, 4, DType::kFloat32, 1);
  expect_error_containing([&] { dense::weight_quantize(w, "int8", -1); },
                          ErrorCode::kInvalidArgument,
                          "(InvalidArgument) weight_quantize: argument 'algo' expected one of "
                          "'weight_only_int8', 'weight_only_int4', 'llm.int8', got 'int8'");
  expect_error_containing(
      [&] { dense::weight_quantize(w, "weight_only_int8", 32); }, ErrorCode::kInvalidArgument,
      "weight_quantize: argument 'group_size' expected -1 (per channel), 64 or 128, got 32");
  expect_error_containing(
      [&] { dense::weight_quantize(dense::reshape(w, {32}), "weight_only_int8", -1); },
      ErrorCode::kInvalidArgument,
      "weight_quantize: argument 'x' expected a 2-D weight [in_features, out_features], "
      "got [32]");
  expect_error_containing(
      [&] {
        dense::weight_quantize(make_tensor({2, 2}, DType::kInt32, {1, 2, 3, 4}), "weight_only_int8",
                               -1);
      },
      ErrorCode::kTypeError, "weight_quantize: argument 'x' expected a floating dtype");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_error_containing(
      [&] {
        dense::weight_quantize(make_tensor({2, 2}, DType::kFloat32, {1, 2, nan, 4}),
                               "weight_only_int8", -1);
      },
      ErrorCode::kInvalidArgument,
      "(InvalidArgument) weight_quantize: argument 'x' expected finite weights, got a NaN "
      "or infinite value in column 0");
  auto [q, scale] = dense::weight_quantize(w, "weight_only_int8", -1);  // q [4, 8], scale [4]
  const DenseTensor x = random_weight(2, 8, DType::kFloat32, 2);
  expect_error_containing(
      [&] { dense::weight_only_linear(x, q, nullptr, scale, "int2", -1); },
      ErrorCode::kInvalidArgument,
      "weight_only_linear: argument 'weight_dtype' expected 'int8' or 'int4', got 'int2'");
  expect_error_containing(
      [&] { dense::weight_only_linear(x, w, nullptr, scale, "int8", -1); }, ErrorCode::kTypeError,
      "weight_only_linear: argument 'weight' expected dtype int8 (weight_quantize's out), "
      "got float32");
  expect_error_containing(
      [&] {
        dense::weight_only_linear(random_weight(2, 6, DType::kFloat32, 2), q, nullptr, scale,
                                  "int8", -1);
      },
      ErrorCode::kInvalidArgument,
      "weight_only_linear: argument 'weight' expected [out_features, 6] for x's last dim 6 "
      "(8-bit), got [4, 8]");
  expect_error_containing(
      [&] {
        dense::weight_only_linear(x, q, nullptr, dense::reshape(scale, {2, 2}), "int8", -1);
      },
      ErrorCode::kInvalidArgument,
      "weight_only_linear: argument 'weight_scale' expected a 1-D tensor [4] (one scale per "
      "output channel), got [2, 2]");
  expect_error_containing(
      [&] { dense::weight_only_linear(x, q, nullptr, scale, "int8", 64); },
      ErrorCode::kInvalidArgument,
      "weight_only_linear: argument 'weight_scale' expected a 2-D tensor [1, 4] (one scale "
      "per group of 64 input values and output channel), got [4]");
  const DenseTensor bad_bias = make_tensor({3}, DType::kFloat32, {1, 2, 3});
  expect_error_containing(
      [&] { dense::weight_only_linear(x, q, &bad_bias, scale, "int8", -1); },
      ErrorCode::kInvalidArgument,
      "weight_only_linear: argument 'bias' expected a 1-D tensor [4] (one per output "
      "channel), got [3]");
  expect_error_containing([&] { dense::weight_dequantize(q, scale, "weight_only_int8", 128); },
                          ErrorCode::kInvalidArgument,
                          "weight_dequantize: argument 'scale' expected a 2-D tensor [1, 4]");
  expect_error_containing(
      [&] { dense::weight_dequantize(w, scale, "weight_only_int8", -1); }, ErrorCode::kTypeError,
      "weight_dequantize: argument 'x' expected dtype int8 (weight_quantize's out), got "
      "float32");
}

}  // namespace
}  // namespace skiff::testing
