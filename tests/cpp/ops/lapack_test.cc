// Bad inputs of the LAPACK ops (skiff/ops/yaml/lapack.yaml): the exact messages, and LAPACK's
// failure reports (singular, not positive definite) turned into InvalidArgument errors.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/base/error.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;

DenseTensor filled(const Dims& d, double v, DType t = DType::kFloat64) {
  return make_tensor(d, t, std::vector<double>(static_cast<size_t>(d.numel()), v));
}

DenseTensor eye3(double diag = 1.0) {
  return make_tensor({3, 3}, DType::kFloat64, {diag, 0, 0, 0, diag, 0, 0, 0, diag});
}

TEST(LapackTest, ShapesAndDtypes) {
  expect_invalid_argument(
      [] {
        dense::inverse(filled({3, 4}, 1));
      },
      "inverse: argument 'x' expected square matrices [*, N, N], got [3, 4]");
  expect_invalid_argument(
      [] { dense::det(filled({3}, 1)); },
      "det: argument 'x' expected a matrix or a batch of matrices (rank >= 2), got [3]");
  expect_invalid_argument(
      [] {
        dense::cholesky(filled({3, 3}, 1, DType::kInt64));
      },
      "cholesky: argument 'x' expected a float32 or float64 tensor, got int64");
  expect_invalid_argument(
      [] {
        dense::solve(eye3(), filled({4, 1}, 1));
      },
      "solve: argument 'y' expected a matrix with 3 rows (as x [3, 3]), got [4, 1]");
  expect_invalid_argument(
      [] {
        dense::solve(eye3(), filled({3, 1}, 1, DType::kFloat32));
      },
      "solve: argument 'y' expected dtype float64 (as x), got float32");
  expect_invalid_argument(
      [] { dense::qr(eye3(), "full"); },
      "qr: argument 'mode' expected one of 'reduced', 'complete', 'r', got 'full'");
  expect_invalid_argument([] { dense::eigh(eye3(), "X"); },
                          "eigh: argument 'UPLO' expected 'L' or 'U', got 'X'");
  expect_invalid_argument(
      [] { dense::lu(eye3(), false); },
      "lu: argument 'pivot' expected true (LU without pivoting is not implemented on "
      "the CPU), got false");
}

TEST(LapackTest, ReflectorShapes) {
  expect_invalid_argument(
      [] {
        dense::householder_product(filled({2, 3}, 1), filled({2}, 1));
      },
      "householder_product: argument 'x' expected M >= N (x [*, M, N]), got [2, 3]");
  expect_invalid_argument(
      [] {
        dense::householder_product(filled({4, 3}, 1), filled({4}, 1));
      },
      "householder_product: argument 'tau' expected K <= N = 3 (tau [*, K]), got [4]");
  expect_invalid_argument(
      [] {
        dense::householder_product(filled({2, 4, 3}, 1), filled({3, 3}, 1));
      },
      "householder_product: argument 'tau' expected shape [*, K] with the batch dims [2] "
      "of x, got [3, 3]");
  expect_invalid_argument(
      [] {
        dense::householder_product(filled({4, 3}, 1), filled({3}, 1, DType::kFloat32));
      },
      "householder_product: argument 'tau' expected dtype float64 (as x), got float32");
  expect_invalid_argument(
      [] {
        dense::ormqr(filled({4, 3}, 1), filled({3}, 1), filled({3, 2}, 1), true, false);
      },
      "ormqr: argument 'y' expected M = 4 (x's rows), got [3, 2]");
  expect_invalid_argument(
      [] {
        dense::ormqr(filled({4, 3}, 1), filled({3}, 1), filled({4, 2}, 1), false, true);
      },
      "ormqr: argument 'y' expected N = 4 (x's rows), got [4, 2]");
  expect_invalid_argument(
      [] {
        dense::ormqr(filled({2, 3}, 1), filled({3}, 1), filled({2, 2}, 1), true, false);
      },
      "ormqr: argument 'tau' expected at most min(MN, K) = 2 reflectors, got [3]");
  expect_invalid_argument(
      [] {
        dense::ormqr(filled({4, 3}, 1), filled({3}, 1), filled({2, 4, 2}, 1), true, false);
      },
      "ormqr: argument 'y' expected shape [*, M, N] with the batch dims [] of x, got "
      "[2, 4, 2]");
}

TEST(LapackTest, LapackFailuresAreInvalidArgument) {
  expect_invalid_argument(
      [] {
        dense::inverse(filled({2, 3, 3}, 1));
      },
      "inverse: argument 'x' expected a non-singular (invertible) matrix, got a singular "
      "matrix at batch entry 0 (U[1][1] of its LU factorization is zero)");
  expect_invalid_argument(
      [] {
        dense::solve(filled({3, 3}, 2), filled({3, 2}, 1));
      },
      "solve: argument 'x' expected a non-singular (invertible) matrix, got a singular "
      "matrix at batch entry 0 (U[1][1] of its LU factorization is zero)");
  expect_invalid_argument(
      [] { dense::cholesky(eye3(-1)); },
      "cholesky: argument 'x' expected a symmetric positive-definite matrix, got a "
      "matrix whose leading minor of order 1 is not positive at batch entry 0");
  expect_invalid_argument(
      [] {
        dense::triangular_solve(eye3(0), filled({3, 1}, 1));
      },
      "triangular_solve: argument 'x' expected a non-singular triangular matrix, got a "
      "zero on the diagonal (x[0][0]) at batch entry 0");
  // lu reports LAPACK's info instead of failing, as Paddle does.
  const auto [lu, pivots, infos] = dense::lu(filled({3, 3}, 0), true);
  EXPECT_EQ(to_doubles(infos), std::vector<double>{1});
  EXPECT_EQ(pivots.dtype(), DType::kInt32);
}

TEST(LapackTest, EigBadInput) {
  expect_invalid_argument(
      [] {
        dense::eig(filled({3, 4}, 1));
      },
      "eig: argument 'x' expected square matrices [*, N, N], got [3, 4]");
  expect_invalid_argument(
      [] { dense::eig(filled({3}, 1)); },
      "eig: argument 'x' expected a matrix or a batch of matrices (rank >= 2), got [3]");
  expect_error_message(
      [] {
        dense::eig(filled({3, 3}, 1, DType::kInt64));
      },
      ErrorCode::kTypeError,
      "eig: argument 'x' expected a float32, float64, complex64 or complex128 tensor, got int64");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (double bad : {nan, std::numeric_limits<double>::infinity()}) {
    expect_invalid_argument(
        [&] {
          dense::eig(make_tensor({2, 2, 2}, DType::kFloat64, {1, 0, 0, 1, 1, bad, 0, 1}));
        },
        "eig: argument 'x' expected finite values (no inf or nan), got a non-finite value at "
        "batch entry 1");
  }
}

}  // namespace
}  // namespace skiff::testing
