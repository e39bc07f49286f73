// Elementwise ops: bad inputs (error code and message) and the exact semantics the generic
// consistency test cannot see (Python-style floor division and modulo, NaN propagation, promotion
// of comparisons, the streaming path of large float32 adds).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "op_test_util.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;

void expect_error(const std::function<void()>& f, ErrorCode code, const std::string& op,
                  const std::string& arg, const std::string& needle) {
  try {
    f();
    FAIL() << "no error thrown (wanted " << op << " " << arg << ")";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_EQ(e.info().op, op) << e.what();
    EXPECT_EQ(e.info().arg, arg) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

DenseTensor f32(const Dims& d, const std::vector<double>& v) {
  return make_tensor(d, DType::kFloat32, v);
}
DenseTensor i64(const Dims& d, const std::vector<double>& v) {
  return make_tensor(d, DType::kInt64, v);
}

TEST(ElementwiseErrors, BroadcastMismatchNamesShapes) {
  expect_error(
      [] {
        dense::maximum(f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({4}, {1, 2, 3, 4}));
      },
      ErrorCode::kInvalidArgument, "maximum", "y", "got [4]");
  expect_error(
      [] {
        dense::less_than(f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2}));
      },
      ErrorCode::kInvalidArgument, "less_than", "y", "broadcastable with x [2, 3]");
}

TEST(ElementwiseErrors, IntegerDivisionByZero) {
  for (DType d : {DType::kInt8, DType::kInt32, DType::kInt64, DType::kUInt8}) {
    const DenseTensor x = make_tensor({3}, d, {1, 2, 3});
    const DenseTensor y = make_tensor({3}, d, {1, 0, 3});
    expect_error([&] { dense::floor_divide(x, y); }, ErrorCode::kInvalidArgument, "floor_divide",
                 "y", "no zero divisor");
    expect_error([&] { dense::remainder(x, y); }, ErrorCode::kInvalidArgument, "remainder", "y",
                 "0 at flat index 1");
  }
  // A broadcast zero scalar divisor, and the reference backend too.
  expect_error(
      [] {
        dense::floor_divide(i64({2}, {4, 5}), i64({}, {0}));
      },
      ErrorCode::kInvalidArgument, "floor_divide", "y", "no zero divisor");
}

TEST(ElementwiseErrors, BitwiseNeedsIntegers) {
  expect_error(
      [] {
        dense::bitwise_and(f32({2}, {1, 2}), f32({2}, {1, 2}));
      },
      ErrorCode::kTypeError, "bitwise_and", "x", "got float32");
  expect_error(
      [] {
        dense::bitwise_not(f32({2}, {1, 2}));
      },
      ErrorCode::kTypeError, "bitwise_not", "x", "bool or integer");
}

TEST(ElementwiseErrors, WhereConditionMustBeBool) {
  expect_error(
      [] {
        dense::where(f32({2}, {1, 0}), f32({2}, {1, 2}), f32({2}, {3, 4}));
      },
      ErrorCode::kTypeError, "where", "condition", "got float32");
  const DenseTensor c = make_tensor({3}, DType::kBool, {1, 0, 1});
  expect_error(
      [&] {
        dense::where(c, f32({2}, {1, 2}), f32({2}, {3, 4}));
      },
      ErrorCode::kInvalidArgument, "where", "x", "broadcastable with condition [3]");
}

TEST(ElementwiseErrors, ClipBoundsAndLerpDtype) {
  expect_error(
      [] {
        dense::clip(f32({2}, {1, 2}), Scalar(2.0), Scalar(1.0));
      },
      ErrorCode::kInvalidArgument, "clip", "max", "got 1");
  expect_error(
      [] {
        dense::lerp(i64({2}, {1, 2}), i64({2}, {3, 4}), i64({2}, {0, 1}));
      },
      ErrorCode::kTypeError, "lerp", "x", "got int64");
  expect_error(
      [] {
        dense::lerp(f32({2}, {1, 2}), f32({3}, {3, 4, 5}), f32({2}, {0, 1}));
      },
      ErrorCode::kInvalidArgument, "lerp", "y", "got [3]");
  expect_error(
      [] {
        dense::lerp(f32({2}, {1, 2}), f32({2}, {3, 4}), f32({3}, {0, 1, 0}));
      },
      ErrorCode::kInvalidArgument, "lerp", "weight", "broadcastable with x and y [2]");
}

TEST(ElementwiseSemantics, FloorDivideAndRemainderFollowPython) {
  const std::vector<double> xs{-7, 7, -7, 7, 0, -1};
  const std::vector<double> ys{2, -2, -2, 2, 3, 5};
  for (DType d : {DType::kInt8, DType::kInt32, DType::kInt64, DType::kFloat32, DType::kFloat64,
                  DType::kBFloat16}) {
    const DenseTensor x = make_tensor({6}, d, xs), y = make_tensor({6}, d, ys);
    EXPECT_EQ(to_doubles(dense::floor_divide(x, y)), (std::vector<double>{-4, -4, 3, 3, 0, -1}))
        << d;
    EXPECT_EQ(to_doubles(dense::remainder(x, y)), (std::vector<double>{1, -1, -1, 1, 0, 4})) << d;
  }
  const auto fx = f32({3}, {-7.5, 7.5, 5.25}), fy = f32({3}, {2, -2, 0.5});
  EXPECT_EQ(to_doubles(dense::floor_divide(fx, fy)), (std::vector<double>{-4, -4, 10}));
  EXPECT_EQ(to_doubles(dense::remainder(fx, fy)), (std::vector<double>{0.5, -0.5, 0.25}));
  // Float division by zero follows IEEE instead of raising.
  const auto z = to_doubles(dense::floor_divide(f32({2}, {1, -1}), f32({2}, {0, 0})));
  EXPECT_TRUE(std::isinf(z[0]) && z[0] > 0 && std::isinf(z[1]) && z[1] < 0);
  // MIN // -1 wraps instead of trapping.
  const auto m = make_tensor({1}, DType::kInt8, {-128});
  EXPECT_EQ(to_doubles(dense::floor_divide(m, make_tensor({1}, DType::kInt8, {-1})))[0], -128);
  EXPECT_EQ(to_doubles(dense::remainder(m, make_tensor({1}, DType::kInt8, {-1})))[0], 0);
}

TEST(ElementwiseSemantics, MaximumMinimumPropagateNan) {
  const auto x = f32({3}, {NAN, 1, 2}), y = f32({3}, {1, NAN, 0});
  for (const auto& r : {dense::maximum(x, y), dense::minimum(x, y), dense::maximum(y, x)}) {
    const auto v = to_doubles(r);
    EXPECT_TRUE(std::isnan(v[0]) && std::isnan(v[1])) << v[0] << " " << v[1];
  }
  EXPECT_EQ(to_doubles(dense::maximum(x, y))[2], 2);
  EXPECT_EQ(to_doubles(dense::minimum(x, y))[2], 0);
}

TEST(ElementwiseSemantics, ComparisonsPromoteAndGiveBool) {
  const auto i = make_tensor({3}, DType::kInt32, {1, 2, 3});
  const auto f = f32({3}, {1.5, 2, 2.5});
  const auto lt = dense::less_than(i, f);
  EXPECT_EQ(lt.dtype(), DType::kBool);
  EXPECT_EQ(to_doubles(lt), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(to_doubles(dense::equal(i, f)), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(to_doubles(dense::greater_equal(f, i)), (std::vector<double>{1, 1, 0}));
  const auto nan = f32({1}, {NAN});
  EXPECT_EQ(to_doubles(dense::not_equal(nan, nan))[0], 1);
  EXPECT_EQ(to_doubles(dense::equal(nan, nan))[0], 0);
  const auto land = dense::logical_and(f32({3}, {0, 0.5, -1}), i);
  EXPECT_EQ(land.dtype(), DType::kBool);
  EXPECT_EQ(to_doubles(land), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(to_doubles(dense::logical_not(f32({2}, {0, NAN}))), (std::vector<double>{1, 0}));
}

TEST(ElementwiseSemantics, PowBitwiseClipScaleWhere) {
  EXPECT_EQ(to_doubles(dense::pow(i64({4}, {-2, 3, 1, 0}), Scalar(3))),
            (std::vector<double>{-8, 27, 1, 0}));
  EXPECT_EQ(to_doubles(dense::pow(i64({3}, {2, 1, -1}), Scalar(-1))),
            (std::vector<double>{0, 1, -1}));
  EXPECT_EQ(to_doubles(dense::elementwise_pow(i64({3}, {2, 3, 10}), i64({3}, {10, 0, 18}))),
            (std::vector<double>{1024, 1, 1e18}));
  const auto b = make_tensor({3}, DType::kInt8, {-1, 5, 0});
  EXPECT_EQ(to_doubles(dense::bitwise_not(b)), (std::vector<double>{0, -6, -1}));
  EXPECT_EQ(to_doubles(dense::bitwise_xor(b, make_tensor({}, DType::kInt8, {3}))),
            (std::vector<double>{-4, 6, 3}));
  EXPECT_EQ(to_doubles(dense::clip(f32({4}, {-3, 0.5, 9, NAN}), Scalar(-1), Scalar(2)))[2], 2);
  EXPECT_TRUE(std::isnan(to_doubles(dense::clip(f32({1}, {NAN}), Scalar(-1), Scalar(2)))[0]));
  EXPECT_EQ(to_doubles(dense::scale(f32({2}, {1, 2}), Scalar(2), Scalar(1), false)),
            (std::vector<double>{4, 6}));
  EXPECT_EQ(to_doubles(dense::scale(f32({2}, {1, 2}), Scalar(2), Scalar(1), true)),
            (std::vector<double>{3, 5}));
  const auto c = make_tensor({}, DType::kBool, {1});
  const auto w = dense::where(c, f32({}, {7}), f32({}, {8}));
  EXPECT_EQ(w.rank(), 0);
  EXPECT_EQ(to_doubles(w)[0], 7);
  // where promotes x and y.
  const auto wp =
      dense::where(make_tensor({2}, DType::kBool, {1, 0}), i64({2}, {1, 2}), f32({2}, {0.5, 0.25}));
  EXPECT_EQ(wp.dtype(), DType::kFloat32);
  EXPECT_EQ(to_doubles(wp), (std::vector<double>{1, 0.25}));
}

TEST(ElementwiseSemantics, AssignCopiesIntoFreshStorage) {
  const auto x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const auto t = x.as_strided({3, 2}, {1, 3}, 0);  // a transposed view
  const auto a = dense::assign(t);
  EXPECT_FALSE(a.shares_storage_with(x));
  EXPECT_TRUE(a.is_contiguous());
  EXPECT_EQ(to_doubles(a), (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

// Above the streaming threshold, at an unaligned offset, with an odd length.
TEST(ElementwiseSemantics, LargeFloatArithmeticStreamingPath) {
  const int64_t n = (int64_t{2} << 20) + 7;  // just above the 8 MiB threshold
  std::vector<double> xv(n + 1), yv(n + 1);
  for (int64_t i = 0; i <= n; ++i) {
    xv[i] = static_cast<double>(i % 1000) * 0.5;
    yv[i] = static_cast<double>(i % 7) + 1;
  }
  const auto xb = f32({n + 1}, xv), yb = f32({n + 1}, yv);
  const auto x = xb.as_strided({n}, {1}, 1), y = yb.as_strided({n}, {1}, 0);
  const auto s = to_doubles(dense::add(x, y)), d = to_doubles(dense::subtract(x, y));
  const auto m = to_doubles(dense::multiply(x, y)), q = to_doubles(dense::divide(x, y));
  for (int64_t i = 0; i < n; ++i) {
    const float a = static_cast<float>(xv[i + 1]), b = static_cast<float>(yv[i]);
    ASSERT_EQ(s[i], a + b) << i;
    ASSERT_EQ(d[i], a - b) << i;
    ASSERT_EQ(m[i], a * b) << i;
    ASSERT_EQ(q[i], a / b) << i;
  }
}

}  // namespace
}  // namespace skiff::testing
