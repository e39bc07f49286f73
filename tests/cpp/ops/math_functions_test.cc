// Bad inputs of skiff/ops/yaml/math_functions.yaml (exact messages), and the values where the
// kernels must not overflow: gcd/lcm of INT_MIN, lcm of 0, as_strided as a view of x.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/base/error.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;
using L = std::vector<int64_t>;

DenseTensor filled(const Dims& d, double v, DType t = DType::kFloat64) {
  return make_tensor(d, t, std::vector<double>(static_cast<size_t>(d.numel()), v));
}

TEST(MathFunctionsTest, AsStridedBounds) {
  const DenseTensor x = filled({2, 3}, 1);
  expect_invalid_argument(
      [&] {
        dense::as_strided(x, L{2, 2}, L{1, 3}, 4);
      },
      "as_strided: argument 'x' expected at least 9 elements for dims [2, 2], stride "
      "[1, 3] and offset 4, got 6 elements (shape [2, 3])");
  expect_invalid_argument(
      [&] {
        dense::as_strided(x, L{2, 2}, L{1}, 0);
      },
      "as_strided: argument 'stride' expected one stride per dim (2 dims), got [1]");
  expect_invalid_argument([&] { dense::as_strided(x, L{2}, L{-1}, 0); },
                          "as_strided: argument 'stride' expected strides >= 0, got [-1]");
  expect_invalid_argument([&] { dense::as_strided(x, L{-1}, L{1}, 0); },
                          "as_strided: argument 'dims' expected sizes >= 0, got [-1]");
  expect_invalid_argument([&] { dense::as_strided(x, L{2}, L{1}, -1); },
                          "as_strided: argument 'offset' expected an offset >= 0, got -1");
  // an empty result needs no element; a full one may end on x's last element
  EXPECT_EQ(dense::as_strided(x, L{0, 5}, L{9, 9}, 6).numel(), 0);
  EXPECT_EQ(dense::as_strided(x, L{3}, L{2}, 1).numel(), 3);
}

TEST(MathFunctionsTest, AsStridedSharesContiguousStorage) {
  const DenseTensor x = make_tensor({2, 3}, DType::kFloat64, {0, 1, 2, 3, 4, 5});
  const DenseTensor v = dense::as_strided(x, L{2, 2}, L{3, 1}, 1);
  EXPECT_EQ(static_cast<const double*>(v.raw_data()), static_cast<const double*>(x.raw_data()) + 1);
  EXPECT_EQ(to_doubles(v), (std::vector<double>{1, 2, 4, 5}));
}

TEST(MathFunctionsTest, GcdLcmExtremes) {
  constexpr double kMin = static_cast<double>(std::numeric_limits<int32_t>::min());
  const DenseTensor x = make_tensor({4}, DType::kInt32, {kMin, 0, -12, 7});
  const DenseTensor y = make_tensor({4}, DType::kInt32, {6, 0, 18, 0});
  EXPECT_EQ(to_doubles(dense::gcd(x, y)), (std::vector<double>{2, 0, 6, 7}));
  // lcm(INT_MIN, 6) = 3 * 2^31 wraps to INT_MIN, as the unsigned product does
  EXPECT_EQ(to_doubles(dense::lcm(x, y)), (std::vector<double>{kMin, 0, 36, 0}));
}

TEST(MathFunctionsTest, ShapesAndDtypes) {
  expect_invalid_argument(
      [] {
        dense::heaviside(filled({2, 3}, 1), filled({4}, 1));
      },
      "heaviside: argument 'y' expected a shape broadcastable with x [2, 3] (dim 1), got [4]");
}

}  // namespace
}  // namespace skiff::testing
