// CPU kernels of the LAPACK ops (skiff/ops/yaml/lapack.yaml) through LAPACKE (Debian's
// OpenBLAS). Each matrix of a batch is copied into a column-major buffer (LAPACK overwrites its
// operands anyway), factored or solved there with the s/d routine for T, and copied back into the
// row-major output. Batches run one after another: OpenBLAS threads inside each call. Batch dims
// broadcast for the solves: an input's batch entry is found from the output's (batch_entry).
// LAPACK's failure reports (info > 0) become InvalidArgument errors that name the op, the
// argument and the batch entry; lu returns them in `infos` instead, as Paddle does.
// householder_product and ormqr hand geqrf-style reflectors to orgqr / ormqr. eig is the one
// op with complex inputs too (cgeev/zgeev).
#include "skiff/ops/generated/kernels/lapack.h"

#define LAPACK_COMPLEX_CPP
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <vector>

#include "skiff/ops/kernel.h"
#include "skiff/ops/meta/lapack_meta.h"

namespace skiff::ops {

namespace {

// The s/d LAPACKE routine for T, column-major.
template <typename T>
struct Lapack;

#define SKIFF_LAPACK_ROUTINES(T, p)                                                                \
  template <>                                                                                      \
  struct Lapack<T> {                                                                               \
    static lapack_int getrf(lapack_int m, lapack_int n, T* a, lapack_int* ipiv) {                  \
      return LAPACKE_##p##getrf(LAPACK_COL_MAJOR, m, n, a, m, ipiv);                               \
    }                                                                                              \
    static lapack_int getri(lapack_int n, T* a, const lapack_int* ipiv) {                          \
      return LAPACKE_##p##getri(LAPACK_COL_MAJOR, n, a, n, ipiv);                                  \
    }                                                                                              \
    static lapack_int getrs(lapack_int n, lapack_int k, const T* a, const lapack_int* ipiv,        \
                            T* b) {                                                                \
      return LAPACKE_##p##getrs(LAPACK_COL_MAJOR, 'N', n, k, a, n, ipiv, b, n);                    \
    }                                                                                              \
    static lapack_int trtrs(char uplo, char trans, char diag, lapack_int n, lapack_int k,          \
                            const T* a, T* b) {                                                    \
      return LAPACKE_##p##trtrs(LAPACK_COL_MAJOR, uplo, trans, diag, n, k, a, n, b, n);            \
    }                                                                                              \
    static lapack_int potrf(char uplo, lapack_int n, T* a) {                                       \
      return LAPACKE_##p##potrf(LAPACK_COL_MAJOR, uplo, n, a, n);                                  \
    }                                                                                              \
    static lapack_int potrs(char uplo, lapack_int n, lapack_int k, const T* a, T* b) {             \
      return LAPACKE_##p##potrs(LAPACK_COL_MAJOR, uplo, n, k, a, n, b, n);                         \
    }                                                                                              \
    static lapack_int geqrf(lapack_int m, lapack_int n, T* a, T* tau) {                            \
      return LAPACKE_##p##geqrf(LAPACK_COL_MAJOR, m, n, a, m, tau);                                \
    }                                                                                              \
    static lapack_int orgqr(lapack_int m, lapack_int n, lapack_int k, T* a, const T* tau) {        \
      return LAPACKE_##p##orgqr(LAPACK_COL_MAJOR, m, n, k, a, m, tau);                             \
    }                                                                                              \
    static lapack_int ormqr(char side, char trans, lapack_int m, lapack_int n, lapack_int k,       \
                            const T* a, lapack_int lda, const T* tau, T* c) {                      \
      return LAPACKE_##p##ormqr(LAPACK_COL_MAJOR, side, trans, m, n, k, a, lda, tau, c, m);        \
    }                                                                                              \
    static lapack_int gesdd(char jobz, lapack_int m, lapack_int n, T* a, T* s, T* u,               \
                            lapack_int ldu, T* vt, lapack_int ldvt) {                              \
      return LAPACKE_##p##gesdd(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, ldu, vt, ldvt);          \
    }                                                                                              \
    static lapack_int syevd(char uplo, lapack_int n, T* a, T* w) {                                 \
      return LAPACKE_##p##syevd(LAPACK_COL_MAJOR, 'V', uplo, n, a, n, w);                          \
    }                                                                                              \
    static lapack_int geev(lapack_int n, T* a, T* wr, T* wi, T* vr) {                              \
      return LAPACKE_##p##geev(LAPACK_COL_MAJOR, 'N', 'V', n, a, n, wr, wi, nullptr, n, vr, n);    \
    }                                                                                              \
    static lapack_int gels(lapack_int m, lapack_int n, lapack_int k, T* a, T* b, lapack_int ldb) { \
      return LAPACKE_##p##gels(LAPACK_COL_MAJOR, 'N', m, n, k, a, m, b, ldb);                      \
    }                                                                                              \
    static lapack_int gelsy(lapack_int m, lapack_int n, lapack_int k, T* a, T* b, lapack_int ldb,  \
                            lapack_int* jpvt, T rcond, lapack_int* rank) {                         \
      return LAPACKE_##p##gelsy(LAPACK_COL_MAJOR, m, n, k, a, m, b, ldb, jpvt, rcond, rank);       \
    }                                                                                              \
    static lapack_int gelsd(lapack_int m, lapack_int n, lapack_int k, T* a, T* b, lapack_int ldb,  \
                            T* s, T rcond, lapack_int* rank) {                                     \
      return LAPACKE_##p##gelsd(LAPACK_COL_MAJOR, m, n, k, a, m, b, ldb, s, rcond, rank);          \
    }                                                                                              \
    static lapack_int gelss(lapack_int m, lapack_int n, lapack_int k, T* a, T* b, lapack_int ldb,  \
                            T* s, T rcond, lapack_int* rank) {                                     \
      return LAPACKE_##p##gelss(LAPACK_COL_MAJOR, m, n, k, a, m, b, ldb, s, rcond, rank);          \
    }                                                                                              \
  };
SKIFF_LAPACK_ROUTINES(float, s)
SKIFF_LAPACK_ROUTINES(double, d)
#undef SKIFF_LAPACK_ROUTINES

int64_t rows_of(const DenseTensor& t) { return t.dim(t.rank() - 2); }
int64_t cols_of(const DenseTensor& t) { return t.dim(t.rank() - 1); }

// Dims before the last `matrix_rank` dims.
Dims batch_dims(const Dims& d, int matrix_rank = 2) {
  Dims b;
  for (int i = 0; i + matrix_rank < d.size(); ++i) b.push_back(d[i]);
  return b;
}

// The entry of batch `in` (numpy-broadcast against `out`) that out's flat entry `flat` reads.
int64_t batch_entry(const Dims& out, const Dims& in, int64_t flat) {
  int64_t idx = 0, stride = 1;
  for (int d = out.size() - 1, e = in.size() - 1; d >= 0; --d, --e) {
    const int64_t coord = flat % out[d];
    flat /= out[d];
    if (e < 0) continue;
    if (in[e] != 1) idx += coord * stride;
    stride *= in[e];
  }
  return idx;
}

// Row-major rows x cols at `src` -> column-major with leading dim ld at `dst`.
template <typename T>
void to_col_major(const T* src, int64_t rows, int64_t cols, T* dst, int64_t ld) {
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) dst[i + j * ld] = src[i * cols + j];
  }
}

template <typename T>
void from_col_major(const T* src, int64_t ld, int64_t rows, int64_t cols, T* dst) {
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) dst[i * cols + j] = src[i + j * ld];
  }
}

lapack_int as_lapack(int64_t v) { return static_cast<lapack_int>(v); }

[[noreturn]] void throw_singular(const char* op, const char* arg, int64_t batch, lapack_int info) {
  SKIFF_THROW(kInvalidArgument, op, arg, "a non-singular (invertible) matrix",
              str("a singular matrix at batch entry ", batch, " (U[", info - 1, "][", info - 1,
                  "] of its LU factorization is zero)"));
}

}  // namespace

template <typename T>
void inverse_cpu(const KernelContext& c, const InverseArgs& a) {
  // The row-major buffer is x^T in column-major, and inv(x^T) = inv(x)^T: no transposes needed.
  const DenseTensor x = a.x.contiguous();
  const int64_t n = rows_of(x), mats = n ? x.numel() / (n * n) : 0;
  const T* px = static_cast<const T*>(x.raw_data());
  T* po = static_cast<T*>(a.out->raw_data());
  std::vector<lapack_int> ipiv(n);
  for (int64_t b = 0; b < mats; ++b) {
    T* m = po + b * n * n;
    std::copy(px + b * n * n, px + (b + 1) * n * n, m);
    const lapack_int info = Lapack<T>::getrf(as_lapack(n), as_lapack(n), m, ipiv.data());
    if (info > 0) throw_singular(c.op, "x", b, info);
    Lapack<T>::getri(as_lapack(n), m, ipiv.data());
  }
}
SKIFF_INSTANTIATE_KERNEL(inverse, cpu)

namespace {

// log|det| and the sign of det of each matrix of x (LU of the transposed buffer: same det).
template <typename T>
void log_abs_det(const DenseTensor& xin, std::vector<double>* sign, std::vector<double>* logabs) {
  const DenseTensor x = xin.contiguous();
  const int64_t n = rows_of(x), mats = batch_dims(x.dims()).numel();
  const T* px = static_cast<const T*>(x.raw_data());
  std::vector<T> m(n * n);
  std::vector<lapack_int> ipiv(n);
  sign->assign(mats, 1.0);
  logabs->assign(mats, 0.0);
  for (int64_t b = 0; b < mats && n > 0; ++b) {
    std::copy(px + b * n * n, px + (b + 1) * n * n, m.begin());
    Lapack<T>::getrf(as_lapack(n), as_lapack(n), m.data(), ipiv.data());
    double s = 1.0, l = 0.0;
    for (int64_t i = 0; i < n; ++i) {
      const double d = m[i + i * n];
      if (ipiv[i] != i + 1) s = -s;
      if (d < 0) s = -s;
      l += std::log(std::abs(d));
    }
    if (std::isinf(l) && l < 0) s = 0.0;
    (*sign)[b] = s;
    (*logabs)[b] = l;
  }
}

}  // namespace

template <typename T>
void det_cpu(const KernelContext&, const DetArgs& a) {
  std::vector<double> sign, logabs;
  log_abs_det<T>(a.x, &sign, &logabs);
  T* po = static_cast<T*>(a.out->raw_data());
  for (size_t b = 0; b < sign.size(); ++b) po[b] = static_cast<T>(sign[b] * std::exp(logabs[b]));
}
SKIFF_INSTANTIATE_KERNEL(det, cpu)

template <typename T>
void slogdet_cpu(const KernelContext&, const SlogdetArgs& a) {
  std::vector<double> sign, logabs;
  log_abs_det<T>(a.x, &sign, &logabs);
  T* po = static_cast<T*>(a.out->raw_data());
  const size_t mats = sign.size();
  for (size_t b = 0; b < mats; ++b) {
    po[b] = static_cast<T>(sign[b]);
    po[mats + b] = static_cast<T>(logabs[b]);
  }
}
SKIFF_INSTANTIATE_KERNEL(slogdet, cpu)

namespace {

// Shared loop of the solves: for each output batch entry, the column-major square matrix of
// `x` (a) and the right-hand side of `y` (b, rows x k) are handed to `solve`, which overwrites b.
// `vector` reads y as [*, M] vectors (solve's vector case).
template <typename T, typename F>
void solve_loop(const DenseTensor& xin, const DenseTensor& yin, DenseTensor* out, bool vector,
                F&& solve) {
  const DenseTensor x = xin.contiguous(), y = yin.contiguous();
  const int64_t n = rows_of(x);
  const int64_t k = vector ? 1 : cols_of(y);
  const Dims xb = batch_dims(x.dims()), yb = batch_dims(y.dims(), vector ? 1 : 2);
  const Dims ob = batch_dims(out->dims(), vector ? 1 : 2);
  const int64_t mats = ob.numel();
  const T* px = static_cast<const T*>(x.raw_data());
  const T* py = static_cast<const T*>(y.raw_data());
  T* po = static_cast<T*>(out->raw_data());
  std::vector<T> am(n * n), bm(n * k);
  for (int64_t b = 0; b < mats && n > 0 && k > 0; ++b) {
    to_col_major(px + batch_entry(ob, xb, b) * n * n, n, n, am.data(), n);
    to_col_major(py + batch_entry(ob, yb, b) * n * k, n, k, bm.data(), n);
    solve(b, am.data(), bm.data(), n, k);
    from_col_major(bm.data(), n, n, k, po + b * n * k);
  }
}

}  // namespace

template <typename T>
void solve_cpu(const KernelContext& c, const SolveArgs& a) {
  const bool vector = meta::solve_rhs_is_vector(a.x.dims(), a.y.dims());
  std::vector<lapack_int> ipiv(rows_of(a.x));
  solve_loop<T>(a.x, a.y, a.out, vector, [&](int64_t b, T* am, T* bm, int64_t n, int64_t k) {
    const lapack_int info = Lapack<T>::getrf(as_lapack(n), as_lapack(n), am, ipiv.data());
    if (info > 0) throw_singular(c.op, "x", b, info);
    Lapack<T>::getrs(as_lapack(n), as_lapack(k), am, ipiv.data(), bm);
  });
}
SKIFF_INSTANTIATE_KERNEL(solve, cpu)

template <typename T>
void triangular_solve_cpu(const KernelContext& c, const TriangularSolveArgs& a) {
  const char uplo = a.upper ? 'U' : 'L', trans = a.transpose ? 'T' : 'N';
  const char diag = a.unitriangular ? 'U' : 'N';
  solve_loop<T>(a.x, a.y, a.out, false, [&](int64_t b, T* am, T* bm, int64_t n, int64_t k) {
    const lapack_int info = Lapack<T>::trtrs(uplo, trans, diag, as_lapack(n), as_lapack(k), am, bm);
    SKIFF_ENFORCE(
        info <= 0, kInvalidArgument, c.op, "x", "a non-singular triangular matrix",
        str("a zero on the diagonal (x[", info - 1, "][", info - 1, "]) at batch entry ", b));
  });
}
SKIFF_INSTANTIATE_KERNEL(triangular_solve, cpu)

template <typename T>
void cholesky_solve_cpu(const KernelContext&, const CholeskySolveArgs& a) {
  const char uplo = a.upper ? 'U' : 'L';
  solve_loop<T>(a.y, a.x, a.out, false, [&](int64_t, T* am, T* bm, int64_t n, int64_t k) {
    Lapack<T>::potrs(uplo, as_lapack(n), as_lapack(k), am, bm);
  });
}
SKIFF_INSTANTIATE_KERNEL(cholesky_solve, cpu)

template <typename T>
void cholesky_cpu(const KernelContext& c, const CholeskyArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t n = rows_of(x), mats = n ? x.numel() / (n * n) : 0;
  const T* px = static_cast<const T*>(x.raw_data());
  T* po = static_cast<T*>(a.out->raw_data());
  std::vector<T> m(n * n);
  for (int64_t b = 0; b < mats; ++b) {
    to_col_major(px + b * n * n, n, n, m.data(), n);
    const lapack_int info = Lapack<T>::potrf(a.upper ? 'U' : 'L', as_lapack(n), m.data());
    SKIFF_ENFORCE(
        info <= 0, kInvalidArgument, c.op, "x", "a symmetric positive-definite matrix",
        str("a matrix whose leading minor of order ", info, " is not positive at batch entry ", b));
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const bool keep = a.upper ? j >= i : j <= i;
        po[b * n * n + i * n + j] = keep ? m[i + j * n] : T(0);
      }
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(cholesky, cpu)

template <typename T>
void lu_cpu(const KernelContext&, const LuArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = std::min(m, n);
  const int64_t mats = batch_dims(x.dims()).numel();
  const T* px = static_cast<const T*>(x.raw_data());
  T* po = static_cast<T*>(a.out->raw_data());
  int32_t* pp = static_cast<int32_t*>(a.pivots->raw_data());
  int32_t* pi = static_cast<int32_t*>(a.infos->raw_data());
  std::vector<T> buf(m * n);
  std::vector<lapack_int> ipiv(k);
  for (int64_t b = 0; b < mats; ++b) {
    lapack_int info = 0;
    if (k > 0) {
      to_col_major(px + b * m * n, m, n, buf.data(), m);
      info = Lapack<T>::getrf(as_lapack(m), as_lapack(n), buf.data(), ipiv.data());
      from_col_major(buf.data(), m, m, n, po + b * m * n);
    }
    for (int64_t i = 0; i < k; ++i) pp[b * k + i] = static_cast<int32_t>(ipiv[i]);
    pi[b] = static_cast<int32_t>(info);
  }
}
SKIFF_INSTANTIATE_KERNEL(lu, cpu)

template <typename T>
void qr_cpu(const KernelContext&, const QrArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = std::min(m, n);
  const int64_t mats = batch_dims(x.dims()).numel();
  const bool complete = a.mode == "complete", want_q = a.mode != "r";
  const int64_t qcols = complete ? m : k, rrows = complete ? m : k;
  const T* px = static_cast<const T*>(x.raw_data());
  T* pq = want_q ? static_cast<T*>(a.q->raw_data()) : nullptr;
  T* pr = static_cast<T*>(a.r->raw_data());
  std::vector<T> buf(m * n), tau(k), qbuf(m * qcols);
  for (int64_t b = 0; b < mats; ++b) {
    T* r = pr + b * rrows * n;
    std::fill(r, r + rrows * n, T(0));
    if (k == 0) {
      if (want_q) {  // an empty factorization: Q is the identity's leading columns
        T* q = pq + b * m * qcols;
        std::fill(q, q + m * qcols, T(0));
        for (int64_t i = 0; i < std::min(m, qcols); ++i) q[i * qcols + i] = T(1);
      }
      continue;
    }
    to_col_major(px + b * m * n, m, n, buf.data(), m);
    Lapack<T>::geqrf(as_lapack(m), as_lapack(n), buf.data(), tau.data());
    for (int64_t i = 0; i < rrows; ++i) {
      for (int64_t j = i; j < n; ++j) r[i * n + j] = buf[i + j * m];
    }
    if (!want_q) continue;
    std::fill(qbuf.begin(), qbuf.end(), T(0));
    std::copy(buf.begin(), buf.begin() + m * k, qbuf.begin());
    Lapack<T>::orgqr(as_lapack(m), as_lapack(qcols), as_lapack(k), qbuf.data(), tau.data());
    from_col_major(qbuf.data(), m, m, qcols, pq + b * m * qcols);
  }
}
SKIFF_INSTANTIATE_KERNEL(qr, cpu)

template <typename T>
void svd_cpu(const KernelContext& c, const SvdArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = std::min(m, n);
  const int64_t ucols = a.full_matrices ? m : k, vrows = a.full_matrices ? n : k;
  const int64_t mats = batch_dims(x.dims()).numel();
  const T* px = static_cast<const T*>(x.raw_data());
  T* pu = static_cast<T*>(a.u->raw_data());
  T* ps = static_cast<T*>(a.s->raw_data());
  T* pv = static_cast<T*>(a.vh->raw_data());
  std::vector<T> buf(m * n), u(m * ucols), vt(vrows * n);
  for (int64_t b = 0; b < mats && k > 0; ++b) {
    to_col_major(px + b * m * n, m, n, buf.data(), m);
    const lapack_int info =
        Lapack<T>::gesdd(a.full_matrices ? 'A' : 'S', as_lapack(m), as_lapack(n), buf.data(),
                         ps + b * k, u.data(), as_lapack(m), vt.data(), as_lapack(vrows));
    SKIFF_ENFORCE(info <= 0, kInvalidArgument, c.op, "x", "a matrix whose SVD converges",
                  str("no convergence at batch entry ", b, " (finite values?)"));
    from_col_major(u.data(), m, m, ucols, pu + b * m * ucols);
    from_col_major(vt.data(), vrows, vrows, n, pv + b * vrows * n);
  }
}
SKIFF_INSTANTIATE_KERNEL(svd, cpu)

template <typename T>
void eigh_cpu(const KernelContext& c, const EighArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t n = rows_of(x), mats = batch_dims(x.dims()).numel();
  const T* px = static_cast<const T*>(x.raw_data());
  T* pw = static_cast<T*>(a.eigenvalues->raw_data());
  T* pv = static_cast<T*>(a.eigenvectors->raw_data());
  std::vector<T> buf(n * n);
  for (int64_t b = 0; b < mats && n > 0; ++b) {
    to_col_major(px + b * n * n, n, n, buf.data(), n);
    const lapack_int info = Lapack<T>::syevd(a.uplo[0], as_lapack(n), buf.data(), pw + b * n);
    SKIFF_ENFORCE(info <= 0, kInvalidArgument, c.op, "x",
                  "a symmetric matrix whose eigendecomposition converges",
                  str("no convergence at batch entry ", b, " (finite values?)"));
    from_col_major(buf.data(), n, n, n, pv + b * n * n);
  }
}
SKIFF_INSTANTIATE_KERNEL(eigh, cpu)

namespace {

// geev of a complex matrix: eigenvalues w and unit right eigenvectors vr, column-major.
// OpenBLAS's lapacke.h types complex arguments as C99 _Complex (layout-compatible with
// std::complex, which it ignores LAPACK_COMPLEX_CPP for).
lapack_int complex_geev(lapack_int n, complex64* a, complex64* w, complex64* vr) {
  using Z = lapack_complex_float;
  return LAPACKE_cgeev(LAPACK_COL_MAJOR, 'N', 'V', n, reinterpret_cast<Z*>(a), n,
                       reinterpret_cast<Z*>(w), nullptr, n, reinterpret_cast<Z*>(vr), n);
}
lapack_int complex_geev(lapack_int n, complex128* a, complex128* w, complex128* vr) {
  using Z = lapack_complex_double;
  return LAPACKE_zgeev(LAPACK_COL_MAJOR, 'N', 'V', n, reinterpret_cast<Z*>(a), n,
                       reinterpret_cast<Z*>(w), nullptr, n, reinterpret_cast<Z*>(vr), n);
}

template <typename T>
bool all_finite(const T* p, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if constexpr (is_complex_v<T>) {
      if (!std::isfinite(p[i].real()) || !std::isfinite(p[i].imag())) return false;
    } else if (!std::isfinite(p[i])) {
      return false;
    }
  }
  return true;
}

}  // namespace

// Real x: geev returns a complex pair w, conj(w) (wi > 0 first) as the real columns re, im of
// vr, whose vectors are re + i im and re - i im. Complex x: cgeev/zgeev give both directly.
// LAPACK scales each vector to unit norm with its largest component real (numpy's and
// Paddle's convention). Non-finite input is refused first: LAPACKE's NaN check would only
// return an argument error (info < 0), and infinities come out as NaN results.
template <typename T>
void eig_cpu(const KernelContext& c, const EigArgs& a) {
  using C = std::conditional_t<is_complex_v<T>, T, std::complex<T>>;
  const DenseTensor x = a.x.contiguous();
  const int64_t n = rows_of(x), mats = batch_dims(x.dims()).numel();
  const T* px = static_cast<const T*>(x.raw_data());
  C* pw = static_cast<C*>(a.eigenvalues->raw_data());
  C* pv = static_cast<C*>(a.eigenvectors->raw_data());
  std::vector<T> buf(n * n), vr(n * n), wr(n), wi(n);
  for (int64_t b = 0; b < mats && n > 0; ++b) {
    SKIFF_ENFORCE(all_finite(px + b * n * n, n * n), kInvalidArgument, c.op, "x",
                  "finite values (no inf or nan)", str("a non-finite value at batch entry ", b));
    to_col_major(px + b * n * n, n, n, buf.data(), n);
    C* w = pw + b * n;
    C* v = pv + b * n * n;  // row-major [n, n], eigenvectors as columns
    lapack_int info = 0;
    if constexpr (is_complex_v<T>) {
      info = complex_geev(as_lapack(n), buf.data(), w, vr.data());
    } else {
      info = Lapack<T>::geev(as_lapack(n), buf.data(), wr.data(), wi.data(), vr.data());
    }
    SKIFF_ENFORCE(info == 0, kInvalidArgument, c.op, "x",
                  "a matrix whose eigendecomposition converges",
                  str("no convergence at batch entry ", b, " (LAPACK info ", info, ")"));
    if constexpr (is_complex_v<T>) {
      from_col_major(vr.data(), n, n, n, v);
    } else {
      for (int64_t j = 0; j < n; ++j) {
        w[j] = C(wr[j], wi[j]);
        const bool pair = wi[j] != T(0);
        const int64_t re = pair && wi[j] < T(0) ? j - 1 : j;  // the pair's first column
        const T sign = pair && wi[j] < T(0) ? T(-1) : T(1);
        for (int64_t i = 0; i < n; ++i) {
          const T imag = pair ? sign * vr[i + (re + 1) * n] : T(0);
          v[i * n + j] = C(vr[i + re * n], imag);
        }
      }
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(eig, cpu)

template <typename T>
void lstsq_cpu(const KernelContext& c, const LstsqArgs& a) {
  const DenseTensor x = a.x.contiguous(), y = a.y.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = cols_of(y);
  const int64_t ld = std::max<int64_t>({m, n, 1});
  const Dims batch = batch_dims(x.dims());
  const int64_t mats = batch.numel(), kmin = std::min(m, n);
  const std::string& driver = a.driver;
  const T rcond = a.rcond > 0 ? static_cast<T>(a.rcond) : T(-1);
  const T* px = static_cast<const T*>(x.raw_data());
  const T* py = static_cast<const T*>(y.raw_data());
  T* psol = static_cast<T*>(a.solution->raw_data());
  const bool with_rank = driver != "gels", with_sv = driver == "gelsd" || driver == "gelss";
  int32_t* prank = with_rank ? static_cast<int32_t*>(a.rank->raw_data()) : nullptr;
  T* psv = with_sv ? static_cast<T*>(a.singular_values->raw_data()) : nullptr;
  std::vector<T> am(m * n), bm(ld * k), sv(kmin);
  std::vector<lapack_int> jpvt(n);
  std::vector<double> residuals(mats * k, 0.0);
  bool all_full_rank = true;
  for (int64_t b = 0; b < mats; ++b) {
    std::fill(bm.begin(), bm.end(), T(0));
    to_col_major(px + b * m * n, m, n, am.data(), m);
    to_col_major(py + b * m * k, m, k, bm.data(), ld);
    lapack_int rank = as_lapack(kmin), info = 0;
    if (kmin > 0 && k > 0) {
      if (driver == "gels") {
        info = Lapack<T>::gels(as_lapack(m), as_lapack(n), as_lapack(k), am.data(), bm.data(),
                               as_lapack(ld));
        SKIFF_ENFORCE(info <= 0, kInvalidArgument, c.op, "x",
                      "a full-rank matrix for driver 'gels'",
                      str("a rank-deficient matrix at batch entry ", b));
      } else if (driver == "gelsy") {
        std::fill(jpvt.begin(), jpvt.end(), 0);
        info = Lapack<T>::gelsy(as_lapack(m), as_lapack(n), as_lapack(k), am.data(), bm.data(),
                                as_lapack(ld), jpvt.data(), rcond, &rank);
      } else {
        info = (driver == "gelsd" ? Lapack<T>::gelsd : Lapack<T>::gelss)(
            as_lapack(m), as_lapack(n), as_lapack(k), am.data(), bm.data(), as_lapack(ld),
            sv.data(), rcond, &rank);
        SKIFF_ENFORCE(info <= 0, kInvalidArgument, c.op, "x", "a matrix whose SVD converges",
                      str("no convergence at batch entry ", b, " (finite values?)"));
      }
    }
    from_col_major(bm.data(), ld, n, k, psol + b * n * k);
    if (with_rank) prank[b] = static_cast<int32_t>(rank);
    if (with_sv) std::copy(sv.begin(), sv.end(), psv + b * kmin);
    all_full_rank = all_full_rank && rank == n;
    // Squared residuals |x sol - y|^2 per column, from the inputs (every driver alike).
    const T* xb = px + b * m * n;
    const T* sol = psol + b * n * k;
    for (int64_t j = 0; j < k; ++j) {
      double acc = 0.0;
      for (int64_t i = 0; i < m; ++i) {
        double r = -static_cast<double>(py[b * m * k + i * k + j]);
        for (int64_t p = 0; p < n; ++p) r += double(xb[i * n + p]) * double(sol[p * k + j]);
        acc += r * r;
      }
      residuals[b * k + j] = acc;
    }
  }
  if (m <= n) return;  // residuals were allocated as [0]
  Dims rd = Dims{0};
  if (all_full_rank) {
    rd = batch;
    rd.push_back(k);
  }
  *a.residuals = DenseTensor::empty(rd, x.dtype(), c.place);
  T* pres = static_cast<T*>(a.residuals->raw_data());
  if (all_full_rank) {
    for (size_t i = 0; i < residuals.size(); ++i) pres[i] = static_cast<T>(residuals[i]);
  }
}
SKIFF_INSTANTIATE_KERNEL(lstsq, cpu)

template <typename T>
void householder_product_cpu(const KernelContext&, const HouseholderProductArgs& a) {
  const DenseTensor x = a.x.contiguous(), tau = a.tau.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = tau.dim(tau.rank() - 1);
  const int64_t mats = batch_dims(x.dims()).numel();
  if (m == 0 || n == 0) return;
  const T* px = static_cast<const T*>(x.raw_data());
  const T* pt = static_cast<const T*>(tau.raw_data());
  T* po = static_cast<T*>(a.out->raw_data());
  std::vector<T> buf(m * n);
  for (int64_t b = 0; b < mats; ++b) {
    to_col_major(px + b * m * n, m, n, buf.data(), m);
    Lapack<T>::orgqr(as_lapack(m), as_lapack(n), as_lapack(k), buf.data(), pt + b * k);
    from_col_major(buf.data(), m, m, n, po + b * m * n);
  }
}
SKIFF_INSTANTIATE_KERNEL(householder_product, cpu)

template <typename T>
void ormqr_cpu(const KernelContext&, const OrmqrArgs& a) {
  const DenseTensor x = a.x.contiguous(), tau = a.tau.contiguous(), y = a.y.contiguous();
  const int64_t mn = rows_of(x), xc = cols_of(x), k = tau.dim(tau.rank() - 1);
  const int64_t m = rows_of(y), n = cols_of(y);
  const int64_t mats = batch_dims(y.dims()).numel();
  if (m == 0 || n == 0) return;
  const T* px = static_cast<const T*>(x.raw_data());
  const T* pt = static_cast<const T*>(tau.raw_data());
  const T* py = static_cast<const T*>(y.raw_data());
  T* po = static_cast<T*>(a.out->raw_data());
  std::vector<T> ab(std::max<int64_t>(mn * xc, 1)), cb(m * n);
  for (int64_t b = 0; b < mats; ++b) {
    to_col_major(px + b * mn * xc, mn, xc, ab.data(), std::max<int64_t>(mn, 1));
    to_col_major(py + b * m * n, m, n, cb.data(), m);
    Lapack<T>::ormqr(a.left ? 'L' : 'R', a.transpose ? 'T' : 'N', as_lapack(m), as_lapack(n),
                     as_lapack(k), ab.data(), as_lapack(std::max<int64_t>(mn, 1)), pt + b * k,
                     cb.data());
    from_col_major(cb.data(), m, m, n, po + b * m * n);
  }
}
SKIFF_INSTANTIATE_KERNEL(ormqr, cpu)

}  // namespace skiff::ops
