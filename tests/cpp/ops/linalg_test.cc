// Bad inputs and exact Paddle semantics of the linalg ops beyond the generic consistency test.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/base/error.h"
#include "skiff/ops/generated/dense/all.h"
#include "skiff/ops/kernels/cpu/onednn.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;

DenseTensor ones(const Dims& d, DType t = DType::kFloat32) {
  return make_tensor(d, t, std::vector<double>(static_cast<size_t>(d.numel()), 1.0));
}

TEST(MatmulTest, ContractionMismatch) {
  expect_error_message(
      [] {
        dense::matmul(ones({3, 4}), ones({5, 2}));
      },
      ErrorCode::kInvalidArgument,
      "matmul: argument 'y' expected a contraction dim equal to x's (4) for x [3, 4] "
      "and y [5, 2], got 5");
  expect_error_message(
      [] {
        dense::matmul(ones({3, 4}), ones({3, 2}), true, true);
      },
      ErrorCode::kInvalidArgument,
      "matmul: argument 'y' expected a contraction dim equal to x's (3) for x [3, 4] "
      "and y [3, 2] transpose_x transpose_y, got 2");
}

TEST(MatmulTest, BatchMismatchAndRankZero) {
  expect_error_message(
      [] {
        dense::matmul(ones({2, 3, 4}), ones({3, 4, 2}));
      },
      ErrorCode::kInvalidArgument,
      "matmul: argument 'y' expected a shape broadcastable with x [2] (dim 0), got [3]");
  expect_error_message([] { dense::matmul(ones({}), ones({3})); }, ErrorCode::kInvalidArgument,
                       "matmul: argument 'x' expected a tensor of rank >= 1, got []");
}

TEST(MatmulTest, IntegerInputsAreATypeError) {
  expect_error_message(
      [] {
        dense::matmul(ones({2, 2}, DType::kInt32), ones({2, 2}, DType::kInt32));
      },
      ErrorCode::kTypeError,
      "matmul: argument 'x' expected a floating dtype (float32, float64, bfloat16, float16) or "
      "a complex dtype (complex64, complex128), got int32");
}

TEST(MatmulTest, PaddleShapes) {
  EXPECT_EQ(dense::matmul(ones({4}), ones({4})).dims(), Dims{});
  EXPECT_EQ(dense::matmul(ones({4}), ones({2, 4, 3})).dims(), (Dims{2, 3}));
  EXPECT_EQ(dense::matmul(ones({2, 3, 4}), ones({4})).dims(), (Dims{2, 3}));
  EXPECT_EQ(dense::matmul(ones({5, 1, 3, 4}), ones({2, 4, 6})).dims(), (Dims{5, 2, 3, 6}));
  // Transposes do not apply to 1-D operands (Paddle's kernel ignores them).
  EXPECT_EQ(dense::matmul(ones({4}), ones({3, 4}), true, true).dims(), (Dims{3}));
  const DenseTensor r = dense::matmul(ones({3, 0}), ones({0, 2}));
  EXPECT_EQ(to_doubles(r), std::vector<double>(6, 0.0));
}

TEST(MatmulTest, TransposedOperandsAreReadInPlace) {
  // x^T with x = [[1, 2], [3, 4]] times identity.
  const DenseTensor x = make_tensor({2, 2}, DType::kFloat32, {1, 2, 3, 4});
  const DenseTensor eye = make_tensor({2, 2}, DType::kFloat32, {1, 0, 0, 1});
  EXPECT_EQ(to_doubles(dense::matmul(x, eye, true, false)), (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(to_doubles(dense::matmul(eye, x, false, true)), (std::vector<double>{1, 3, 2, 4}));
}

TEST(MatmulTest, RepeatedCallsReuseCachedPrimitives) {
  const DenseTensor x = ones({17, 9}), y = ones({9, 13});
  dense::matmul(x, y);
  const int64_t before = ops::cpu::onednn::cached_primitives();
  for (int i = 0; i < 5; ++i) dense::matmul(x, y);
  EXPECT_EQ(ops::cpu::onednn::cached_primitives(), before);
  EXPECT_EQ(to_doubles(dense::matmul(x, y)), std::vector<double>(17 * 13, 9.0));
}

TEST(MatmulTest, ConcurrentCallsShareTheCache) {
  // Several threads create and run primitives of overlapping shapes at once.
  std::vector<std::thread> threads;
  std::vector<int> bad(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &bad] {
      for (int i = 0; i < 20; ++i) {
        const int64_t m = 3 + (i + t) % 5, k = 4 + i % 3, n = 2 + t;
        const auto r = to_doubles(dense::matmul(ones({m, k}), ones({k, n})));
        for (double v : r) bad[t] += v != static_cast<double>(k);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad, std::vector<int>(4, 0));
}

TEST(MatmulTest, NanPropagates) {
  DenseTensor x = make_tensor({2, 2}, DType::kFloat32, {std::nan(""), 1, 1, 1});
  const auto r = to_doubles(dense::matmul(x, ones({2, 2})));
  EXPECT_TRUE(std::isnan(r[0]) && std::isnan(r[1]));
  EXPECT_EQ(r[2], 2.0);
}

TEST(BmmTest, BadShapes) {
  expect_error_message(
      [] {
        dense::bmm(ones({3, 4}), ones({3, 4, 2}));
      },
      ErrorCode::kInvalidArgument, "bmm: argument 'x' expected a 3-D tensor [B, M, K], got [3, 4]");
  expect_error_message(
      [] {
        dense::bmm(ones({2, 3, 4}), ones({3, 4, 2}));
      },
      ErrorCode::kInvalidArgument,
      "bmm: argument 'y' expected batch size 2 (as x [2, 3, 4]), got [3, 4, 2]");
  expect_error_message(
      [] {
        dense::bmm(ones({2, 3, 4}), ones({2, 5, 2}));
      },
      ErrorCode::kInvalidArgument,
      "bmm: argument 'y' expected dim 1 equal to x's dim 2 (4) for x [2, 3, 4], got "
      "[2, 5, 2]");
}

TEST(DotTest, ShapesAndErrors) {
  EXPECT_EQ(dense::dot(ones({3}), ones({3})).dims(), Dims{});
  EXPECT_EQ(dense::dot(ones({2, 3}), ones({2, 3})).dims(), Dims{2});
  expect_error_message([] { dense::dot(ones({3}), ones({4})); }, ErrorCode::kInvalidArgument,
                       "dot: argument 'y' expected the shape of x [3], got [4]");
  expect_error_message(
      [] {
        dense::dot(ones({2, 3, 4}), ones({2, 3, 4}));
      },
      ErrorCode::kInvalidArgument, "dot: argument 'x' expected a 1-D or 2-D tensor, got [2, 3, 4]");
  expect_error_message([] { dense::dot(ones({3}, DType::kBool), ones({3}, DType::kBool)); },
                       ErrorCode::kTypeError,
                       "dot: argument 'x' expected a numeric dtype, got bool");
}

TEST(OuterTest, FlattensInputs) {
  const DenseTensor r = dense::outer(make_tensor({2, 1}, DType::kInt64, {1, 2}),
                                     make_tensor({3}, DType::kInt64, {1, 2, 3}));
  EXPECT_EQ(r.dims(), (Dims{2, 3}));
  EXPECT_EQ(to_doubles(r), (std::vector<double>{1, 2, 3, 2, 4, 6}));
}

TEST(AddmmTest, BadShapes) {
  expect_error_message(
      [] {
        dense::addmm(ones({3, 5}), ones({3, 4}), ones({5, 5}));
      },
      ErrorCode::kInvalidArgument,
      "addmm: argument 'y' expected dim 0 equal to x's dim 1 (4) for x [3, 4], got [5, "
      "5]");
  expect_error_message(
      [] {
        dense::addmm(ones({4, 5}), ones({3, 4}), ones({4, 5}));
      },
      ErrorCode::kInvalidArgument,
      "addmm: argument 'input' expected a shape broadcastable to [3, 5], got [4, 5]");
  expect_error_message(
      [] {
        dense::addmm(ones({3, 5}), ones({3, 4, 1}), ones({4, 5}));
      },
      ErrorCode::kInvalidArgument,
      "addmm: argument 'x' expected a 2-D tensor [M, K], got [3, 4, 1]");
}

TEST(AddmmTest, BetaAndAlpha) {
  const DenseTensor r = dense::addmm(ones({2, 2}), ones({2, 3}), ones({3, 2}), 0.5f, 2.0f);
  EXPECT_EQ(to_doubles(r), std::vector<double>(4, 6.5));
}

TEST(LinearTest, BadShapes) {
  expect_error_message(
      [] {
        dense::linear(ones({3, 4}), ones({5, 2}), nullptr);
      },
      ErrorCode::kInvalidArgument,
      "linear: argument 'weight' expected dim 0 equal to x's last dim (4), got [5, 2]");
  const DenseTensor b = ones({3});
  expect_error_message(
      [&] {
        dense::linear(ones({3, 4}), ones({4, 2}), &b);
      },
      ErrorCode::kInvalidArgument, "linear: argument 'bias' expected a 1-D tensor [2], got [3]");
  const DenseTensor b64 = ones({2}, DType::kFloat64);
  expect_error_message(
      [&] {
        dense::linear(ones({3, 4}), ones({4, 2}), &b64);
      },
      ErrorCode::kTypeError, "linear: argument 'bias' expected dtype float32 (as x), got float64");
}

TEST(LinearTest, WeightIsInByOut) {
  const DenseTensor x = make_tensor({1, 2}, DType::kFloat32, {1, 2});
  const DenseTensor w = make_tensor({2, 3}, DType::kFloat32, {1, 2, 3, 4, 5, 6});
  const DenseTensor b = make_tensor({3}, DType::kFloat32, {10, 20, 30});
  EXPECT_EQ(to_doubles(dense::linear(x, w, &b)), (std::vector<double>{19, 32, 45}));
}

}  // namespace
}  // namespace skiff::testing
