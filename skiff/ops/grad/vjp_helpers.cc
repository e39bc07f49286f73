#include "skiff/ops/grad/vjp_helpers.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "skiff/ops/generated/api.h"

namespace skiff {

namespace {

// Reduced axes, normalized and sorted; all axes when `axis` is empty.
std::vector<int64_t> reduced_axes(const std::vector<int64_t>& axis, int rank) {
  std::vector<int64_t> r;
  if (axis.empty()) {
    for (int i = 0; i < rank; ++i) r.push_back(i);
    return r;
  }
  for (int64_t a : axis) r.push_back(normalize_axis(a, rank, "grad"));
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

// A captured tensor may have sizes known only at run time (-1, e.g. Paddle's None batch dim).
bool has_dynamic_dim(const Tensor& x) {
  for (int i = 0; i < x.rank(); ++i) {
    if (x.dims()[i] < 0) return true;
  }
  return false;
}

int64_t reduced_count(const Tensor& x, const std::vector<int64_t>& axes) {
  int64_t n = 1;
  for (int64_t a : axes) {
    // A captured tensor may have sizes known only at run time (-1): the count must be static.
    const int64_t d = x.dims()[static_cast<int>(a)];
    SKIFF_ENFORCE(d >= 0, kUnimplemented, "reduction gradient", "x",
                  "static sizes in the reduced axes (capture with a fixed input shape)", x.dims());
    n *= d;
  }
  return n;
}

// A reduced result (keepdim or not) reshaped so it broadcasts against x.
Tensor keep_dims(const Tensor& t, const Tensor& x, const std::vector<int64_t>& axes, bool keepdim) {
  if (keepdim || x.rank() == 0) return t;
  std::vector<int64_t> shape = x.shape();
  for (int64_t a : axes) shape[a] = 1;
  return reshape(t, shape);
}

Tensor scalar_like(const Tensor& like, double value) { return full_like(like, Scalar(value)); }

std::vector<int64_t> tail_axes(int rank, int64_t begin) {
  std::vector<int64_t> axes;
  for (int64_t i = begin; i < rank; ++i) axes.push_back(i);
  return axes;
}

std::vector<int64_t> head_axes(int64_t end) {
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < end; ++i) axes.push_back(i);
  return axes;
}

}  // namespace

Tensor unbroadcast(const Tensor& grad, const Tensor& like) {
  if (grad.dims() == like.dims()) return grad;
  return reduce_as(grad, like);
}

Tensor reduce_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axis,
                   bool keepdim) {
  const auto axes = reduced_axes(axis, x.rank());
  if (has_dynamic_dim(x)) {
    // x's shape exists only when the program runs: restore the reduced axes without a static
    // shape, and broadcast by multiplying with ones of x's run-time shape.
    Tensor g = keepdim || x.rank() == 0 ? grad : unsqueeze(grad, axes);
    return multiply(g, ones_like(x, grad.dtype()));
  }
  return broadcast_to(keep_dims(grad, x, axes, keepdim), x.shape());
}

Tensor mean_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axis,
                 bool keepdim) {
  const auto axes = reduced_axes(axis, x.rank());
  bool dynamic_count = false;
  for (int64_t a : axes) dynamic_count = dynamic_count || x.dims()[static_cast<int>(a)] < 0;
  if (dynamic_count) {
    // The count of reduced elements, computed when the program runs.
    Tensor n = sum(ones_like(x, grad.dtype()), axes, DType::kUndefined, true);
    return divide(reduce_grad(grad, x, axis, keepdim), n);
  }
  const double n = static_cast<double>(std::max<int64_t>(reduced_count(x, axes), 1));
  return scale(reduce_grad(grad, x, axis, keepdim), Scalar(1.0 / n));
}

Tensor extreme_grad(const Tensor& grad, const Tensor& x, const Tensor& out,
                    const std::vector<int64_t>& axis, bool keepdim) {
  const auto axes = reduced_axes(axis, x.rank());
  const Tensor hit = cast(equal(x, keep_dims(out, x, axes, keepdim)), x.dtype());
  const Tensor count = sum(hit, axes, DType::kUndefined, /*keepdim=*/true);
  return divide(multiply(reduce_grad(grad, x, axis, keepdim), hit), count);
}

Tensor prod_grad(const Tensor& grad, const Tensor& x, const Tensor& out,
                 const std::vector<int64_t>& axis, bool keepdim) {
  // d prod / d x_i = prod / x_i (inputs with zeros get no exact gradient: documented gap),
  // conjugated for complex x (grad * conj(prod / x_i)).
  const auto axes = reduced_axes(axis, x.rank());
  return divide(
      multiply(reduce_grad(grad, x, axis, keepdim),
               conj_if_complex(broadcast_to(keep_dims(out, x, axes, keepdim), x.shape()))),
      conj_if_complex(x));
}

Tensor logsumexp_grad(const Tensor& grad, const Tensor& x, const Tensor& out,
                      const std::vector<int64_t>& axis, bool keepdim) {
  const auto axes = reduced_axes(axis, x.rank());
  return multiply(reduce_grad(grad, x, axis, keepdim),
                  exp(subtract(x, keep_dims(out, x, axes, keepdim))));
}

Tensor var_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axis,
                bool unbiased, bool keepdim) {
  const auto axes = reduced_axes(axis, x.rank());
  const double n = static_cast<double>(reduced_count(x, axes)) - (unbiased ? 1.0 : 0.0);
  const Tensor centered = subtract(x, mean(x, axes, /*keepdim=*/true));
  return multiply(reduce_grad(grad, x, axis, keepdim), scale(centered, Scalar(2.0 / n)));
}

Tensor std_grad(const Tensor& grad, const Tensor& x, const Tensor& out,
                const std::vector<int64_t>& axis, bool unbiased, bool keepdim) {
  return var_grad(divide(grad, scale(out, Scalar(2.0))), x, axis, unbiased, keepdim);
}

Tensor p_norm_grad(const Tensor& grad, const Tensor& x, const Tensor& out, float porder,
                   int64_t axis, bool keepdim, bool asvector) {
  const std::vector<int64_t> axes = asvector ? std::vector<int64_t>{} : std::vector<int64_t>{axis};
  const auto norm_axes = reduced_axes(axes, x.rank());
  const Tensor g = reduce_grad(grad, x, axes, keepdim || asvector ? keepdim : false);
  const Tensor n = broadcast_to(keep_dims(out, x, norm_axes, keepdim), x.shape());
  if (std::isinf(porder)) {  // the gradient goes to the elements whose |x| is the norm
    const Tensor hit = cast(equal(abs(x), n), x.dtype());
    const Tensor count = sum(hit, norm_axes, DType::kUndefined, true);
    return divide(multiply(multiply(g, sign(x)), hit), count);
  }
  if (porder == 0.0f) return zeros_like(x);
  // d ||x||_p / dx = sign(x) |x|^(p-1) / ||x||^(p-1)
  const Tensor num = multiply(sign(x), pow(abs(x), Scalar(static_cast<double>(porder) - 1.0)));
  return multiply(g, divide(num, pow(n, Scalar(static_cast<double>(porder) - 1.0))));
}

Tensor cumsum_grad(const Tensor& grad, const Tensor& x, const Scalar& axis, bool flatten,
                   bool exclusive, bool reverse) {
  if (flatten) {
    const Tensor flat = reshape(grad, {-1});
    return reshape(cumsum(flat, Scalar(int64_t{0}), false, exclusive, !reverse), x.shape());
  }
  return cumsum(grad, axis, false, exclusive, !reverse);
}

Tensor gelu_grad(const Tensor& grad, const Tensor& x, bool approximate) {
  if (!approximate) {
    // d/dx [x Phi(x)] = Phi(x) + x phi(x)
    const Tensor cdf = scale(erf(scale(x, Scalar(M_SQRT1_2))), Scalar(0.5), Scalar(0.5));
    const Tensor pdf =
        scale(exp(scale(square(x), Scalar(-0.5))), Scalar(0.5 * M_2_SQRTPI * M_SQRT1_2));
    return multiply(grad, add(cdf, multiply(x, pdf)));
  }
  // tanh form: 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3)
  const double k = std::sqrt(2.0 / M_PI);
  const Tensor x3 = multiply(square(x), x);
  const Tensor t = tanh(scale(add(x, scale(x3, Scalar(0.044715))), Scalar(k)));
  const Tensor du = scale(scale(square(x), Scalar(3 * 0.044715), Scalar(1.0)), Scalar(k));
  const Tensor dt = multiply(scale(square(t), Scalar(-1.0), Scalar(1.0)), du);
  return multiply(grad,
                  add(scale(t, Scalar(0.5), Scalar(0.5)), scale(multiply(x, dt), Scalar(0.5))));
}

Tensor silu_grad(const Tensor& grad, const Tensor& x) {
  const Tensor s = sigmoid(x);
  return multiply(
      grad, conj_if_complex(multiply(
                s, add(scalar_like(x, 1.0), multiply(x, scale(s, Scalar(-1.0), Scalar(1.0)))))));
}

Tensor softplus_grad(const Tensor& grad, const Tensor& x, float beta, float threshold) {
  const Tensor bx = scale(x, Scalar(static_cast<double>(beta)));
  const Tensor linear = greater_than(bx, scalar_like(bx, threshold));
  return where(linear, grad, multiply(grad, sigmoid(bx)));
}

Tensor hardswish_grad(const Tensor& grad, const Tensor& x) {
  const Tensor inner = scale(x, Scalar(1.0 / 3.0), Scalar(0.5));  // (2x + 3) / 6
  const Tensor g = where(less_than(x, scalar_like(x, -3.0)), zeros_like(grad),
                         where(greater_than(x, scalar_like(x, 3.0)), grad, multiply(grad, inner)));
  return g;
}

Tensor hardsigmoid_grad(const Tensor& grad, const Tensor& x, float slope, float offset) {
  const Tensor y =
      scale(x, Scalar(static_cast<double>(slope)), Scalar(static_cast<double>(offset)));
  const Tensor inside =
      logical_and(greater_than(y, scalar_like(y, 0.0)), less_than(y, scalar_like(y, 1.0)));
  return where(inside, scale(grad, Scalar(static_cast<double>(slope))), zeros_like(grad));
}

Tensor mish_grad(const Tensor& grad, const Tensor& x) {
  // mish = x tanh(sp), sp = softplus(x); d = tanh(sp) + x (1 - tanh(sp)^2) sigmoid(x)
  const Tensor t = tanh(softplus(x));
  const Tensor d =
      add(t, multiply(multiply(x, scale(square(t), Scalar(-1.0), Scalar(1.0))), sigmoid(x)));
  return multiply(grad, d);
}

Tensor matmul_grad(const Tensor& grad, const Tensor& x, const Tensor& y, bool transpose_x,
                   bool transpose_y, bool wrt_x) {
  // 1-D operands take part as a row (x) or a column (y); transposes do not apply to them.
  const bool x1 = x.rank() == 1, y1 = y.rank() == 1;
  // Complex operands: dx = g y^H, dy = x^H g (the conjugate of the other factor).
  const Tensor x2 = conj_if_complex(x1 ? unsqueeze(x, {0}) : x);
  const Tensor y2 = conj_if_complex(y1 ? unsqueeze(y, {-1}) : y);
  const bool tx = transpose_x && !x1, ty = transpose_y && !y1;
  Tensor g2 = grad;
  if (y1) g2 = unsqueeze(g2, {-1});
  if (x1) g2 = unsqueeze(g2, {-2});
  if (wrt_x) {
    Tensor d = tx ? matmul(y2, g2, ty, true) : matmul(g2, y2, false, !ty);
    return reshape(unbroadcast(d, x2), x.shape());
  }
  Tensor d = ty ? matmul(g2, x2, true, tx) : matmul(x2, g2, !tx, false);
  return reshape(unbroadcast(d, y2), y.shape());
}

Tensor dot_grad(const Tensor& grad, const Tensor& other) {
  return multiply(grad.rank() < other.rank() ? unsqueeze(grad, {-1}) : grad, other);
}

namespace {
FlattenOrderFn g_dist_flatten_order = nullptr;
}  // namespace

void set_flatten_order_for_kind(TensorKind kind, FlattenOrderFn fn) {
  if (kind == TensorKind::kDist) g_dist_flatten_order = fn;
}

Tensor linear_weight_grad(const Tensor& grad, const Tensor& x, const Tensor& weight) {
  const int64_t in = weight.dims()[0], out = weight.dims()[1];
  int64_t rows = 1;
  for (int i = 0; i + 1 < x.rank(); ++i) rows *= x.dims()[i];
  Tensor xs = x, gs = grad;
  if (x.rank() > 2 && grad.rank() == x.rank() && x.kind() == TensorKind::kDist &&
      g_dist_flatten_order != nullptr) {
    std::vector<int64_t> perm = g_dist_flatten_order(x);
    perm.push_back(x.rank() - 1);
    std::vector<int64_t> identity(perm.size());
    std::iota(identity.begin(), identity.end(), 0);
    if (perm != identity) {
      xs = transpose(x, perm);
      gs = transpose(grad, perm);
    }
  }
  return matmul(reshape_exact(xs, {rows, in}), reshape_exact(gs, {rows, out}), true, false);
}

Tensor softmax_grad(const Tensor& grad, const Tensor& out, int64_t axis) {
  const Tensor dot = sum(multiply(grad, out), {axis}, DType::kUndefined, true);
  return multiply(out, subtract(grad, dot));
}

Tensor log_softmax_grad(const Tensor& grad, const Tensor& out, int64_t axis) {
  return subtract(grad, multiply(exp(out), sum(grad, {axis}, DType::kUndefined, true)));
}

namespace {
// Normalized axes [begin, rank) of a layer/rms norm and the shapes on each side of them.
struct NormAxes {
  int64_t begin;
  std::vector<int64_t> axes;
  std::vector<int64_t> tail_shape;
  std::vector<int64_t> stat_shape;  // x's shape with the normalized dims set to 1
  double count;
};

NormAxes norm_axes(const Tensor& x, int64_t begin_norm_axis) {
  const int rank = x.rank();
  NormAxes n;
  n.begin =
      std::clamp<int64_t>(begin_norm_axis < 0 ? begin_norm_axis + rank : begin_norm_axis, 0, rank);
  n.axes = tail_axes(rank, n.begin);
  const std::vector<int64_t> shape = x.shape();
  n.tail_shape.assign(shape.begin() + n.begin, shape.end());
  n.stat_shape = shape;
  n.count = 1;
  for (int64_t a : n.axes) {
    n.count *= static_cast<double>(shape[a]);
    n.stat_shape[a] = 1;
  }
  return n;
}
}  // namespace

Tensor layer_norm_grad(const Tensor& grad, const Tensor& grad_mean, const Tensor& grad_variance,
                       const Tensor& x, const std::optional<Tensor>& scale_t,
                       const std::optional<Tensor>& bias, float epsilon, int64_t begin_norm_axis,
                       int wrt) {
  // Recomputed from x as a composition of differentiable ops, so it can be differentiated again.
  const NormAxes n = norm_axes(x, begin_norm_axis);
  const Tensor mu = mean(x, n.axes, true);
  const Tensor centered = subtract(x, mu);
  const Tensor var = mean(square(centered), n.axes, true);
  const Tensor rstd = rsqrt(scale(var, Scalar(1.0), Scalar(static_cast<double>(epsilon))));
  const Tensor xhat = multiply(centered, rstd);
  const auto head = head_axes(n.begin);
  if (wrt == 2) return reshape_exact(sum(grad, head), bias->shape());
  if (wrt == 1) return reshape_exact(sum(multiply(grad, xhat), head), scale_t->shape());
  const Tensor gy = scale_t ? multiply(grad, reshape_exact(*scale_t, n.tail_shape)) : grad;
  const Tensor a = mean(gy, n.axes, true);
  const Tensor b = mean(multiply(gy, xhat), n.axes, true);
  Tensor dx = multiply(rstd, subtract(subtract(gy, a), multiply(xhat, b)));
  // mean = sum(x)/N and variance = sum((x - mean)^2)/N are outputs too; their gradients are
  // undefined when nothing used them (the record's undefined_grads).
  if (grad_mean.defined()) {
    const Tensor gm = reshape_exact(cast(grad_mean, x.dtype()), n.stat_shape);
    dx = add(dx, scale(broadcast_to(gm, x.shape()), Scalar(1.0 / std::max(n.count, 1.0))));
  }
  if (grad_variance.defined()) {
    const Tensor gv = reshape_exact(cast(grad_variance, x.dtype()), n.stat_shape);
    dx = add(dx, multiply(gv, scale(centered, Scalar(2.0 / std::max(n.count, 1.0)))));
  }
  return dx;
}

Tensor rms_norm_grad(const Tensor& grad, const Tensor& grad_inv_rms, const Tensor& x,
                     const std::optional<Tensor>& weight, float epsilon, int64_t begin_norm_axis,
                     int wrt) {
  const NormAxes n = norm_axes(x, begin_norm_axis);
  const Tensor rstd = rsqrt(
      scale(mean(square(x), n.axes, true), Scalar(1.0), Scalar(static_cast<double>(epsilon))));
  const Tensor xhat = multiply(x, rstd);
  if (wrt == 1) {
    return reshape_exact(sum(multiply(grad, xhat), head_axes(n.begin)), weight->shape());
  }
  const Tensor gy = weight ? multiply(grad, reshape_exact(*weight, n.tail_shape)) : grad;
  Tensor dx = multiply(rstd, subtract(gy, multiply(xhat, mean(multiply(gy, xhat), n.axes, true))));
  // inv_rms = (mean(x^2) + eps)^-1/2: d/dx = -inv_rms^3 x / N (undefined when unused).
  if (!grad_inv_rms.defined()) return dx;
  const Tensor gr = reshape_exact(cast(grad_inv_rms, x.dtype()), n.stat_shape);
  const Tensor r3 = multiply(rstd, square(rstd));
  return add(dx, multiply(multiply(gr, r3), scale(x, Scalar(-1.0 / std::max(n.count, 1.0)))));
}

Tensor cross_entropy_grad(const Tensor& grad_softmax, const Tensor& grad_loss, const Tensor& logits,
                          const Tensor& softmax, const Tensor& label, bool soft_label,
                          bool use_softmax, int64_t ignore_index, int64_t axis) {
  if (!use_softmax) {
    // The input already holds probabilities: loss = -sum(label * log p), softmax output = p.
    Tensor target = label;
    if (!soft_label) {
      const Tensor valid = not_equal(label, full_like(label, Scalar(ignore_index)));
      const Tensor safe = where(valid, label, zeros_like(label));
      target =
          multiply(put_along_axis(zeros_like(logits), safe, ones_like(grad_loss), axis, "assign"),
                   cast(valid, logits.dtype()));
    }
    const Tensor from_loss = neg(multiply(divide(target, logits), grad_loss));
    return grad_softmax.defined() ? add(from_loss, grad_softmax) : from_loss;
  }
  Tensor from_loss;
  if (soft_label) {
    // loss = -sum(label * log softmax): d/dlogits = softmax * sum(label) - label
    const Tensor total = sum(label, {axis}, DType::kUndefined, true);
    from_loss = multiply(subtract(multiply(softmax, total), label), grad_loss);
  } else {
    const Tensor valid = not_equal(label, full_like(label, Scalar(ignore_index)));
    const Tensor safe = where(valid, label, zeros_like(label));
    const Tensor onehot =
        put_along_axis(zeros_like(softmax), safe, ones_like(grad_loss), axis, "assign");
    const Tensor g = multiply(grad_loss, cast(valid, grad_loss.dtype()));
    from_loss = multiply(subtract(softmax, onehot), g);
  }
  // grad_softmax is undefined when nothing used the softmax output (the record's
  // undefined_grads): then there is no softmax-gradient pass.
  return grad_softmax.defined() ? add(from_loss, softmax_grad(grad_softmax, softmax, axis))
                                : from_loss;
}

Tensor embedding_grad(const Tensor& grad, const Tensor& x, const Tensor& weight,
                      int64_t padding_idx) {
  const int64_t width = weight.dims()[1];
  Tensor g = reshape_exact(grad, {x.numel(), width});
  const Tensor ids = reshape_exact(x, {x.numel()});
  if (padding_idx >= 0) {
    const Tensor keep = not_equal(ids, full_like(ids, Scalar(padding_idx)));
    g = multiply(g, unsqueeze(cast(keep, g.dtype()), {-1}));
  }
  return index_add(zeros_like(weight), ids, 0, g);
}

Tensor dropout_grad(const Tensor& grad, const Tensor& mask, float p, bool is_test,
                    const std::string& mode) {
  const bool upscale = mode == "upscale_in_train";
  if (is_test) return upscale ? grad : scale(grad, Scalar(1.0 - p));
  const Tensor m = multiply(grad, cast(mask, grad.dtype()));
  return upscale ? scale(m, Scalar(p >= 1.0f ? 0.0 : 1.0 / (1.0 - p))) : m;
}

Tensor transpose_grad(const Tensor& grad, const std::vector<int64_t>& perm) {
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    inverse[normalize_axis(perm[i], static_cast<int>(perm.size()), "transpose_grad")] =
        static_cast<int64_t>(i);
  }
  return transpose(grad, inverse);
}

std::vector<Tensor> concat_grad(const Tensor& grad, const std::vector<Tensor>& x, int64_t axis) {
  const int a = normalize_axis(axis, grad.rank(), "concat_grad");
  std::vector<int64_t> sections;
  for (const Tensor& t : x) sections.push_back(t.dims()[a]);
  return split(grad, sections, a);
}

Tensor tile_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& repeat_times) {
  // View grad as [r0, s0, r1, s1, ...] and sum over the repeat axes.
  const int rank = std::max<int>(x.rank(), static_cast<int>(repeat_times.size()));
  std::vector<int64_t> shape(rank, 1), reps(rank, 1);
  for (int i = 0; i < x.rank(); ++i) shape[rank - x.rank() + i] = x.dims()[i];
  for (size_t i = 0; i < repeat_times.size(); ++i) {
    reps[rank - repeat_times.size() + i] = repeat_times[i];
  }
  std::vector<int64_t> split_shape, axes;
  for (int i = 0; i < rank; ++i) {
    axes.push_back(static_cast<int64_t>(split_shape.size()));
    split_shape.push_back(reps[i]);
    split_shape.push_back(shape[i]);
  }
  return reshape_exact(sum(reshape_exact(grad, split_shape), axes), x.shape());
}

Tensor slice_grad(const Tensor& grad, const Tensor& input, const std::vector<int64_t>& axes,
                  const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                  const std::vector<int64_t>& decrease_axis) {
  const int rank = input.rank();
  Tensor g = grad;
  if (!decrease_axis.empty()) {
    std::vector<int64_t> shape = input.shape();
    for (size_t i = 0; i < axes.size(); ++i) {
      const int a = normalize_axis(axes[i], rank, "slice_grad");
      const int64_t n = shape[a];
      auto clamp = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
      shape[a] = std::max<int64_t>(0, clamp(ends[i]) - clamp(starts[i]));
    }
    g = reshape(grad, shape);
  }
  std::vector<int64_t> paddings(2 * rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int a = normalize_axis(axes[i], rank, "slice_grad");
    const int64_t n = input.dims()[a];
    auto clamp = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
    const int64_t s = clamp(starts[i]), e = std::max(clamp(ends[i]), s);
    paddings[2 * a] = s;
    paddings[2 * a + 1] = n - e;
  }
  return pad(g, paddings, "constant", 0.0f);
}

Tensor reshape_exact(const Tensor& t, const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n == 0) return full(shape, Scalar(0.0), t.dtype());  // no elements: nothing to carry
  return reshape(t, shape);
}

Tensor gather_grad(const Tensor& grad, const Tensor& x, const Tensor& index, int64_t axis) {
  if (index.rank() == 0) {  // a scalar index drops the axis: put it back
    return index_add(zeros_like(x), reshape(index, {1}), axis, unsqueeze(grad, {axis}));
  }
  return index_add(zeros_like(x), index, axis, grad);
}

Tensor outer_grad(const Tensor& grad, const Tensor& x, const Tensor& y, bool wrt_x) {
  // outer flattens its inputs: [m] x [n] -> [m, n].
  if (wrt_x) return reshape_exact(matmul(grad, reshape_exact(y, {y.numel()})), x.shape());
  return reshape_exact(matmul(grad, reshape_exact(x, {x.numel()}), true, false), y.shape());
}

Tensor scatter_along_grad(const Tensor& grad, const Tensor& x, const Tensor& indices,
                          int64_t axis) {
  if (x.rank() == 0) return grad;
  return put_along_axis(zeros_like(x), indices, grad, axis, "add");
}

namespace {

// 1 at the positions of `like` that put_along_axis writes, 0 elsewhere.
Tensor touched(const Tensor& like, const Tensor& indices, const Tensor& values, int64_t axis) {
  return put_along_axis(zeros_like(like), indices, ones_like(values), axis, "assign");
}

}  // namespace

Tensor put_along_axis_grad(const Tensor& grad, const Tensor& arr, const Tensor& out,
                           const Tensor& indices, const Tensor& values, int64_t axis,
                           const std::string& reduce, bool include_self, int wrt) {
  const bool mul = reduce == "mul" || reduce == "multiply";
  if (reduce == "mean") {
    // out[p] = (self + sum of the values put at p) / count[p]; untouched positions keep arr.
    const Tensor base = include_self ? ones_like(grad) : zeros_like(grad);
    const Tensor count = put_along_axis(base, indices, ones_like(values), axis, "add");
    const Tensor share = divide(grad, maximum(count, ones_like(count)));
    if (wrt == 1) return reduce_as(take_along_axis(share, indices, axis), values);
    if (include_self) return share;
    return multiply(grad, subtract(ones_like(grad), touched(grad, indices, values, axis)));
  }
  if (reduce == "amax" || reduce == "amin") {
    // The gradient goes to the elements equal to the result, split evenly among ties (torch's
    // rule); self counts when included, and always where nothing was put.
    const DType dt = grad.dtype();
    const Tensor self_eq = include_self
                               ? cast(equal(arr, out), dt)
                               : subtract(ones_like(grad), touched(grad, indices, values, axis));
    const Tensor picked = take_along_axis(out, indices, axis);
    const Tensor value_eq = cast(equal(add(values, zeros_like(picked)), picked), dt);
    const Tensor ties = put_along_axis(self_eq, indices, value_eq, axis, "add");
    const Tensor share = divide(grad, maximum(ties, ones_like(ties)));
    if (wrt == 1)
      return reduce_as(multiply(take_along_axis(share, indices, axis), value_eq), values);
    return multiply(share, self_eq);
  }
  SKIFF_ENFORCE(reduce == "assign" || reduce == "add" || mul, kUnimplemented, "put_along_axis_grad",
                "reduce", "'assign', 'add', 'mul', 'mean', 'amax' or 'amin'", reduce);
  if (mul) {
    // out[p] = (include_self ? arr[p] : 1) * prod of the values put at p; values must be
    // non-zero (like Paddle's rule, the value gradient divides by the value).
    if (wrt == 1) {
      const Tensor share = take_along_axis(multiply(grad, out), indices, axis);
      return reduce_as(divide(share, values), values);
    }
    const Tensor factor =
        include_self ? put_along_axis(ones_like(grad), indices, values, axis, "mul")
                     : put_along_axis(ones_like(grad), indices, zeros_like(values), axis, "assign");
    return multiply(grad, factor);
  }
  if (wrt == 1) return reduce_as(take_along_axis(grad, indices, axis), values);
  if (reduce == "add" && include_self) return grad;
  // Assigned positions were overwritten: no gradient flows to the old values there.
  return put_along_axis(grad, indices, zeros_like(values), axis, "assign");
}

std::vector<int64_t> negated(const std::vector<int64_t>& v) {
  std::vector<int64_t> r;
  for (int64_t x : v) r.push_back(-x);
  return r;
}

}  // namespace skiff
