// VJP rules of the LAPACK ops (skiff/ops/yaml/lapack.yaml), composed from the op API (so they
// are differentiable again: second derivatives come free). The formulas are the standard matrix
// calculus ones (as in Paddle's and PyTorch's backward kernels); each is derived in its comment.
// Triangular factors enter through triangular_solve, never through an explicit inverse.
#include <algorithm>
#include <numeric>

#include "skiff/base/error.h"
#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"
#include "skiff/ops/meta/lapack_meta.h"

namespace skiff {

namespace {

// Swaps the last two dims.
Tensor mT(const Tensor& x) {
  std::vector<int64_t> perm(x.rank());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[x.rank() - 1], perm[x.rank() - 2]);
  return transpose(x, perm);
}

// [*] -> [*, 1, 1].
Tensor as_scalars(const Tensor& t) { return unsqueeze(unsqueeze(t, {-1}), {-1}); }

int64_t dim_from_end(const Tensor& t, int k) { return t.dims()[t.rank() - k]; }

Tensor last_cols(const Tensor& t, int64_t begin, int64_t end) {
  return slice(t, {t.rank() - 1}, {begin}, {end});
}

}  // namespace

// d det = det tr(x^-1 dx): grad_x = g det x^-T.
Tensor det_grad(const Tensor& grad, const Tensor& x, const Tensor& out) {
  return multiply(as_scalars(multiply(grad, out)), mT(inverse(x)));
}

Tensor slogdet_grad(const Tensor& grad, const Tensor& x) {
  const Tensor g_logabs = slice(grad, {0}, {1}, {2}, {0});
  return multiply(as_scalars(g_logabs), mT(inverse(x)));
}

// out = x^-1 y: grad_y = x^-T g, grad_x = -grad_y out^T (outer products in the vector case).
std::tuple<Tensor, Tensor> solve_vjp(const Tensor& grad, const Tensor& x, const Tensor& y,
                                     const Tensor& out) {
  const Tensor gy = solve(mT(x), grad);
  const bool vector = ops::meta::solve_rhs_is_vector(x.dims(), y.dims());
  const Tensor gx = vector ? neg(matmul(unsqueeze(gy, {-1}), unsqueeze(out, {-2})))
                           : neg(matmul(gy, out, false, true));
  return {unbroadcast(gx, x), unbroadcast(gy, y)};
}

// op(x) out = y: grad_y = op(x)^-T g; grad_x = -grad_y out^T (op = identity) or -out grad_y^T
// (op = transpose), restricted to the triangle the kernel reads.
std::tuple<Tensor, Tensor> triangular_solve_vjp(const Tensor& grad, const Tensor& x,
                                                const Tensor& y, const Tensor& out, bool upper,
                                                bool transpose, bool unitriangular) {
  const Tensor gy = triangular_solve(x, grad, upper, !transpose, unitriangular);
  Tensor gx = transpose ? neg(matmul(out, gy, false, true)) : neg(matmul(gy, out, false, true));
  gx = upper ? triu(gx, unitriangular ? 1 : 0) : tril(gx, unitriangular ? -1 : 0);
  return {unbroadcast(gx, x), unbroadcast(gy, y)};
}

// x = L L^T: L^-1 dx L^-T = X + X^T with X = L^-1 dL lower, so dL = L Phi(L^-1 dx L^-T)
// (Phi: the lower triangle, diagonal halved). Its adjoint on symmetric dx gives
// grad_x = L^-T S L^-1, S = (tril(M) + tril(M, -1)^T) / 2, M = L^T grad_L.
Tensor cholesky_grad(const Tensor& grad, const Tensor& factor, bool upper) {
  const Tensor l = upper ? mT(factor) : factor;
  const Tensor gl = upper ? mT(grad) : grad;
  const Tensor m = matmul(l, gl, true, false);
  const Tensor s = scale(add(tril(m, 0), mT(tril(m, -1))), Scalar(0.5));
  const Tensor z = triangular_solve(l, s, false, true, false);  // L^-T S
  return mT(triangular_solve(l, mT(z), false, true, false));    // (L^-T Z^T)^T = Z L^-1
}

// out = A^-1 x with A = L L^T (or U^T U): grad_x = A^-1 g; grad_A = -grad_x out^T, and through
// A: grad_L = (grad_A + grad_A^T) L, grad_U = U (grad_A + grad_A^T), on the factor's triangle.
std::tuple<Tensor, Tensor> cholesky_solve_vjp(const Tensor& grad, const Tensor& x, const Tensor& y,
                                              const Tensor& out, bool upper) {
  const Tensor gx = cholesky_solve(grad, y, upper);
  Tensor c = matmul(gx, out, false, true);
  c = add(c, mT(c));
  // Only the factor's triangle is read (the other one may hold anything).
  const Tensor gy = upper ? neg(triu(matmul(triu(y), c))) : neg(tril(matmul(c, tril(y))));
  return {unbroadcast(gx, x), unbroadcast(gy, y)};
}

namespace {

// The square case of lu_grad before P: L^-T (tril(L^T gL, -1) + triu(gU U^T)) U^-T, with L
// and U packed in `lu` (n x n).
Tensor lu_square_grad(const Tensor& gl, const Tensor& gu, const Tensor& lu) {
  const int64_t n = lu.dims()[lu.rank() - 1];
  const Tensor l = add(tril(lu, -1), eye(n, n, lu.dtype()));
  const Tensor phi = add(tril(matmul(l, tril(gl, -1), true, false), -1),
                         triu(matmul(triu(gu), triu(lu), false, true)));
  const Tensor z = triangular_solve(lu, phi, false, true, true);  // L^-T phi
  return mT(triangular_solve(lu, mT(z), true, false, false));     // Z U^-T
}

// P [*, m, m] from LAPACK's 1-based pivots [*, k]: applying the row swaps to the identity's row
// order gives perm with (L U)[r] = x[perm[r]], so P[perm[r]][r] = 1.
Tensor permutation_matrix(const Tensor& pivots, int64_t m, const Tensor& like) {
  const DenseTensor piv = pivots.dense().contiguous();
  const int64_t k = piv.dim(piv.rank() - 1), mats = piv.numel() / std::max<int64_t>(k, 1);
  Dims d = piv.dims();
  d[d.size() - 1] = m;
  d.push_back(m);
  std::vector<double> values(mats * m * m, 0.0);
  const int32_t* pp = static_cast<const int32_t*>(piv.raw_data());
  std::vector<int64_t> perm(m);
  for (int64_t b = 0; b < mats; ++b) {
    std::iota(perm.begin(), perm.end(), 0);
    for (int64_t i = 0; i < k; ++i) std::swap(perm[i], perm[pp[b * k + i] - 1]);
    for (int64_t r = 0; r < m; ++r) values[b * m * m + perm[r] * m + r] = 1.0;
  }
  DenseTensor p = DenseTensor::empty(d, DType::kFloat64, like.place());
  std::copy(values.begin(), values.end(), static_cast<double*>(p.raw_data()));
  return cast(Tensor(p), like.dtype());
}

Tensor rows(const Tensor& t, int64_t begin, int64_t end) {
  return slice(t, {t.rank() - 2}, {begin}, {end});
}

}  // namespace

// x = P L U. Square: L^-1 P^T dx U^-1 = L^-1 dL + dU U^-1 (strictly lower + upper), hence
// P^T grad_x = L^-T (tril(L^T grad_L, -1) + triu(grad_U U^T)) U^-T, grad_L and grad_U the
// strictly lower and the upper part of the packed gradient. Tall (M > N): P^T x = [L1 U; L2 U],
// L2 = X2 U^-1 gives grad_X2 = grad_L2 U^-T and adds -L2^T grad_X2 to grad_U. Wide (M < N):
// P^T x = [L U1 | L U2], U2 = L^-1 X2 gives grad_X2 = L^-T grad_U2 and adds -grad_X2 U2^T to
// grad_L.
Tensor lu_grad(const Tensor& grad, const Tensor& lu, const Tensor& pivots) {
  const int64_t m = dim_from_end(lu, 2), n = dim_from_end(lu, 1);
  Tensor g;
  if (m == n) {
    g = lu_square_grad(grad, grad, lu);
  } else if (m > n) {
    const Tensor lu1 = rows(lu, 0, n), l2 = rows(lu, n, m);
    const Tensor g1 = rows(grad, 0, n), gl2 = rows(grad, n, m);
    const Tensor gx2 = mT(triangular_solve(lu1, mT(gl2), true, false, false));  // gL2 U^-T
    const Tensor gu = subtract(triu(g1), matmul(l2, gx2, true, false));
    g = concat({lu_square_grad(g1, gu, lu1), gx2}, lu.rank() - 2);
  } else {
    const Tensor lu1 = last_cols(lu, 0, m), u2 = last_cols(lu, m, n);
    const Tensor g1 = last_cols(grad, 0, m), gu2 = last_cols(grad, m, n);
    const Tensor gx2 = triangular_solve(lu1, gu2, false, true, true);  // L^-T gU2
    const Tensor gl = subtract(tril(g1, -1), tril(matmul(gx2, u2, false, true), -1));
    g = concat({lu_square_grad(gl, g1, lu1), gx2}, lu.rank() - 1);
  }
  return matmul(permutation_matrix(pivots, m, lu), g);
}

// Reduced QR with M >= N: with X = Q^T dx R^-1, Q^T dQ = tril(X, -1) - tril(X, -1)^T and
// dR R^-1 = the rest; collecting terms gives grad_x = (grad_Q + Q S) R^-T with
// S = triu(P) + triu(P, 1)^T, P = grad_R R^T - Q^T grad_Q. For M < N, x = [X1 | X2] and
// R = [R1 | R2] with X1 = Q R1 square and R2 = Q^T X2: grad_Q gains X2 grad_R2^T, grad_X2 =
// Q grad_R2.
Tensor qr_grad(const Tensor& grad_q, const Tensor& grad_r, const Tensor& x, const Tensor& q,
               const Tensor& r, const std::string& mode) {
  if (mode == "r") {  // Q was not returned: recompute it (R is the reduced one)
    const Tensor qq = std::get<0>(qr(x, "reduced"));
    return qr_grad(zeros_like(qq), grad_r, x, qq, r, "reduced");
  }
  const int64_t m = dim_from_end(x, 2), n = dim_from_end(x, 1);
  SKIFF_ENFORCE(mode != "complete" || m <= n, kUnimplemented, "qr", "mode",
                "'reduced' for the gradient of a matrix with more rows than columns",
                str("'complete' with x ", x.dims()));
  auto tall = [](const Tensor& gq, const Tensor& gr, const Tensor& qq, const Tensor& rr) {
    const Tensor p = subtract(matmul(gr, rr, false, true), matmul(qq, gq, true, false));
    const Tensor s = add(triu(p), mT(triu(p, 1)));
    const Tensor y = add(gq, matmul(qq, s));
    return mT(triangular_solve(rr, mT(y), true, false, false));  // Y R^-T
  };
  if (m >= n) return tall(grad_q, grad_r, q, r);
  const Tensor r1 = last_cols(r, 0, m), gr1 = last_cols(grad_r, 0, m);
  const Tensor gr2 = last_cols(grad_r, m, n), x2 = last_cols(x, m, n);
  const Tensor gq = add(grad_q, matmul(x2, gr2, false, true));
  return concat({tall(gq, gr1, q, r1), matmul(q, gr2)}, x.rank() - 1);
}

// x = U diag(s) V^T: the inner matrix J = (skew(U^T gU) S + S skew(V^T gV)) / E + diag(gs)
// with E_ij = s_j^2 - s_i^2, then grad_x = U J V^T plus the parts of gU (tall x) or gV (wide x)
// outside the spans of U and V: (I - U U^T) gU S^-1 V^T and U S^-1 gV^T (I - V V^T).
Tensor svd_grad(const Tensor& grad_u, const Tensor& grad_s, const Tensor& grad_vh, const Tensor& x,
                const Tensor& u, const Tensor& s, const Tensor& vh, bool full_matrices) {
  const int64_t m = dim_from_end(x, 2), n = dim_from_end(x, 1), k = std::min(m, n);
  SKIFF_ENFORCE(!full_matrices || m == n, kUnimplemented, "svd", "full_matrices",
                "false for the gradient of a non-square matrix (the extra singular vectors are "
                "not unique)",
                str("true with x ", x.dims()));
  const Tensor eye_k = eye(k, k, x.dtype());
  const Tensor v = mT(vh), gv = mT(grad_vh);
  const Tensor utgu = matmul(u, grad_u, true, false), vtgv = matmul(v, gv, true, false);
  const Tensor s_row = unsqueeze(s, {-2}), s_col = unsqueeze(s, {-1});
  const Tensor s2 = square(s);
  const Tensor e = add(subtract(unsqueeze(s2, {-2}), unsqueeze(s2, {-1})), eye_k);
  Tensor j = divide(
      add(multiply(subtract(utgu, mT(utgu)), s_row), multiply(s_col, subtract(vtgv, mT(vtgv)))), e);
  j = add(j, multiply(unsqueeze(grad_s, {-2}), eye_k));
  if (m > k) {
    const Tensor gus = divide(grad_u, s_row);
    const Tensor ga = add(matmul(u, j), subtract(gus, matmul(u, matmul(u, gus, true, false))));
    return matmul(ga, vh);
  }
  if (n > k) {
    const Tensor gvs = divide(gv, s_row);
    const Tensor ga =
        add(matmul(j, vh), subtract(mT(gvs), matmul(matmul(gvs, v, true, false), vh)));
    return matmul(u, ga);
  }
  return matmul(u, matmul(j, vh));
}

// x = V diag(w) V^T: dV = V (F o V^T dx V), F_ij = 1 / (w_j - w_i) off the diagonal, and
// dw = diag(V^T dx V), so grad_x = V (diag(gw) + F o (V^T gV)) V^T.
Tensor eigh_grad(const Tensor& grad_w, const Tensor& grad_v, const Tensor& w, const Tensor& v) {
  const int64_t n = dim_from_end(v, 1);
  const Tensor eye_n = eye(n, n, v.dtype());
  const Tensor e = add(subtract(unsqueeze(w, {-2}), unsqueeze(w, {-1})), eye_n);
  const Tensor off = scale(eye_n, Scalar(-1.0), Scalar(1.0));  // 1 off the diagonal
  Tensor j = multiply(divide(matmul(v, grad_v, true, false), e), off);
  j = add(j, multiply(unsqueeze(grad_w, {-2}), eye_n));
  return matmul(v, matmul(j, v, false, true));
}

namespace {

// a x = b for complex a [*, N, N] and b [*, N, K], through the real system
// [[Re a, -Im a], [Im a, Re a]] [Re x; Im x] = [Re b; Im b] (the solve op is real; this keeps
// the rule an op-API composition, so it is differentiable again).
Tensor complex_solve(const Tensor& a, const Tensor& b) {
  const int r = a.rank();
  const int64_t n = dim_from_end(a, 1);
  const Tensor ar = real(a), ai = imag(a);
  const Tensor big = concat({concat({ar, neg(ai)}, r - 1), concat({ai, ar}, r - 1)}, r - 2);
  const Tensor sol = solve(big, concat({real(b), imag(b)}, b.rank() - 2));
  return complex(slice(sol, {r - 2}, {0}, {n}), slice(sol, {r - 2}, {n}, {2 * n}));
}

}  // namespace

// x = V diag(w) V^-1 (torch's linalg_eig_backward, Paddle's eig_grad): with
// E_ij = conj(w_j) - conj(w_i) and M = V^H gV - V^H V diag(Re diag(V^H gV)) (the second term
// removes the change of |v_j|, which LAPACK keeps at 1),
// grad_x = V^-H (diag(gw) + M / E off the diagonal) V^H, its real part for a real x. Either
// incoming gradient may be undefined (its output unused): its term is skipped.
Tensor eig_grad(const Tensor& grad_w, const Tensor& grad_v, const Tensor& x, const Tensor& w,
                const Tensor& v) {
  const int64_t n = dim_from_end(v, 1);
  const Tensor eye_n = eye(n, n, complex_to_real(v.dtype()));
  const Tensor vh = conj(mT(v));
  Tensor inner;
  if (grad_v.defined()) {
    const Tensor vhgv = matmul(vh, grad_v);
    const Tensor re_diag = unsqueeze(diagonal(real(vhgv), 0, -2, -1), {-2});  // [*, 1, N]
    const Tensor m = subtract(vhgv, matmul(vh, multiply(v, re_diag)));
    const Tensor wc = conj(w);
    const Tensor e = add(subtract(unsqueeze(wc, {-2}), unsqueeze(wc, {-1})), eye_n);
    const Tensor off = scale(eye_n, Scalar(-1.0), Scalar(1.0));  // 1 off the diagonal
    inner = multiply(divide(m, e), off);
  }
  if (grad_w.defined()) {
    const Tensor d = multiply(unsqueeze(grad_w, {-2}), eye_n);
    inner = inner.defined() ? add(inner, d) : d;
  }
  if (!inner.defined()) return zeros_like(x);
  const Tensor gx = complex_solve(vh, matmul(inner, vh));
  return is_complex(x.dtype()) ? gx : real(gx);
}

namespace {

// t's dims with the last two replaced by rows x cols.
std::vector<int64_t> matrix_shape(const Tensor& t, int64_t rows, int64_t cols) {
  std::vector<int64_t> s(t.dims().begin(), t.dims().end() - 2);
  s.push_back(rows);
  s.push_back(cols);
  return s;
}

// t [*, R, C] widened to `cols` columns with zeros.
Tensor pad_cols(const Tensor& t, int64_t cols) {
  const int64_t have = dim_from_end(t, 1);
  if (have == cols) return t;
  return concat({t, zeros(matrix_shape(t, dim_from_end(t, 2), cols - have), t.dtype())},
                t.rank() - 1);
}

}  // namespace

// out = H_1 ... H_k E (E: the identity's first n columns) is Y_0 of Y_k = E,
// Y_{i-1} = Y_i - tau_i w_i (w_i^T Y_i). Walking back from G_0 = grad: the gradient of tau_i is
// -(w_i^T G_{i-1}) . (w_i^T Y_i), that of w_i is -tau_i (G_{i-1} Y_i^T w_i + Y_i G_{i-1}^T w_i),
// and G_i = H_i G_{i-1}. x's column i receives w_i's gradient below the diagonal (the rest of w_i
// is constant).
std::tuple<Tensor, Tensor> householder_product_vjp(const Tensor& grad, const Tensor& x,
                                                   const Tensor& tau) {
  const int64_t m = dim_from_end(x, 2), n = dim_from_end(x, 1), k = dim_from_end(tau, 1);
  if (k == 0) return {zeros_like(x), zeros_like(tau)};
  const int r = x.rank();
  const Tensor below = tril(last_cols(x, 0, k), -1);
  const Tensor unit = eye(m, k, x.dtype());
  std::vector<Tensor> w(k), t(k), ys(k + 1);
  ys[k] = broadcast_to(eye(m, n, x.dtype()), matrix_shape(x, m, n));
  for (int64_t i = k - 1; i >= 0; --i) {
    w[i] = add(last_cols(below, i, i + 1), last_cols(unit, i, i + 1));  // [*, m, 1]
    t[i] = unsqueeze(slice(tau, {r - 2}, {i}, {i + 1}), {-1});          // [*, 1, 1]
    ys[i] = subtract(ys[i + 1], multiply(t[i], matmul(w[i], matmul(w[i], ys[i + 1], true, false))));
  }
  Tensor g = grad;
  std::vector<Tensor> dw(k), dt(k);
  for (int64_t i = 0; i < k; ++i) {
    const Tensor& y = ys[i + 1];
    const Tensor wtg = matmul(w[i], g, true, false);                         // [*, 1, n]
    dt[i] = neg(sum(multiply(wtg, matmul(w[i], y, true, false)), {r - 1}));  // [*, 1]
    dw[i] = neg(multiply(t[i], add(matmul(g, matmul(y, w[i], true, false)),
                                   matmul(y, matmul(g, w[i], true, false)))));
    g = subtract(g, multiply(t[i], matmul(w[i], wtg)));
  }
  const Tensor gx = pad_cols(tril(concat(dw, r - 1), -1), n);
  return {gx, concat(dt, r - 2)};
}

// out = op(Q) y or y op(Q) with Q = householder_product(x_k padded to MN columns, tau), x_k
// the reflector columns: grad_y = op(Q)^T g (or g op(Q)^T); grad_Q from the product, then
// through householder_product's rule.
std::tuple<Tensor, Tensor, Tensor> ormqr_vjp(const Tensor& grad, const Tensor& x, const Tensor& tau,
                                             const Tensor& y, bool left, bool transpose) {
  const int64_t mn = dim_from_end(x, 2), xc = dim_from_end(x, 1), k = dim_from_end(tau, 1);
  const Tensor x_pad = pad_cols(last_cols(x, 0, k), mn);
  const Tensor q = householder_product(x_pad, tau);
  const Tensor gy = left ? matmul(q, grad, !transpose, false) : matmul(grad, q, false, !transpose);
  Tensor gq;
  if (left) {
    gq = transpose ? matmul(y, grad, false, true) : matmul(grad, y, false, true);
  } else {
    gq = transpose ? matmul(grad, y, true, false) : matmul(y, grad, true, false);
  }
  const auto [gx_pad, gtau] = householder_product_vjp(gq, x_pad, tau);
  return {pad_cols(last_cols(gx_pad, 0, k), xc), gtau, gy};
}

}  // namespace skiff
