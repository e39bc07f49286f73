// The VJP rule of batch_norm. Outside create_graph (grad mode off while the rule runs) it is
// the fused batch_norm_grad kernel; with create_graph it is composed from the op API and
// recomputed from x, so it differentiates again. Gradients that reach the statistics outputs
// (rare: the Python layer only copies them into the running buffers) add their terms on top.
#include <tuple>

#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"
#include "skiff/ops/meta/nn_meta.h"
#include "skiff/runtime/eager/grad_mode.h"

namespace skiff {

namespace {

struct BnAxes {
  int axis = 1;
  std::vector<int64_t> reduced;     // every axis but the channel axis
  std::vector<int64_t> stat_shape;  // x's rank, C on the channel axis, 1 elsewhere
  std::vector<int64_t> channels;    // [C]
};

BnAxes bn_axes(const Tensor& x, const std::string& data_format) {
  BnAxes a;
  const int rank = x.rank();
  a.axis = ops::meta::batch_norm_channel_axis("batch_norm", data_format, rank);
  a.stat_shape.assign(rank, 1);
  for (int i = 0; i < rank; ++i) {
    if (i != a.axis) a.reduced.push_back(i);
  }
  a.stat_shape[a.axis] = x.dims()[a.axis];
  a.channels = {x.dims()[a.axis]};
  return a;
}

// Elements per channel; the statistics' own gradients need it statically.
double bn_count(const Tensor& x, const BnAxes& a) {
  double n = 1;
  for (int64_t i : a.reduced) {
    const int64_t d = x.dims()[static_cast<int>(i)];
    SKIFF_ENFORCE(d >= 0, kUnimplemented, "batch_norm_grad", "x",
                  "static sizes outside the channel axis for gradients of the statistics",
                  x.dims());
    n *= static_cast<double>(d);
  }
  return n;
}

// A [C] tensor as x's dtype, shaped to broadcast against x.
Tensor per_channel(const Tensor& t, const Tensor& x, const BnAxes& a) {
  return reshape_exact(t.dtype() == x.dtype() ? t : cast(t, x.dtype()), a.stat_shape);
}

Tensor as_dtype(const Tensor& t, DType d) { return t.dtype() == d ? t : cast(t, d); }

}  // namespace

std::tuple<Tensor, Tensor, Tensor> batch_norm_vjp(
    const Tensor& grad, const Tensor& grad_mean_out, const Tensor& grad_variance_out,
    const Tensor& grad_saved_mean, const Tensor& grad_saved_variance, const Tensor& x,
    const std::optional<Tensor>& scale_t, const std::optional<Tensor>& bias, const Tensor& saved_mean,
    const Tensor& saved_variance, bool is_test, float momentum, float epsilon,
    const std::string& data_format, bool use_global_stats, bool trainable_statistics) {
  const BnAxes a = bn_axes(x, data_format);
  const bool batch = !((is_test && !trainable_statistics) || use_global_stats);
  const DType param_dtype = saved_mean.dtype();
  const DType scale_dtype = scale_t ? scale_t->dtype() : param_dtype;
  const DType bias_dtype = bias ? bias->dtype() : param_dtype;
  Tensor dx, dscale, dbias, centered, rstd;
  if (!autograd::grad_enabled()) {
    auto [gx, gs, gb] =
        batch_norm_grad(x, saved_mean, saved_variance, grad, scale_t, data_format, !batch);
    dx = gx;
    dscale = gs;
    dbias = as_dtype(gb, bias_dtype);
  } else if (batch) {
    const Tensor mu = mean(x, a.reduced, true);
    centered = subtract(x, mu);
    const Tensor var = mean(square(centered), a.reduced, true);
    rstd = rsqrt(scale(var, Scalar(1.0), Scalar(static_cast<double>(epsilon))));
    const Tensor xhat = multiply(centered, rstd);
    const Tensor gy = scale_t ? multiply(grad, per_channel(*scale_t, x, a)) : grad;
    const Tensor ga = mean(gy, a.reduced, true);
    const Tensor gb = mean(multiply(gy, xhat), a.reduced, true);
    dx = multiply(rstd, subtract(subtract(gy, ga), multiply(xhat, gb)));
    dscale = as_dtype(reshape_exact(sum(multiply(grad, xhat), a.reduced), a.channels), scale_dtype);
    dbias = as_dtype(reshape_exact(sum(grad, a.reduced), a.channels), bias_dtype);
  } else {
    // The statistics were constants (running mean and variance).
    centered = subtract(x, per_channel(saved_mean, x, a));
    rstd = per_channel(saved_variance, x, a);
    const Tensor k = scale_t ? multiply(rstd, per_channel(*scale_t, x, a)) : rstd;
    dx = multiply(grad, k);
    dscale = as_dtype(reshape_exact(sum(multiply(grad, multiply(centered, rstd)), a.reduced),
                                    a.channels),
                      scale_dtype);
    dbias = as_dtype(reshape_exact(sum(grad, a.reduced), a.channels), bias_dtype);
  }
  if (!batch) return {dx, dscale, dbias};
  // saved_mean = sum(x)/M, mean_out = m * mean + (1 - m) * sum(x)/M,
  // saved_variance = (sum(c^2)/M + eps)^-1/2, variance_out = m * var + (1 - m) * sum(c^2)/(M-1).
  const bool any_stat = grad_saved_mean.defined() || grad_mean_out.defined() ||
                        grad_saved_variance.defined() || grad_variance_out.defined();
  if (!any_stat) return {dx, dscale, dbias};
  const double n = bn_count(x, a);
  if (!centered.defined()) {  // fused path: from the saved statistics
    centered = subtract(x, per_channel(saved_mean, x, a));
    rstd = per_channel(saved_variance, x, a);
  }
  Tensor g_mean;  // d/dx of the mean-like outputs, per channel (times 1/M below)
  auto add_to = [](Tensor& acc, const Tensor& t) { acc = acc.defined() ? add(acc, t) : t; };
  if (grad_saved_mean.defined()) add_to(g_mean, per_channel(grad_saved_mean, x, a));
  if (grad_mean_out.defined()) {
    add_to(g_mean, scale(per_channel(grad_mean_out, x, a), Scalar(1.0 - momentum)));
  }
  if (g_mean.defined()) {
    dx = add(dx, scale(broadcast_to(g_mean, x.shape()), Scalar(1.0 / std::max(n, 1.0))));
  }
  Tensor g_sq;  // coefficient of the centred x
  if (grad_saved_variance.defined()) {
    const Tensor r3 = multiply(rstd, square(rstd));
    add_to(g_sq, scale(multiply(per_channel(grad_saved_variance, x, a), r3),
                       Scalar(-1.0 / std::max(n, 1.0))));
  }
  if (grad_variance_out.defined()) {
    add_to(g_sq, scale(per_channel(grad_variance_out, x, a),
                       Scalar(2.0 * (1.0 - momentum) / std::max(n - 1.0, 1.0))));
  }
  if (g_sq.defined()) dx = add(dx, multiply(centered, g_sq));
  return {dx, dscale, dbias};
}

}  // namespace skiff
