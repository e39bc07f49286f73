#include "skiff/ops/meta/lapack_meta.h"

#include <algorithm>

#include "skiff/base/error.h"
#include "skiff/ops/meta/elementwise_meta.h"

namespace skiff::ops::meta {

namespace {

void check_float(std::string_view op, const char* arg, const TensorMeta& t) {
  SKIFF_ENFORCE(t.dtype == DType::kFloat32 || t.dtype == DType::kFloat64, kInvalidArgument, op, arg,
                "a float32 or float64 tensor", t.dtype);
}

void check_matrix(std::string_view op, const char* arg, const TensorMeta& t) {
  check_float(op, arg, t);
  SKIFF_ENFORCE(t.dims.size() >= 2, kInvalidArgument, op, arg,
                "a matrix or a batch of matrices (rank >= 2)", t.dims);
}

void check_square(std::string_view op, const char* arg, const TensorMeta& t) {
  check_matrix(op, arg, t);
  const int r = t.dims.size();
  SKIFF_ENFORCE(t.dims[r - 1] == t.dims[r - 2], kInvalidArgument, op, arg,
                "square matrices [*, N, N]", t.dims);
}

void check_same_dtype(std::string_view op, const char* arg, const TensorMeta& t, DType want) {
  SKIFF_ENFORCE(t.dtype == want, kInvalidArgument, op, arg, str("dtype ", want, " (as x)"),
                t.dtype);
}

Dims batch_of(const Dims& d, int matrix_rank = 2) {
  Dims b;
  for (int i = 0; i + matrix_rank < d.size(); ++i) b.push_back(d[i]);
  return b;
}

Dims with_matrix(Dims batch, int64_t rows, int64_t cols) {
  batch.push_back(rows);
  batch.push_back(cols);
  return batch;
}

// Checks y [*, M, K] against a square x [*, M, M] and returns the broadcast out [*, M, K].
Dims rhs_dims(std::string_view op, const TensorMeta& x, const char* xname, const TensorMeta& y,
              const char* yname) {
  const int rx = x.dims.size(), ry = y.dims.size();
  SKIFF_ENFORCE(y.dims[ry - 2] == x.dims[rx - 1], kInvalidArgument, op, yname,
                str("a matrix with ", x.dims[rx - 1], " rows (as ", xname, " ", x.dims, ")"),
                y.dims);
  Dims b = broadcast_dims(op, batch_of(x.dims), batch_of(y.dims), yname, xname);
  return with_matrix(b, y.dims[ry - 2], y.dims[ry - 1]);
}

}  // namespace

void square_matrix_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  check_square(op, "x", x);
  *out = x;
}

void square_matrix_meta(std::string_view op, const TensorMeta& x, bool, TensorMeta* out) {
  square_matrix_meta(op, x, out);
}

void det_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  check_square(op, "x", x);
  *out = {x.dtype, batch_of(x.dims)};
}

void slogdet_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  check_square(op, "x", x);
  Dims d = batch_of(x.dims);
  d.insert(0, 2);
  *out = {x.dtype, d};
}

bool solve_rhs_is_vector(const Dims& x, const Dims& y) {
  if (y.size() == 1) return true;
  if (y.size() != x.size() - 1) return false;
  for (int i = 0; i < y.size(); ++i) {
    if (y[i] != x[i]) return false;
  }
  return true;
}

void solve_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  check_square(op, "x", x);
  check_same_dtype(op, "y", y, x.dtype);
  SKIFF_ENFORCE(y.dims.size() >= 1, kInvalidArgument, op, "y", "a tensor of rank >= 1", y.dims);
  if (solve_rhs_is_vector(x.dims, y.dims)) {
    const int64_t m = x.dims[x.dims.size() - 1];
    SKIFF_ENFORCE(y.dims.back() == m, kInvalidArgument, op, "y",
                  str("a vector of ", m, " elements (as x ", x.dims, ")"), y.dims);
    *out = {x.dtype, batch_of(x.dims, 1)};
    return;
  }
  *out = {x.dtype, rhs_dims(op, x, "x", y, "y")};
}

void triangular_solve_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, bool,
                           bool, bool, TensorMeta* out) {
  check_square(op, "x", x);
  check_same_dtype(op, "y", y, x.dtype);
  SKIFF_ENFORCE(y.dims.size() >= 2, kInvalidArgument, op, "y",
                "a matrix or a batch of matrices (rank >= 2)", y.dims);
  *out = {x.dtype, rhs_dims(op, x, "x", y, "y")};
}

void cholesky_solve_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, bool,
                         TensorMeta* out) {
  check_square(op, "y", y);
  check_matrix(op, "x", x);
  check_same_dtype(op, "x", x, y.dtype);
  *out = {x.dtype, rhs_dims(op, y, "y", x, "x")};
}

void lu_meta(std::string_view op, const TensorMeta& x, bool pivot, TensorMeta* out,
             TensorMeta* pivots, TensorMeta* infos) {
  check_matrix(op, "x", x);
  SKIFF_ENFORCE(pivot, kInvalidArgument, op, "pivot",
                "true (LU without pivoting is not implemented on the CPU)", pivot);
  const int r = x.dims.size();
  Dims b = batch_of(x.dims);
  *out = x;
  Dims p = b;
  p.push_back(std::min(x.dims[r - 2], x.dims[r - 1]));
  *pivots = {DType::kInt32, p};
  *infos = {DType::kInt32, b};
}

void qr_meta(std::string_view op, const TensorMeta& x, const std::string& mode, TensorMeta* q,
             TensorMeta* r) {
  check_matrix(op, "x", x);
  SKIFF_ENFORCE(mode == "reduced" || mode == "complete" || mode == "r", kInvalidArgument, op,
                "mode", "one of 'reduced', 'complete', 'r'", str("'", mode, "'"));
  const int rk = x.dims.size();
  const int64_t m = x.dims[rk - 2], n = x.dims[rk - 1], k = std::min(m, n);
  const Dims b = batch_of(x.dims);
  if (mode == "complete") {
    *q = {x.dtype, with_matrix(b, m, m)};
    *r = {x.dtype, with_matrix(b, m, n)};
    return;
  }
  *q = mode == "r" ? TensorMeta{x.dtype, Dims{0}} : TensorMeta{x.dtype, with_matrix(b, m, k)};
  *r = {x.dtype, with_matrix(b, k, n)};
}

void svd_meta(std::string_view op, const TensorMeta& x, bool full_matrices, TensorMeta* u,
              TensorMeta* s, TensorMeta* vh) {
  check_matrix(op, "x", x);
  const int rk = x.dims.size();
  const int64_t m = x.dims[rk - 2], n = x.dims[rk - 1], k = std::min(m, n);
  const Dims b = batch_of(x.dims);
  *u = {x.dtype, with_matrix(b, m, full_matrices ? m : k)};
  Dims sd = b;
  sd.push_back(k);
  *s = {x.dtype, sd};
  *vh = {x.dtype, with_matrix(b, full_matrices ? n : k, n)};
}

void eigh_meta(std::string_view op, const TensorMeta& x, const std::string& uplo,
               TensorMeta* eigenvalues, TensorMeta* eigenvectors) {
  check_square(op, "x", x);
  SKIFF_ENFORCE(uplo == "L" || uplo == "U", kInvalidArgument, op, "UPLO", "'L' or 'U'",
                str("'", uplo, "'"));
  *eigenvalues = {x.dtype, batch_of(x.dims, 1)};
  *eigenvectors = x;
}

void eig_meta(std::string_view op, const TensorMeta& x, TensorMeta* eigenvalues,
              TensorMeta* eigenvectors) {
  SKIFF_ENFORCE(x.dtype == DType::kFloat32 || x.dtype == DType::kFloat64 || is_complex(x.dtype),
                kTypeError, op, "x", "a float32, float64, complex64 or complex128 tensor", x.dtype);
  const int r = x.dims.size();
  SKIFF_ENFORCE(r >= 2, kInvalidArgument, op, "x", "a matrix or a batch of matrices (rank >= 2)",
                x.dims);
  SKIFF_ENFORCE(x.dims[r - 1] == x.dims[r - 2], kInvalidArgument, op, "x",
                "square matrices [*, N, N]", x.dims);
  *eigenvalues = {real_to_complex(x.dtype), batch_of(x.dims, 1)};
  *eigenvectors = {real_to_complex(x.dtype), x.dims};
}

void lstsq_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, float,
                const std::string& driver, TensorMeta* solution, TensorMeta* residuals,
                TensorMeta* rank, TensorMeta* singular_values) {
  check_matrix(op, "x", x);
  check_matrix(op, "y", y);
  check_same_dtype(op, "y", y, x.dtype);
  SKIFF_ENFORCE(driver == "gels" || driver == "gelsy" || driver == "gelsd" || driver == "gelss",
                kInvalidArgument, op, "driver", "one of 'gels', 'gelsy', 'gelsd', 'gelss'",
                str("'", driver, "'"));
  const int rx = x.dims.size(), ry = y.dims.size();
  SKIFF_ENFORCE(batch_of(x.dims) == batch_of(y.dims) && x.dims[rx - 2] == y.dims[ry - 2],
                kInvalidArgument, op, "y",
                str("[*, M, K] with x's batch dims and M (x ", x.dims, ")"), y.dims);
  const int64_t m = x.dims[rx - 2], n = x.dims[rx - 1], k = y.dims[ry - 1];
  const Dims b = batch_of(x.dims);
  *solution = {x.dtype, with_matrix(b, n, k)};
  Dims res = b;
  res.push_back(kDynamicDim);
  *residuals = {x.dtype, m > n ? res : Dims{0}};
  *rank = {DType::kInt32, driver == "gels" ? Dims{0} : b};
  Dims sv = b;
  sv.push_back(std::min(m, n));
  *singular_values = {x.dtype, driver == "gelsd" || driver == "gelss" ? sv : Dims{0}};
}

namespace {

// tau [*, K] with x's batch dims; returns K.
int64_t check_tau(std::string_view op, const TensorMeta& x, const TensorMeta& tau) {
  check_same_dtype(op, "tau", tau, x.dtype);
  SKIFF_ENFORCE(tau.dims.size() + 1 == x.dims.size() && batch_of(tau.dims, 1) == batch_of(x.dims),
                kInvalidArgument, op, "tau",
                str("shape [*, K] with the batch dims ", batch_of(x.dims), " of x"), tau.dims);
  return tau.dims[tau.dims.size() - 1];
}

}  // namespace

void householder_product_meta(std::string_view op, const TensorMeta& x, const TensorMeta& tau,
                              TensorMeta* out) {
  check_matrix(op, "x", x);
  const int r = x.dims.size();
  const int64_t m = x.dims[r - 2], n = x.dims[r - 1];
  SKIFF_ENFORCE(m >= n, kInvalidArgument, op, "x", "M >= N (x [*, M, N])", x.dims);
  const int64_t k = check_tau(op, x, tau);
  SKIFF_ENFORCE(k <= n, kInvalidArgument, op, "tau", str("K <= N = ", n, " (tau [*, K])"),
                tau.dims);
  *out = x;
}

void ormqr_meta(std::string_view op, const TensorMeta& x, const TensorMeta& tau,
                const TensorMeta& y, bool left, bool, TensorMeta* out) {
  check_matrix(op, "x", x);
  const int r = x.dims.size();
  const int64_t mn = x.dims[r - 2], cols = x.dims[r - 1];
  const int64_t k = check_tau(op, x, tau);
  SKIFF_ENFORCE(k <= std::min(mn, cols), kInvalidArgument, op, "tau",
                str("at most min(MN, K) = ", std::min(mn, cols), " reflectors"), tau.dims);
  check_same_dtype(op, "y", y, x.dtype);
  SKIFF_ENFORCE(y.dims.size() == x.dims.size() && batch_of(y.dims) == batch_of(x.dims),
                kInvalidArgument, op, "y",
                str("shape [*, M, N] with the batch dims ", batch_of(x.dims), " of x"), y.dims);
  const int64_t side = left ? y.dims[r - 2] : y.dims[r - 1];
  SKIFF_ENFORCE(side == mn, kInvalidArgument, op, "y",
                str(left ? "M = " : "N = ", mn, " (x's rows)"), y.dims);
  *out = y;
}

}  // namespace skiff::ops::meta
