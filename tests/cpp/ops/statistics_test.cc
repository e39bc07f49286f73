// Bad inputs of the statistics ops (skiff/ops/yaml/statistics.yaml), with their exact messages,
// and the rules a generic comparison does not pin down: cummax's tie and NaN indices, mode's
// choice among equally frequent values, searchsorted's left/right positions.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/base/error.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;

DenseTensor vec(std::vector<double> v, DType t = DType::kFloat64) {
  const int64_t n = static_cast<int64_t>(v.size());
  return make_tensor({n}, t, v);
}

TEST(StatisticsTest, BadInputs) {
  expect_error_containing(
      [] {
        dense::cummax(vec({1, 2}), 0, DType::kFloat32);
      },
      ErrorCode::kTypeError, "cummax: argument 'dtype' expected int32 or int64, got float32");
  expect_error_containing(
      [] {
        dense::logcumsumexp(vec({1, 2}, DType::kInt64), 0);
      },
      ErrorCode::kTypeError,
      "logcumsumexp: argument 'x' expected a floating point tensor, got int64");
  expect_error_containing(
      [] {
        dense::mode(make_tensor({2, 0}, DType::kFloat64, {}), 1);
      },
      ErrorCode::kInvalidArgument,
      "(InvalidArgument) mode: argument 'x' expected a non-empty axis 1, got [2, 0]");
  expect_error_containing(
      [] {
        dense::searchsorted(make_tensor({2, 3}, DType::kFloat64, {1, 2, 3, 1, 2, 3}),
                            make_tensor({3, 1}, DType::kFloat64, {1, 2, 3}));
      },
      ErrorCode::kInvalidArgument,
      "(InvalidArgument) searchsorted: argument 'sorted_sequence' expected 1-D or the "
      "leading dims of values [3, 1], got [2, 3]");
  expect_error_containing(
      [] {
        dense::poisson(vec({1, -2}));
      },
      ErrorCode::kInvalidArgument,
      "(InvalidArgument) poisson: argument 'x' expected finite non-negative rates, got -2");
  expect_error_containing(
      [] {
        dense::poisson(vec({1, 2}, DType::kInt32));
      },
      ErrorCode::kTypeError, "poisson: argument 'x' expected a floating point tensor, got int32");
}

TEST(StatisticsTest, CummaxTakesTheNewerIndexOnTiesAndNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto [out, idx] = dense::cummax(vec({1, 3, 3, nan, 5, nan, 2}), 0);
  const std::vector<double> v = to_doubles(out);
  EXPECT_EQ(v[0], 1);
  EXPECT_EQ(v[2], 3);
  EXPECT_TRUE(std::isnan(v[3]) && std::isnan(v[4]) && std::isnan(v[6]));
  EXPECT_EQ(to_doubles(idx), (std::vector<double>{0, 1, 2, 3, 3, 5, 5}));
  auto [mout, midx] = dense::cummin(vec({2, 1, 1, 4}), 0);
  EXPECT_EQ(to_doubles(mout), (std::vector<double>{2, 1, 1, 1}));
  EXPECT_EQ(to_doubles(midx), (std::vector<double>{0, 1, 2, 2}));
}

TEST(StatisticsTest, ModeAndSearchsorted) {
  auto [m, mi] = dense::mode(vec({3, 1, 3, 1, 2}), 0);  // equally frequent: the smaller value
  EXPECT_EQ(to_doubles(m), (std::vector<double>{1}));
  EXPECT_EQ(to_doubles(mi), (std::vector<double>{3}));  // its last occurrence
  const DenseTensor seq = vec({1, 2, 2, 2, 5});
  EXPECT_EQ(to_doubles(dense::searchsorted(seq, vec({2, 0, 6}))), (std::vector<double>{1, 0, 5}));
  EXPECT_EQ(to_doubles(dense::searchsorted(seq, vec({2, 0, 6}), true, true)),
            (std::vector<double>{4, 0, 5}));
}

}  // namespace
}  // namespace skiff::testing
