// VJP rules of ops that move, select, repeat or scan elements: strided views, diagonal, pad,
// repeat_interleave, masked_select (through an index map), cumprod, scatter, put_along_axis.
// Written against the op API like every rule, so they are differentiable themselves.
//
// Note [Index-map gradients]: an op that only copies elements of x (each output element is one
// element of x) has the gradient "add each output's gradient at the element it came from".
// Running the op itself on x's flat element indices (iota_like) yields exactly those source
// positions, in the op's own semantics (negative strides, clamping, broadcasting, padding
// modes), so one scatter_nd_add serves all of them and repeated sources accumulate.
#include <numeric>

#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"

namespace skiff {

Tensor iota_like(const Tensor& x) {
  const Tensor flat =
      arange(Scalar(int64_t{0}), Scalar(x.numel()), Scalar(int64_t{1}), DType::kInt64);
  return reshape_exact(flat, x.shape());
}

Tensor index_map_grad(const Tensor& grad, const Tensor& x, const Tensor& positions) {
  const int64_t n = x.numel(), k = positions.numel();
  if (n == 0 || k == 0) return zeros_like(x, grad.dtype());
  const Tensor flat = scatter_nd_add(reshape_exact(zeros_like(x, grad.dtype()), {n}),
                                     reshape_exact(positions, {k, 1}), reshape_exact(grad, {k}));
  return reshape_exact(flat, x.shape());
}

Tensor pad_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& paddings,
                const std::string& mode) {
  if (mode != "constant") return index_map_grad(grad, x, pad(iota_like(x), paddings, mode, 0.0f));
  // The constant border gets no gradient: slice x's part back out (pairs read as pad_meta
  // reads them: one per axis, or for the last axes only, last axis first).
  const int rank = x.rank();
  const size_t n = paddings.size();
  std::vector<int64_t> axes, starts, ends;
  for (int i = 0; i < rank; ++i) {
    int64_t before = 0;
    if (n == static_cast<size_t>(2 * rank)) {
      before = paddings[2 * i];
    } else if (const size_t k = rank - 1 - i; 2 * k < n) {
      before = paddings[2 * k];
    }
    axes.push_back(i);
    starts.push_back(before);
    ends.push_back(before + x.dims()[i]);
  }
  return slice(grad, axes, starts, ends, {});
}

Tensor cumprod_grad(const Tensor& grad, const Tensor& x, int64_t dim, bool exclusive,
                    bool reverse) {
  if (x.rank() == 0) return exclusive ? zeros_like(grad) : grad;
  if (x.numel() == 0) return grad;
  const int d = normalize_axis(dim, x.rank(), "cumprod_grad");
  if (reverse) {
    return flip(cumprod_grad(flip(grad, {d}), flip(x, {d}), d, exclusive, false), {d});
  }
  const int last = x.rank() - 1;
  if (d != last) {
    std::vector<int64_t> perm(x.rank());
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[d], perm[last]);
    return transpose(
        cumprod_grad(transpose(grad, perm), transpose(x, perm), last, exclusive, false), perm);
  }
  // Zero-safe (no division by x): with M[k][j] = prod_{k < i <= j} x_i and E[k] =
  // prod_{i < k} x_i, d out_j / d x_k = E[k] M[k][j] for j >= k (inclusive scan); the
  // exclusive scan is the same with the gradient shifted by one: grad_x[k] = E[k] *
  // sum_{j >= k} g'_j M[k][j], g'_j = g_{j+1}. O(n^2) per scanned line. Complex x: the
  // factors are conjugated (grad * conj(d out / d x)), and conj(prod x) = prod conj(x).
  const Tensor xc = conj_if_complex(x);
  const int64_t n = x.dims()[last];
  const Tensor idx = arange(Scalar(int64_t{0}), Scalar(n), Scalar(int64_t{1}), DType::kInt64);
  const Tensor rows = unsqueeze(idx, {1}), cols = unsqueeze(idx, {0});
  std::vector<int64_t> square_shape = x.shape();
  square_shape.insert(square_shape.end() - 1, n);
  const Tensor xb = broadcast_to(unsqueeze(xc, {-2}), square_shape);  // xb[..., k, i] = x_i
  const Tensor m = cumprod(where(less_than(rows, cols), xb, ones_like(xb)), -1);
  Tensor g = grad;
  if (exclusive) {
    const Tensor tail = slice(grad, {last}, {1}, {n}, {});
    g = concat({tail, zeros_like(slice(grad, {last}, {0}, {1}, {}))}, last);
  }
  const Tensor terms = multiply(unsqueeze(g, {-2}), m);
  const Tensor s = sum(where(less_equal(rows, cols), terms, zeros_like(terms)), {-1});
  return multiply(cumprod(xc, last, true, false), s);
}

Tensor scatter_updates_grad(const Tensor& grad, const Tensor& index, const Tensor& updates,
                            bool overwrite) {
  const Tensor g = gather(grad, index, 0);
  if (!overwrite || index.numel() <= 1) return g;
  // Overwriting: only the last update of each row survives; the others get no gradient.
  const int64_t k = index.numel();
  const Tensor ids = arange(Scalar(int64_t{0}), Scalar(k), Scalar(int64_t{1}), DType::kInt64);
  const Tensor winner =
      scatter(full({grad.dims()[0]}, Scalar(int64_t{-1}), DType::kInt64), index, ids, true);
  std::vector<int64_t> mask_shape(updates.rank(), 1);
  mask_shape[0] = k;
  const Tensor won = reshape(equal(gather(winner, index, 0), ids), mask_shape);
  return where(won, g, zeros_like(g));
}

}  // namespace skiff
