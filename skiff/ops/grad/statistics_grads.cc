// VJP rules of the statistics ops (skiff/ops/yaml/statistics.yaml), composed from the op API so
// they are differentiable again.
#include <cmath>
#include <limits>

#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"

namespace skiff {

// out_i = log sum_{j in S_i} exp(x_j), so dx_j = sum_{i : j in S_i} g_i exp(x_j - out_i): the
// scan in the opposite direction of exp(log g_i - out_i). Done as two logcumsumexp scans (the
// positive and the negative parts of g in log space, as Paddle's kernel does), so it neither
// overflows nor underflows where the forward does not.
Tensor logcumsumexp_grad(const Tensor& grad, const Tensor& x, const Tensor& out, int64_t axis,
                         bool flatten, bool exclusive, bool reverse) {
  const Tensor xs = flatten ? reshape(x, {-1}) : x;
  const int64_t ax = flatten ? 0 : axis;
  const Tensor zero = zeros_like(grad);
  const Tensor neg_inf = full_like(out, Scalar(-std::numeric_limits<double>::infinity()));
  // log|g| with 1 where g == 0, so no branch of the `where`s holds inf or NaN
  const Tensor log_abs = log(where(equal(grad, zero), ones_like(grad), abs(grad)));
  const Tensor term = subtract(log_abs, out);
  const Tensor pos = where(greater_than(grad, zero), term, neg_inf);
  const Tensor neg = where(less_than(grad, zero), term, neg_inf);
  const Tensor sum_pos = logcumsumexp(pos, ax, false, exclusive, !reverse);
  const Tensor sum_neg = logcumsumexp(neg, ax, false, exclusive, !reverse);
  const Tensor dx = subtract(exp(add(sum_pos, xs)), exp(add(sum_neg, xs)));
  return flatten ? reshape(dx, x.shape()) : dx;
}

// Each output gradient goes to the element its index names (the axis restored without keepdim).
Tensor mode_grad(const Tensor& grad, const Tensor& x, const Tensor& indices, int64_t axis,
                 bool keepdim) {
  if (x.rank() == 0) return grad;
  const int64_t a = axis < 0 ? axis + x.rank() : axis;
  const Tensor g = keepdim ? grad : unsqueeze(grad, {a});
  const Tensor i = keepdim ? indices : unsqueeze(indices, {a});
  return put_along_axis(zeros_like(x), i, g, a, "add");
}

}  // namespace skiff
