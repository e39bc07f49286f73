// Reduction ops: bad inputs (messages and codes), Paddle's edge semantics (NaN propagation, dtype
// promotion of sum, output shapes) and fp32 summation accuracy on long inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/core/views.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace d = ops::dense;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

DenseTensor f32(const Dims& dims, std::vector<double> v) {
  return make_tensor(dims, DType::kFloat32, v);
}

TEST(ReductionErrors, AxisOutOfRange) {
  const auto x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expect_error([&] { d::sum(x, {2}); }, ErrorCode::kOutOfRange, {"sum", "axis", "2"});
  expect_error([&] { d::max(x, {-3}); }, ErrorCode::kOutOfRange, {"max", "axis", "-3"});
  expect_error([&] { d::argmax(x, Scalar(5)); }, ErrorCode::kOutOfRange, {"argmax", "axis", "5"});
  expect_error([&] { d::cumsum(x, Scalar(2)); }, ErrorCode::kOutOfRange, {"cumsum", "axis"});
  expect_error([&] { d::cumprod(x, -3); }, ErrorCode::kOutOfRange, {"cumprod", "dim", "-3"});
  expect_error([&] { d::p_norm(x, 2.0f, 4); }, ErrorCode::kOutOfRange, {"p_norm", "axis", "4"});
}

TEST(ReductionErrors, RepeatedAxis) {
  const auto x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expect_error(
      [&] {
        d::mean(x, {1, -1});
      },
      ErrorCode::kInvalidArgument, {"mean", "axis", "distinct", "-1 repeated"});
}

TEST(ReductionErrors, EmptyMaxAndArgmax) {
  const auto x = make_tensor({0, 3}, DType::kFloat32, {});
  expect_error([&] { d::amax(x, {0}); }, ErrorCode::kInvalidArgument, {"amax", "x", "non-empty"});
  expect_error([&] { d::min(x); }, ErrorCode::kInvalidArgument, {"min", "[0, 3]"});
  expect_error([&] { d::argmin(x, Scalar(0)); }, ErrorCode::kInvalidArgument, {"argmin", "x"});
  expect_error([&] { d::argmax(x, Scalar(0), false, true); }, ErrorCode::kInvalidArgument,
               {"argmax", "x", "non-empty"});            // flatten: one answer from no elements
  EXPECT_EQ(d::max(x, {1}).dims(), (Dims{0}));           // nothing to reduce per output: fine
  EXPECT_EQ(d::argmax(x, Scalar(1)).dims(), (Dims{0}));  // as max
  EXPECT_EQ(d::argmin(x, Scalar(1), true).dims(), (Dims{0, 1}));
  // std/var of an empty reduction: 0/0 = nan (numpy, Paddle), not 0/-1 = -0.
  EXPECT_TRUE(std::isnan(to_doubles(d::var(make_tensor({0}, DType::kFloat32, {})))[0]));
  EXPECT_TRUE(std::isnan(to_doubles(d::std(x, {0}))[2]));
}

TEST(ReductionErrors, DTypes) {
  const auto xi = make_tensor({2, 2}, DType::kInt32, {1, 2, 3, 4});
  expect_error([&] { d::var(xi); }, ErrorCode::kTypeError, {"var", "x", "int32"});
  expect_error([&] { d::p_norm(xi); }, ErrorCode::kTypeError, {"p_norm", "x", "int32"});
  expect_error(
      [&] {
        d::argmax(f32({2}, {1, 2}), Scalar(0), false, false, DType::kFloat32);
      },
      ErrorCode::kTypeError, {"argmax", "dtype", "float32"});
  expect_error(
      [&] {
        d::argmax(f32({2}, {1, 2}), Scalar(0.5));
      },
      ErrorCode::kTypeError, {"argmax", "axis"});
  expect_error([&] { d::mean(xi); }, ErrorCode::kNotFound, {"mean"});
}

TEST(ReductionSemantics, SumDTypes) {
  const auto b = make_tensor({3}, DType::kBool, {1, 0, 1});
  EXPECT_EQ(d::sum(b).dtype(), DType::kInt64);
  EXPECT_EQ(to_doubles(d::sum(b)), std::vector<double>{2});
  EXPECT_EQ(d::sum(make_tensor({2}, DType::kInt32, {1, 2})).dtype(), DType::kInt64);
  EXPECT_EQ(d::sum(make_tensor({2}, DType::kInt16, {1, 2})).dtype(), DType::kInt16);
  const auto s = d::sum(make_tensor({2}, DType::kInt32, {1, 2}), {}, DType::kFloat64);
  EXPECT_EQ(s.dtype(), DType::kFloat64);
  EXPECT_EQ(to_doubles(s), std::vector<double>{3});
  EXPECT_EQ(d::sum(make_tensor({2}, DType::kBFloat16, {1, 2})).dtype(), DType::kBFloat16);
}

TEST(ReductionSemantics, Shapes) {
  const auto x = make_tensor({2, 3, 4}, DType::kFloat32, std::vector<double>(24, 1.0));
  EXPECT_EQ(d::sum(x).dims(), Dims{});
  EXPECT_EQ(d::sum(x, {}, DType::kUndefined, true).dims(), (Dims{1, 1, 1}));
  EXPECT_EQ(d::mean(x, {0, 2}, true).dims(), (Dims{1, 3, 1}));
  EXPECT_EQ(d::argmax(x, Scalar(1)).dims(), (Dims{2, 4}));
  EXPECT_EQ(d::argmax(x, Scalar(0), true, true).dims(), (Dims{1, 1, 1}));
  EXPECT_EQ(d::argmax(x, Scalar(0), false, true).dims(), Dims{});
  EXPECT_EQ(d::cumsum(x, Scalar(-1), true).dims(), (Dims{24}));
  EXPECT_EQ(d::p_norm(x, 2.0f, 1, 1e-12f, true).dims(), (Dims{2, 1, 4}));
  EXPECT_EQ(d::p_norm(x, 2.0f, 1, 1e-12f, false, true).dims(), Dims{});
}

TEST(ReductionSemantics, NaNPropagates) {
  const auto x = f32({2, 3}, {1, kNaN, 3, 4, 5, 6});
  for (auto* f : {&d::max, &d::min, &d::amax, &d::amin}) {
    const auto r = to_doubles(f(x, {1}, false));
    EXPECT_TRUE(std::isnan(r[0]));
    EXPECT_FALSE(std::isnan(r[1]));
  }
  EXPECT_TRUE(std::isnan(to_doubles(d::max(x))[0]));
  EXPECT_EQ(to_doubles(d::max(x, {0}, false))[0], 4);
  EXPECT_TRUE(std::isnan(to_doubles(d::max(x, {0}, false))[1]));
  // argmax/argmin pick the (first) NaN.
  const auto y = f32({5}, {1, kNaN, 7, kNaN, -2});
  EXPECT_EQ(to_doubles(d::argmax(y, Scalar(0))), std::vector<double>{1});
  EXPECT_EQ(to_doubles(d::argmin(y, Scalar(0))), std::vector<double>{1});
  // Long rows exercise the vectorized lanes: a NaN in any lane wins.
  std::vector<double> v(10000, 1.0);
  v[7777] = kNaN;
  EXPECT_TRUE(std::isnan(to_doubles(d::amax(f32({10000}, v)))[0]));
  EXPECT_TRUE(std::isnan(to_doubles(d::amin(f32({100, 100}, v), {0}, false))[77]));
}

TEST(ReductionSemantics, EdgeValues) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(to_doubles(d::logsumexp(f32({2}, {-inf, -inf})))[0], -inf);
  EXPECT_EQ(to_doubles(d::logsumexp(f32({2}, {inf, 1})))[0], inf);
  EXPECT_TRUE(std::isnan(to_doubles(d::mean(make_tensor({0}, DType::kFloat32, {})))[0]));
  EXPECT_EQ(to_doubles(d::prod(make_tensor({0}, DType::kFloat32, {})))[0], 1);
  EXPECT_EQ(to_doubles(d::all(make_tensor({0}, DType::kFloat32, {})))[0], 1);
  EXPECT_EQ(to_doubles(d::any(make_tensor({0}, DType::kFloat32, {})))[0], 0);
  EXPECT_TRUE(std::isnan(to_doubles(d::var(f32({1}, {3})))[0]));  // unbiased, one element
  EXPECT_EQ(to_doubles(d::p_norm(f32({3}, {0, -2, 0}), 0.0f))[0], 1);
  EXPECT_EQ(to_doubles(d::cumsum(f32({3}, {1, 2, 3}), Scalar(0), false, true, true)),
            (std::vector<double>{5, 3, 0}));
  EXPECT_EQ(to_doubles(d::cumprod(f32({3}, {1, 2, 3}), 0, true)), (std::vector<double>{1, 1, 2}));
}

// fp32 sums are pairwise: 10M values near 1 sum to within a few ulps of the float64 result, on
// every loop shape (full, rows, columns).
TEST(ReductionAccuracy, LongFloat32Sums) {
  const int64_t n = 10'000'000;
  std::vector<double> v(n);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> u(0.9f, 1.1f);
  for (auto& e : v) e = u(rng);
  const auto x = make_tensor({n}, DType::kFloat32, v);
  double exact = 0;
  for (double e : v) exact += e;
  EXPECT_NEAR(to_doubles(d::sum(x))[0], exact, exact * 1e-6);
  EXPECT_NEAR(to_doubles(d::mean(x))[0], exact / n, 1e-6);
  const auto cols = to_doubles(d::sum(x.as_strided({1000, 10000}, {10000, 1}, 0), {1}));
  const auto rows = to_doubles(d::sum(x.as_strided({10000, 1000}, {1000, 1}, 0), {0}));
  double exact0 = 0;
  for (int64_t r = 0; r < 10000; ++r) exact0 += v[r * 1000];
  EXPECT_NEAR(rows[0], exact0, exact0 * 1e-6);
  double exact_c = 0;
  for (int64_t c = 0; c < 10000; ++c) exact_c += v[c];
  EXPECT_NEAR(cols[0], exact_c, exact_c * 1e-6);
}

}  // namespace
}  // namespace skiff::testing
