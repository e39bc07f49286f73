// Unary math ops beyond the generic consistency test: bad-input messages, Paddle's edge-case
// semantics (round half away from zero, integer wrap-around, float results for integers),
// special values, and the accuracy of the vectorized float32 functions over wide ranges.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "op_test_util.h"
#include "skiff/base/error.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

DenseTensor vec(DType dtype, const std::vector<double>& v) {
  return make_tensor(Dims{static_cast<int64_t>(v.size())}, dtype, v);
}

void expect_type_error(const std::function<void()>& f, const std::string& op,
                       const std::string& got) {
  try {
    f();
    FAIL() << op << " did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTypeError) << e.what();
    const std::string msg = e.what();
    EXPECT_NE(msg.find(op + ": argument 'x'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("got " + got), std::string::npos) << msg;
  }
}

TEST(UnaryTest, RejectsBoolInputs) {
  const DenseTensor b = vec(DType::kBool, {1, 0});
  expect_type_error([&] { dense::abs(b); }, "abs", "bool");
  expect_type_error([&] { dense::neg(b); }, "neg", "bool");
  expect_type_error([&] { dense::exp(b); }, "exp", "bool");
  expect_type_error([&] { dense::sqrt(b); }, "sqrt", "bool");
  expect_type_error([&] { dense::round(b); }, "round", "bool");
  // Classification ops take every dtype.
  EXPECT_EQ(to_doubles(dense::isfinite(b)), (std::vector<double>{1, 1}));
}

TEST(UnaryTest, IntegerInputsOfFloatFunctionsGiveFloat32) {
  for (DType d : {DType::kInt8, DType::kUInt8, DType::kInt32, DType::kInt64}) {
    const DenseTensor x = vec(d, {0, 1, 4});
    const DenseTensor e = dense::exp(x);
    EXPECT_EQ(e.dtype(), DType::kFloat32);
    EXPECT_EQ(to_doubles(e), (std::vector<double>{1, std::exp(1.0f), std::exp(4.0f)}));
    EXPECT_EQ(to_doubles(dense::sqrt(x)), (std::vector<double>{0, 1, 2}));
    EXPECT_EQ(to_doubles(dense::reciprocal(x)), (std::vector<double>{kInf, 1, 0.25}));
    EXPECT_EQ(dense::abs(x).dtype(), d);
    EXPECT_EQ(dense::floor(x).dtype(), d);
  }
}

TEST(UnaryTest, RoundsHalfAwayFromZero) {
  const std::vector<double> x = {-2.5, -1.5, -0.5, -0.25, 0.25, 0.5, 1.5, 2.5, 3.0};
  const std::vector<double> want = {-3, -2, -1, 0, 0, 1, 2, 3, 3};
  for (DType d : {DType::kFloat32, DType::kFloat64, DType::kBFloat16, DType::kFloat16}) {
    EXPECT_EQ(to_doubles(dense::round(vec(d, x))), want) << d;
  }
  // The largest float below 0.5 rounds to 0 (x + 0.5 would round it up).
  EXPECT_EQ(to_doubles(dense::round(vec(DType::kFloat32, {0.49999997})))[0], 0.0);
  const auto r = to_doubles(dense::round(vec(DType::kFloat64, {1.2345, -1.2355, 1250, 1249}), 2));
  EXPECT_DOUBLE_EQ(r[0], 1.23);
  EXPECT_DOUBLE_EQ(r[1], -1.24);
  EXPECT_EQ(to_doubles(dense::round(vec(DType::kFloat64, {1250, 1249, -1250}), -2)),
            (std::vector<double>{1300, 1200, -1300}));
  EXPECT_EQ(to_doubles(dense::round(vec(DType::kInt32, {7, -3}), -1)),
            (std::vector<double>{7, -3}));  // identity on integers
}

TEST(UnaryTest, IntegerResultsWrapAround) {
  const DenseTensor x = vec(DType::kInt8, {-128, -5, 0, 5, 127});
  EXPECT_EQ(to_doubles(dense::abs(x)), (std::vector<double>{-128, 5, 0, 5, 127}));
  EXPECT_EQ(to_doubles(dense::neg(x)), (std::vector<double>{-128, 5, 0, -5, -127}));
  EXPECT_EQ(to_doubles(dense::sign(x)), (std::vector<double>{-1, -1, 0, 1, 1}));
  EXPECT_EQ(to_doubles(dense::square(vec(DType::kInt8, {16, -12}))),
            (std::vector<double>{0, -112}));
  EXPECT_EQ(to_doubles(dense::neg(vec(DType::kUInt8, {1, 0}))), (std::vector<double>{255, 0}));
}

TEST(UnaryTest, SpecialValues) {
  for (DType d : {DType::kFloat32, DType::kFloat64, DType::kBFloat16, DType::kFloat16}) {
    const DenseTensor x = vec(d, {kNaN, kInf, -kInf, -0.0, 0.0});
    const auto e = to_doubles(dense::exp(x));
    EXPECT_TRUE(std::isnan(e[0]));
    EXPECT_EQ(e[1], kInf);
    EXPECT_EQ(e[2], 0.0);
    EXPECT_EQ(e[3], 1.0);
    const auto l = to_doubles(dense::log(x));
    EXPECT_TRUE(std::isnan(l[0]));
    EXPECT_EQ(l[1], kInf);
    EXPECT_TRUE(std::isnan(l[2]));
    EXPECT_EQ(l[3], -kInf);
    const auto s = to_doubles(dense::sqrt(x));
    EXPECT_TRUE(std::signbit(s[3]) && s[3] == 0.0) << "sqrt(-0) is -0";
    EXPECT_TRUE(std::isnan(to_doubles(dense::sign(x))[0])) << "sign(NaN) is NaN";
    EXPECT_EQ(to_doubles(dense::tanh(x))[2], -1.0);
    EXPECT_EQ(to_doubles(dense::rsqrt(x))[4], kInf);
    EXPECT_EQ(to_doubles(dense::isnan(x)), (std::vector<double>{1, 0, 0, 0, 0}));
    EXPECT_EQ(to_doubles(dense::isinf(x)), (std::vector<double>{0, 1, 1, 0, 0}));
    EXPECT_EQ(to_doubles(dense::isfinite(x)), (std::vector<double>{0, 0, 0, 1, 1}));
  }
}

// The vectorized float32 path (libmvec) against float64 libm over wide ranges: at most 4 ulp.
TEST(UnaryTest, Float32AccuracyOverWideRanges) {
  struct Case {
    const char* name;
    std::function<DenseTensor(const DenseTensor&)> op;
    double (*ref)(double);
    double lo, hi;
  };
  const std::vector<Case> cases = {
      {"exp", [](const auto& t) { return dense::exp(t); }, std::exp, -103, 88.7},
      {"expm1", [](const auto& t) { return dense::expm1(t); }, std::expm1, -20, 88.7},
      {"log", [](const auto& t) { return dense::log(t); }, std::log, 1e-30, 1e30},
      {"log1p", [](const auto& t) { return dense::log1p(t); }, std::log1p, -0.999, 1e6},
      {"log2", [](const auto& t) { return dense::log2(t); }, std::log2, 1e-3, 1e6},
      {"sin", [](const auto& t) { return dense::sin(t); }, std::sin, -100, 100},
      {"cos", [](const auto& t) { return dense::cos(t); }, std::cos, -100, 100},
      {"tan", [](const auto& t) { return dense::tan(t); }, std::tan, -1.5, 1.5},
      {"tanh", [](const auto& t) { return dense::tanh(t); }, std::tanh, -10, 10},
      {"asin", [](const auto& t) { return dense::asin(t); }, std::asin, -1, 1},
      {"acos", [](const auto& t) { return dense::acos(t); }, std::acos, -1, 1},
      {"atan", [](const auto& t) { return dense::atan(t); }, std::atan, -100, 100},
      {"sinh", [](const auto& t) { return dense::sinh(t); }, std::sinh, -89, 89},
      {"cosh", [](const auto& t) { return dense::cosh(t); }, std::cosh, -89, 89},
      {"erf", [](const auto& t) { return dense::erf(t); }, std::erf, -5, 5},
      {"sqrt", [](const auto& t) { return dense::sqrt(t); }, std::sqrt, 0, 1e10},
  };
  constexpr int64_t kN = 200001;
  for (const Case& c : cases) {
    std::vector<double> x(kN);
    for (int64_t i = 0; i < kN; ++i) {
      x[i] = static_cast<float>(c.lo + (c.hi - c.lo) * static_cast<double>(i) / (kN - 1));
    }
    const auto got = to_doubles(c.op(vec(DType::kFloat32, x)));
    double max_ulp = 0;
    for (int64_t i = 0; i < kN; ++i) {
      const double want = c.ref(x[i]);
      const float wf = static_cast<float>(want);
      const double ulp =
          std::nextafter(std::abs(wf), std::numeric_limits<float>::infinity()) - std::abs(wf);
      if (std::isinf(wf)) continue;
      max_ulp = std::max(max_ulp, std::abs(got[i] - want) / ulp);
    }
    EXPECT_LE(max_ulp, 4.0) << c.name;
  }
}

}  // namespace
}  // namespace skiff::testing
