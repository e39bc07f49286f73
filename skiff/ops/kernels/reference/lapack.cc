// Reference kernels of the LAPACK ops: textbook float64 algorithms written for clarity, the
// oracles the CPU kernels (LAPACKE) are checked against. Gauss-Jordan (inverse), Doolittle with
// partial pivoting (lu, det, slogdet, solve), substitution (triangular solves), Cholesky-
// Banachiewicz, Householder QR with LAPACK's sign convention (R's diagonal is -sign(a_jj) |col|),
// cyclic Jacobi (eigh eigenvalues) and one-sided Jacobi (singular values), and the normal
// equations (lstsq of full-rank matrices), and Householder reflections applied one by one
// (householder_product, ormqr). Eigenvectors and singular vectors are only defined up
// to sign, so the op database compares only the values of eigh and svd.
#include "skiff/ops/generated/kernels/lapack.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "skiff/ops/kernel.h"
#include "skiff/ops/meta/lapack_meta.h"

namespace skiff::ops {

namespace {

using Mat = std::vector<double>;  // row-major

int64_t rows_of(const DenseTensor& t) { return t.dim(t.rank() - 2); }
int64_t cols_of(const DenseTensor& t) { return t.dim(t.rank() - 1); }

Dims batch_dims(const Dims& d, int matrix_rank = 2) {
  Dims b;
  for (int i = 0; i + matrix_rank < d.size(); ++i) b.push_back(d[i]);
  return b;
}

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

// Matrix `b` (rows x cols) of contiguous t.
template <typename T>
Mat load(const DenseTensor& t, int64_t b, int64_t rows, int64_t cols) {
  const T* p = static_cast<const T*>(t.raw_data()) + b * rows * cols;
  return Mat(p, p + rows * cols);
}

template <typename T>
void store(const Mat& m, DenseTensor* t, int64_t b) {
  T* p = static_cast<T*>(t->raw_data()) + b * static_cast<int64_t>(m.size());
  for (size_t i = 0; i < m.size(); ++i) p[i] = static_cast<T>(m[i]);
}

// Doolittle LU with partial pivoting in place (rows x cols); 1-based pivots; LAPACK's info.
int lu_inplace(Mat& a, int64_t m, int64_t n, std::vector<int>* piv) {
  const int64_t k = std::min(m, n);
  int info = 0;
  piv->assign(k, 0);
  for (int64_t j = 0; j < k; ++j) {
    int64_t p = j;
    for (int64_t i = j + 1; i < m; ++i) {
      if (std::abs(a[i * n + j]) > std::abs(a[p * n + j])) p = i;
    }
    (*piv)[j] = static_cast<int>(p + 1);
    if (p != j) {
      for (int64_t c = 0; c < n; ++c) std::swap(a[j * n + c], a[p * n + c]);
    }
    const double d = a[j * n + j];
    if (d == 0.0) {
      if (info == 0) info = static_cast<int>(j + 1);
      continue;
    }
    for (int64_t i = j + 1; i < m; ++i) {
      a[i * n + j] /= d;
      for (int64_t c = j + 1; c < n; ++c) a[i * n + c] -= a[i * n + j] * a[j * n + c];
    }
  }
  return info;
}

// Solves the packed LU (n x n, pivots) for the rhs b (n x k) in place.
void lu_solve(const Mat& lu, const std::vector<int>& piv, int64_t n, Mat& b, int64_t k) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t p = piv[i] - 1;
    if (p != i) {
      for (int64_t c = 0; c < k; ++c) std::swap(b[i * k + c], b[p * k + c]);
    }
  }
  for (int64_t c = 0; c < k; ++c) {
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < i; ++j) b[i * k + c] -= lu[i * n + j] * b[j * k + c];
    }
    for (int64_t i = n - 1; i >= 0; --i) {
      for (int64_t j = i + 1; j < n; ++j) b[i * k + c] -= lu[i * n + j] * b[j * k + c];
      b[i * k + c] /= lu[i * n + i];
    }
  }
}

// op(A) X = B for the triangle of A (n x n) named by upper; op = transpose or not.
void tri_solve(const Mat& a, int64_t n, bool upper, bool transpose, bool unit, Mat& b, int64_t k) {
  auto at = [&](int64_t i, int64_t j) { return transpose ? a[j * n + i] : a[i * n + j]; };
  const bool up = upper != transpose;  // the triangle op(A) has
  for (int64_t c = 0; c < k; ++c) {
    for (int64_t s = 0; s < n; ++s) {
      const int64_t i = up ? n - 1 - s : s;
      double v = b[i * k + c];
      for (int64_t j = 0; j < n; ++j) {
        if ((up && j > i) || (!up && j < i)) v -= at(i, j) * b[j * k + c];
      }
      b[i * k + c] = unit ? v : v / at(i, i);
    }
  }
}

// Lower Cholesky factor of the lower triangle of a (n x n); false if not positive definite.
bool cholesky_lower(const Mat& a, int64_t n, Mat* l) {
  l->assign(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j <= i; ++j) {
      double s = a[i * n + j];
      for (int64_t p = 0; p < j; ++p) s -= (*l)[i * n + p] * (*l)[j * n + p];
      if (i == j) {
        if (s <= 0.0) return false;
        (*l)[i * n + i] = std::sqrt(s);
      } else {
        (*l)[i * n + j] = s / (*l)[j * n + j];
      }
    }
  }
  return true;
}

Mat transposed(const Mat& a, int64_t rows, int64_t cols) {
  Mat t(a.size());
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = a[i * cols + j];
  }
  return t;
}

// Singular values (descending) by one-sided Jacobi on the columns of a (rows >= cols).
std::vector<double> singular_values(Mat a, int64_t m, int64_t n) {
  if (m < n) {
    a = transposed(a, m, n);
    std::swap(m, n);
  }
  for (int sweep = 0; sweep < 100; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        double alpha = 0, beta = 0, gamma = 0;
        for (int64_t i = 0; i < m; ++i) {
          alpha += a[i * n + p] * a[i * n + p];
          beta += a[i * n + q] * a[i * n + q];
          gamma += a[i * n + p] * a[i * n + q];
        }
        if (std::abs(gamma) <= 1e-15 * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t), s = c * t;
        for (int64_t i = 0; i < m; ++i) {
          const double ap = a[i * n + p], aq = a[i * n + q];
          a[i * n + p] = c * ap - s * aq;
          a[i * n + q] = s * ap + c * aq;
        }
      }
    }
    if (!rotated) break;
  }
  std::vector<double> s(n);
  for (int64_t j = 0; j < n; ++j) {
    double acc = 0;
    for (int64_t i = 0; i < m; ++i) acc += a[i * n + j] * a[i * n + j];
    s[j] = std::sqrt(acc);
  }
  std::sort(s.begin(), s.end(), std::greater<>());
  return s;
}

// Eigenvalues (ascending) of the symmetric a (n x n) by cyclic Jacobi rotations.
std::vector<double> symmetric_eigenvalues(Mat a, int64_t n) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) off += i == j ? 0 : a[i * n + j] * a[i * n + j];
    }
    if (off < 1e-30) break;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        if (a[p * n + q] == 0.0) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * a[p * n + q]);
        const double t =
            (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int64_t k = 0; k < n; ++k) {  // columns p, q
          const double kp = a[k * n + p], kq = a[k * n + q];
          a[k * n + p] = c * kp - s * kq;
          a[k * n + q] = s * kp + c * kq;
        }
        for (int64_t k = 0; k < n; ++k) {  // rows p, q
          const double pk = a[p * n + k], qk = a[q * n + k];
          a[p * n + k] = c * pk - s * qk;
          a[q * n + k] = s * pk + c * qk;
        }
      }
    }
  }
  std::vector<double> w(n);
  for (int64_t i = 0; i < n; ++i) w[i] = a[i * n + i];
  std::sort(w.begin(), w.end());
  return w;
}

// General n x n solve by Gaussian elimination with partial pivoting (b is n x k).
void gauss_solve(Mat a, int64_t n, Mat& b, int64_t k) {
  std::vector<int> piv;
  lu_inplace(a, n, n, &piv);
  lu_solve(a, piv, n, b, k);
}

Mat matmul(const Mat& a, const Mat& b, int64_t m, int64_t p, int64_t n) {
  Mat c(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t q = 0; q < p; ++q) {
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * p + q] * b[q * n + j];
    }
  }
  return c;
}

}  // namespace

template <typename T>
void inverse_reference(const KernelContext& c, const InverseArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t n = rows_of(x), mats = batch_dims(x.dims()).numel();
  for (int64_t b = 0; b < mats; ++b) {
    Mat m = load<T>(x, b, n, n), inv(n * n, 0.0);
    for (int64_t i = 0; i < n; ++i) inv[i * n + i] = 1.0;
    for (int64_t j = 0; j < n; ++j) {  // Gauss-Jordan on [m | inv]
      int64_t p = j;
      for (int64_t i = j + 1; i < n; ++i) {
        if (std::abs(m[i * n + j]) > std::abs(m[p * n + j])) p = i;
      }
      SKIFF_ENFORCE(m[p * n + j] != 0.0, kInvalidArgument, c.op, "x", "a non-singular matrix",
                    str("a singular matrix at batch entry ", b));
      for (int64_t k = 0; k < n; ++k) {
        std::swap(m[j * n + k], m[p * n + k]);
        std::swap(inv[j * n + k], inv[p * n + k]);
      }
      const double d = m[j * n + j];
      for (int64_t k = 0; k < n; ++k) {
        m[j * n + k] /= d;
        inv[j * n + k] /= d;
      }
      for (int64_t i = 0; i < n; ++i) {
        const double f = m[i * n + j];
        if (i == j || f == 0.0) continue;
        for (int64_t k = 0; k < n; ++k) {
          m[i * n + k] -= f * m[j * n + k];
          inv[i * n + k] -= f * inv[j * n + k];
        }
      }
    }
    store<T>(inv, a.out, b);
  }
}
SKIFF_INSTANTIATE_KERNEL(inverse, reference)

namespace {

template <typename T>
void sign_logdet(const DenseTensor& xin, std::vector<double>* sign, std::vector<double>* logabs) {
  const DenseTensor x = xin.contiguous();
  const int64_t n = rows_of(x), mats = batch_dims(x.dims()).numel();
  sign->assign(mats, 1.0);
  logabs->assign(mats, 0.0);
  for (int64_t b = 0; b < mats; ++b) {
    Mat m = load<T>(x, b, n, n);
    std::vector<int> piv;
    lu_inplace(m, n, n, &piv);
    for (int64_t i = 0; i < n; ++i) {
      const double d = m[i * n + i];
      if (piv[i] != i + 1) (*sign)[b] = -(*sign)[b];
      if (d < 0) (*sign)[b] = -(*sign)[b];
      if (d == 0) (*sign)[b] = 0;
      (*logabs)[b] += std::log(std::abs(d));
    }
  }
}

}  // namespace

template <typename T>
void det_reference(const KernelContext&, const DetArgs& a) {
  std::vector<double> sign, logabs;
  sign_logdet<T>(a.x, &sign, &logabs);
  T* po = static_cast<T*>(a.out->raw_data());
  for (size_t b = 0; b < sign.size(); ++b) po[b] = static_cast<T>(sign[b] * std::exp(logabs[b]));
}
SKIFF_INSTANTIATE_KERNEL(det, reference)

template <typename T>
void slogdet_reference(const KernelContext&, const SlogdetArgs& a) {
  std::vector<double> sign, logabs;
  sign_logdet<T>(a.x, &sign, &logabs);
  T* po = static_cast<T*>(a.out->raw_data());
  for (size_t b = 0; b < sign.size(); ++b) {
    po[b] = static_cast<T>(sign[b]);
    po[sign.size() + b] = static_cast<T>(logabs[b]);
  }
}
SKIFF_INSTANTIATE_KERNEL(slogdet, reference)

namespace {

// For each output batch entry: the square matrix of x and the rhs of y to `solve`.
template <typename T, typename F>
void rhs_loop(const DenseTensor& xin, const DenseTensor& yin, DenseTensor* out, bool vector,
              F&& solve) {
  const DenseTensor x = xin.contiguous(), y = yin.contiguous();
  const int64_t n = rows_of(x), k = vector ? 1 : cols_of(y);
  const Dims xb = batch_dims(x.dims()), yb = batch_dims(y.dims(), vector ? 1 : 2);
  const Dims ob = batch_dims(out->dims(), vector ? 1 : 2);
  for (int64_t b = 0; b < ob.numel(); ++b) {
    const Mat am = load<T>(x, batch_entry(ob, xb, b), n, n);
    Mat bm = load<T>(y, batch_entry(ob, yb, b), n, k);
    solve(b, am, bm, n, k);
    store<T>(bm, out, b);
  }
}

}  // namespace

template <typename T>
void solve_reference(const KernelContext&, const SolveArgs& a) {
  const bool vector = meta::solve_rhs_is_vector(a.x.dims(), a.y.dims());
  rhs_loop<T>(a.x, a.y, a.out, vector, [](int64_t, const Mat& am, Mat& bm, int64_t n, int64_t k) {
    gauss_solve(am, n, bm, k);
  });
}
SKIFF_INSTANTIATE_KERNEL(solve, reference)

template <typename T>
void triangular_solve_reference(const KernelContext&, const TriangularSolveArgs& a) {
  rhs_loop<T>(a.x, a.y, a.out, false, [&](int64_t, const Mat& am, Mat& bm, int64_t n, int64_t k) {
    tri_solve(am, n, a.upper, a.transpose, a.unitriangular, bm, k);
  });
}
SKIFF_INSTANTIATE_KERNEL(triangular_solve, reference)

template <typename T>
void cholesky_solve_reference(const KernelContext&, const CholeskySolveArgs& a) {
  rhs_loop<T>(a.y, a.x, a.out, false, [&](int64_t, const Mat& f, Mat& bm, int64_t n, int64_t k) {
    // A = L L^T with L = f (lower) or f^T (upper): L Z = B, then L^T X = Z.
    const Mat l = a.upper ? transposed(f, n, n) : f;
    tri_solve(l, n, false, false, false, bm, k);
    tri_solve(l, n, false, true, false, bm, k);
  });
}
SKIFF_INSTANTIATE_KERNEL(cholesky_solve, reference)

template <typename T>
void cholesky_reference(const KernelContext& c, const CholeskyArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t n = rows_of(x), mats = batch_dims(x.dims()).numel();
  for (int64_t b = 0; b < mats; ++b) {
    Mat m = load<T>(x, b, n, n), l;
    if (a.upper) m = transposed(m, n, n);  // the upper triangle, read as a lower one
    SKIFF_ENFORCE(cholesky_lower(m, n, &l), kInvalidArgument, c.op, "x",
                  "a symmetric positive-definite matrix",
                  str("a matrix that is not positive definite at batch entry ", b));
    store<T>(a.upper ? transposed(l, n, n) : l, a.out, b);
  }
}
SKIFF_INSTANTIATE_KERNEL(cholesky, reference)

template <typename T>
void lu_reference(const KernelContext&, const LuArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = std::min(m, n);
  const int64_t mats = batch_dims(x.dims()).numel();
  int32_t* pp = static_cast<int32_t*>(a.pivots->raw_data());
  int32_t* pi = static_cast<int32_t*>(a.infos->raw_data());
  for (int64_t b = 0; b < mats; ++b) {
    Mat lu = load<T>(x, b, m, n);
    std::vector<int> piv;
    pi[b] = lu_inplace(lu, m, n, &piv);
    for (int64_t i = 0; i < k; ++i) pp[b * k + i] = piv[i];
    store<T>(lu, a.out, b);
  }
}
SKIFF_INSTANTIATE_KERNEL(lu, reference)

template <typename T>
void qr_reference(const KernelContext&, const QrArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = std::min(m, n);
  const bool complete = a.mode == "complete";
  const int64_t qcols = complete ? m : k, rrows = complete ? m : k;
  const int64_t mats = batch_dims(x.dims()).numel();
  for (int64_t b = 0; b < mats; ++b) {
    Mat r = load<T>(x, b, m, n);
    std::vector<Mat> vs;  // Householder vectors (v[j] = 1) and their taus
    std::vector<double> taus;
    for (int64_t j = 0; j < k; ++j) {
      const double alpha = r[j * n + j];
      double xnorm = 0;
      for (int64_t i = j + 1; i < m; ++i) xnorm += r[i * n + j] * r[i * n + j];
      xnorm = std::sqrt(xnorm);
      Mat v(m, 0.0);
      v[j] = 1.0;
      double tau = 0.0;
      if (xnorm != 0.0) {
        const double beta = -std::copysign(std::hypot(alpha, xnorm), alpha);
        tau = (beta - alpha) / beta;
        for (int64_t i = j + 1; i < m; ++i) v[i] = r[i * n + j] / (alpha - beta);
      }
      for (int64_t c = j; c < n; ++c) {  // r = (I - tau v v^T) r
        double d = 0;
        for (int64_t i = j; i < m; ++i) d += v[i] * r[i * n + c];
        for (int64_t i = j; i < m; ++i) r[i * n + c] -= tau * v[i] * d;
      }
      vs.push_back(v);
      taus.push_back(tau);
    }
    Mat rout(rrows * n, 0.0);
    for (int64_t i = 0; i < rrows; ++i) {
      for (int64_t j = i; j < n; ++j) rout[i * n + j] = r[i * n + j];
    }
    store<T>(rout, a.r, b);
    if (a.mode == "r") continue;
    Mat q(m * qcols, 0.0);  // Q = H_0 ... H_{k-1} applied to I's leading columns
    for (int64_t i = 0; i < std::min(m, qcols); ++i) q[i * qcols + i] = 1.0;
    for (int64_t j = k - 1; j >= 0; --j) {
      for (int64_t c = 0; c < qcols; ++c) {
        double d = 0;
        for (int64_t i = 0; i < m; ++i) d += vs[j][i] * q[i * qcols + c];
        for (int64_t i = 0; i < m; ++i) q[i * qcols + c] -= taus[j] * vs[j][i] * d;
      }
    }
    store<T>(q, a.q, b);
  }
}
SKIFF_INSTANTIATE_KERNEL(qr, reference)

namespace {

// The reflectors of x's first k columns (w_j: zeros above row j, 1 at j, x below), applied as
// H_j = I - tau_j w_j w_j^T to the columns of the row-major rows x cols matrix c, from the
// left (c = H_first..H_last c in the given order) or from the right.
struct Reflectors {
  Mat x;  // row-major mn x xc
  int64_t mn, xc;
  const double* tau;
  double w(int64_t j, int64_t i) const { return i < j ? 0.0 : i == j ? 1.0 : x[i * xc + j]; }
  void apply_left(int64_t j, Mat& c, int64_t cols) const {  // c = H_j c, c is mn x cols
    for (int64_t col = 0; col < cols; ++col) {
      double d = 0;
      for (int64_t i = 0; i < mn; ++i) d += w(j, i) * c[i * cols + col];
      for (int64_t i = 0; i < mn; ++i) c[i * cols + col] -= tau[j] * w(j, i) * d;
    }
  }
  void apply_right(int64_t j, Mat& c, int64_t rows) const {  // c = c H_j, c is rows x mn
    for (int64_t row = 0; row < rows; ++row) {
      double d = 0;
      for (int64_t i = 0; i < mn; ++i) d += c[row * mn + i] * w(j, i);
      for (int64_t i = 0; i < mn; ++i) c[row * mn + i] -= tau[j] * d * w(j, i);
    }
  }
};

}  // namespace

template <typename T>
void householder_product_reference(const KernelContext&, const HouseholderProductArgs& a) {
  const DenseTensor x = a.x.contiguous(), tau = a.tau.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = tau.dim(tau.rank() - 1);
  const int64_t mats = batch_dims(x.dims()).numel();
  for (int64_t b = 0; b < mats; ++b) {
    const Mat t = load<T>(tau, b, 1, k);
    const Reflectors h{load<T>(x, b, m, n), m, n, t.data()};
    Mat q(m * n, 0.0);  // H_1 ... H_k applied to the identity's first n columns
    for (int64_t i = 0; i < std::min(m, n); ++i) q[i * n + i] = 1.0;
    for (int64_t j = k - 1; j >= 0; --j) h.apply_left(j, q, n);
    store<T>(q, a.out, b);
  }
}
SKIFF_INSTANTIATE_KERNEL(householder_product, reference)

template <typename T>
void ormqr_reference(const KernelContext&, const OrmqrArgs& a) {
  const DenseTensor x = a.x.contiguous(), tau = a.tau.contiguous(), y = a.y.contiguous();
  const int64_t mn = rows_of(x), xc = cols_of(x), k = tau.dim(tau.rank() - 1);
  const int64_t m = rows_of(y), n = cols_of(y);
  const int64_t mats = batch_dims(y.dims()).numel();
  for (int64_t b = 0; b < mats; ++b) {
    const Mat t = load<T>(tau, b, 1, k);
    const Reflectors h{load<T>(x, b, mn, xc), mn, xc, t.data()};
    Mat c = load<T>(y, b, m, n);
    // Q y = H_1 (... (H_k y)); Q^T y = H_k (... (H_1 y)); y Q = ((y H_1) ...) H_k; y Q^T reversed.
    const bool last_first = a.left != a.transpose;
    for (int64_t s = 0; s < k; ++s) {
      const int64_t j = last_first ? k - 1 - s : s;
      if (a.left) {
        h.apply_left(j, c, n);
      } else {
        h.apply_right(j, c, m);
      }
    }
    store<T>(c, a.out, b);
  }
}
SKIFF_INSTANTIATE_KERNEL(ormqr, reference)

// Only s is a reference value (u and vh are defined up to signs): u and vh are zeros here.
template <typename T>
void svd_reference(const KernelContext&, const SvdArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = std::min(m, n);
  const int64_t mats = batch_dims(x.dims()).numel();
  for (int64_t b = 0; b < mats; ++b) store<T>(singular_values(load<T>(x, b, m, n), m, n), a.s, b);
  std::fill_n(static_cast<T*>(a.u->raw_data()), a.u->numel(), T(0));
  std::fill_n(static_cast<T*>(a.vh->raw_data()), a.vh->numel(), T(0));
  (void)k;
}
SKIFF_INSTANTIATE_KERNEL(svd, reference)

// Only the eigenvalues are reference values; the eigenvectors are zeros here.
template <typename T>
void eigh_reference(const KernelContext&, const EighArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t n = rows_of(x), mats = batch_dims(x.dims()).numel();
  const bool lower = a.uplo == "L";
  for (int64_t b = 0; b < mats; ++b) {
    Mat m = load<T>(x, b, n, n);
    for (int64_t i = 0; i < n; ++i) {  // symmetric from the named triangle
      for (int64_t j = 0; j < i; ++j) {
        const double v = lower ? m[i * n + j] : m[j * n + i];
        m[i * n + j] = m[j * n + i] = v;
      }
    }
    store<T>(symmetric_eigenvalues(m, n), a.eigenvalues, b);
  }
  std::fill_n(static_cast<T*>(a.eigenvectors->raw_data()), a.eigenvectors->numel(), T(0));
}
SKIFF_INSTANTIATE_KERNEL(eigh, reference)

// Full-rank x only: the normal equations (M >= N) or the minimum-norm x^T (x x^T)^-1 y.
template <typename T>
void lstsq_reference(const KernelContext& c, const LstsqArgs& a) {
  const DenseTensor x = a.x.contiguous(), y = a.y.contiguous();
  const int64_t m = rows_of(x), n = cols_of(x), k = cols_of(y), kmin = std::min(m, n);
  const Dims batch = batch_dims(x.dims());
  const int64_t mats = batch.numel();
  const bool with_rank = a.driver != "gels";
  const bool with_sv = a.driver == "gelsd" || a.driver == "gelss";
  Mat residuals;
  for (int64_t b = 0; b < mats; ++b) {
    const Mat am = load<T>(x, b, m, n), bm = load<T>(y, b, m, k);
    const Mat at = transposed(am, m, n);
    Mat sol;
    if (m >= n) {
      sol = matmul(at, bm, n, m, k);
      gauss_solve(matmul(at, am, n, m, n), n, sol, k);
    } else {
      Mat z = bm;
      gauss_solve(matmul(am, at, m, n, m), m, z, k);
      sol = matmul(at, z, n, m, k);
    }
    store<T>(sol, a.solution, b);
    const std::vector<double> s = singular_values(am, m, n);
    if (with_sv) store<T>(s, a.singular_values, b);
    if (with_rank) static_cast<int32_t*>(a.rank->raw_data())[b] = static_cast<int32_t>(kmin);
    const Mat fit = matmul(am, sol, m, n, k);
    for (int64_t j = 0; j < k; ++j) {
      double acc = 0;
      for (int64_t i = 0; i < m; ++i)
        acc += (fit[i * k + j] - bm[i * k + j]) * (fit[i * k + j] - bm[i * k + j]);
      residuals.push_back(acc);
    }
  }
  if (m <= n) return;
  Dims rd = batch;
  rd.push_back(k);
  *a.residuals = DenseTensor::empty(rd, x.dtype(), c.place);
  store<T>(residuals, a.residuals, 0);
}
SKIFF_INSTANTIATE_KERNEL(lstsq, reference)

}  // namespace skiff::ops
