// CPU kernels of softmax, log_softmax, layer_norm and rms_norm.
//
// Design: inputs are made contiguous and viewed as rows. Each row is processed while it sits in
// cache (max, exp-sum, scale for softmax; mean, variance, write for the norms), so the tensor
// crosses memory once for reading and once for writing. Row loops run under run_best_isa
// (AVX-512/AVX2 builds of the same code) and are split across threads by rows. The compute type
// is float for float32 and 16-bit inputs (exp through the exp_f32 polynomial, nn_math.h) and
// double for float64. Softmax over an inner axis (stride > 1) walks blocks of columns with a
// max and a sum per column.
#include "skiff/ops/generated/kernels/nn.h"

#include <cmath>
#include <vector>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/cpu/nn_math.h"

namespace skiff::ops {

namespace {

using cpu::blocked_sum;
using cpu::exp_c;
using cpu::lane_max;
using cpu::load;
using cpu::store;

struct AxisSplit {
  int64_t outer = 1, n = 1, inner = 1;
};

AxisSplit split_at(const Dims& dims, int axis) {
  AxisSplit s;
  if (dims.size() == 0) return s;
  for (int i = 0; i < axis; ++i) s.outer *= dims[i];
  s.n = dims[axis];
  for (int i = axis + 1; i < dims.size(); ++i) s.inner *= dims[i];
  return s;
}

int64_t rows_grain(int64_t row_len) {
  return std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(row_len, 1));
}

// Softmax of one contiguous row of n elements.
template <typename T, bool kLog>
inline void softmax_row(const T* x, T* y, int64_t n) {
  using C = compute_t<T>;
  const C m = lane_max<C>(n, [&](int64_t i) { return load(x[i]); });
  if constexpr (kLog) {
    const double s = blocked_sum<C>(n, [&](int64_t i) { return exp_c<C>(load(x[i]) - m); });
    const C log_s = static_cast<C>(std::log(s));  // (x - m) - log_s keeps x - m exact
    for (int64_t i = 0; i < n; ++i) y[i] = store<T>((load(x[i]) - m) - log_s);
  } else if constexpr (std::is_same_v<T, C>) {  // keep the exp values in y, then scale
    const double s = blocked_sum<C>(n, [&](int64_t i) {
      const C v = exp_c<C>(x[i] - m);
      y[i] = v;
      return v;
    });
    const C inv = static_cast<C>(1.0 / s);
    for (int64_t i = 0; i < n; ++i) y[i] *= inv;
  } else {  // 16-bit storage: recompute exp rather than round it before scaling
    const double s = blocked_sum<C>(n, [&](int64_t i) { return exp_c<C>(load(x[i]) - m); });
    const C inv = static_cast<C>(1.0 / s);
    for (int64_t i = 0; i < n; ++i) y[i] = store<T>(exp_c<C>(load(x[i]) - m) * inv);
  }
}

inline constexpr int64_t kColumnBlock = 256;

// Softmax along a strided axis (n steps of `inner`) for `w` adjacent columns.
template <typename T, bool kLog>
inline void softmax_columns(const T* x, T* y, int64_t n, int64_t inner, int64_t w) {
  using C = compute_t<T>;
  C m[kColumnBlock];
  double s[kColumnBlock];
  for (int64_t k = 0; k < w; ++k) {
    m[k] = -std::numeric_limits<C>::infinity();
    s[k] = 0;
  }
  for (int64_t j = 0; j < n; ++j) {
    const T* r = x + j * inner;
    for (int64_t k = 0; k < w; ++k) {
      const C v = load(r[k]);
      m[k] = v > m[k] ? v : m[k];
    }
  }
  for (int64_t j = 0; j < n; ++j) {
    const T* r = x + j * inner;
    for (int64_t k = 0; k < w; ++k) s[k] += exp_c<C>(load(r[k]) - m[k]);
  }
  if constexpr (kLog) {
    C log_s[kColumnBlock];
    for (int64_t k = 0; k < w; ++k) log_s[k] = static_cast<C>(std::log(s[k]));
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t k = 0; k < w; ++k) {
        y[j * inner + k] = store<T>((load(x[j * inner + k]) - m[k]) - log_s[k]);
      }
    }
  } else {
    C inv[kColumnBlock];
    for (int64_t k = 0; k < w; ++k) inv[k] = static_cast<C>(1.0 / s[k]);
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t k = 0; k < w; ++k) {
        y[j * inner + k] = store<T>(exp_c<C>(load(x[j * inner + k]) - m[k]) * inv[k]);
      }
    }
  }
}

template <typename T, bool kLog>
void softmax_impl(const char* op, const DenseTensor& x_in, DenseTensor& out, int64_t axis) {
  if (out.numel() == 0) return;
  const DenseTensor x = x_in.contiguous();
  const AxisSplit s = split_at(x.dims(), normalize_axis(axis, x.rank(), op));
  const T* px = x.data<T>();
  T* py = out.data<T>();
  if (s.inner == 1) {
    parallel_for(0, s.outer, rows_grain(s.n), [&](int64_t b, int64_t e) {
      cpu::run_best_isa([&] {
        for (int64_t r = b; r < e; ++r) softmax_row<T, kLog>(px + r * s.n, py + r * s.n, s.n);
      });
    });
    return;
  }
  const int64_t blocks = (s.inner + kColumnBlock - 1) / kColumnBlock;
  parallel_for(0, s.outer * blocks, rows_grain(s.n * kColumnBlock), [&](int64_t b, int64_t e) {
    cpu::run_best_isa([&] {
      for (int64_t t = b; t < e; ++t) {
        const int64_t o = t / blocks, k0 = (t % blocks) * kColumnBlock;
        const int64_t off = o * s.n * s.inner + k0;
        softmax_columns<T, kLog>(px + off, py + off, s.n, s.inner,
                                 std::min(kColumnBlock, s.inner - k0));
      }
    });
  });
}

// A per-feature parameter (scale, bias, weight) as `right` values of the compute type; `fill`
// when absent.
template <typename C>
std::vector<C> param_values(const DenseTensor* p, int64_t right, C fill) {
  std::vector<C> v(right, fill);
  if (!p) return v;
  const DenseTensor c = p->contiguous();
  visit_dtype(c.dtype(), [&](auto tag) {
    using P = decltype(tag);
    const P* d = static_cast<const P*>(c.raw_data());
    for (int64_t i = 0; i < right; ++i) v[i] = static_cast<C>(static_cast<compute_t<P>>(d[i]));
  });
  return v;
}

// x viewed as [left, right] with right = prod(dims[begin:]).
std::pair<int64_t, int64_t> norm_split(const Dims& dims, int begin) {
  int64_t left = 1;
  for (int i = 0; i < begin; ++i) left *= dims[i];
  int64_t right = 1;
  for (int i = begin; i < dims.size(); ++i) right *= dims[i];
  return {left, right};
}

}  // namespace

template <typename T>
void softmax_cpu(const KernelContext& ctx, const SoftmaxArgs& a) {
  softmax_impl<T, false>(ctx.op, a.x, *a.out, a.axis);
}
SKIFF_INSTANTIATE_KERNEL(softmax, cpu)

template <typename T>
void log_softmax_cpu(const KernelContext& ctx, const LogSoftmaxArgs& a) {
  softmax_impl<T, true>(ctx.op, a.x, *a.out, a.axis);
}
SKIFF_INSTANTIATE_KERNEL(log_softmax, cpu)

template <typename T>
void layer_norm_cpu(const KernelContext& ctx, const LayerNormArgs& a) {
  using C = compute_t<T>;
  const DenseTensor x = a.x.contiguous();
  const auto [left, right] =
      norm_split(x.dims(), normalize_axis(a.begin_norm_axis, x.rank(), ctx.op, "begin_norm_axis"));
  if (left == 0) return;
  const std::vector<C> scale = param_values<C>(a.scale, right, C(1));
  const std::vector<C> bias = param_values<C>(a.bias, right, C(0));
  const T* px = x.data<T>();
  T* py = a.out->data<T>();
  C* pm = a.mean->data<C>();
  C* pv = a.variance->data<C>();
  const double eps = a.epsilon;
  parallel_for(0, left, rows_grain(right), [&](int64_t b, int64_t e) {
    cpu::run_best_isa([&] {
      const C* sc = scale.data();
      const C* bi = bias.data();
      for (int64_t row = b; row < e; ++row) {
        const T* r = px + row * right;
        T* y = py + row * right;
        const double mean_d = blocked_sum<C>(right, [&](int64_t i) { return load(r[i]); }) / right;
        const C mean = static_cast<C>(mean_d);
        const double var = blocked_sum<C>(right,
                                          [&](int64_t i) {
                                            const C d = load(r[i]) - mean;
                                            return d * d;
                                          }) /
                           right;
        const C rstd = static_cast<C>(1.0 / std::sqrt(var + eps));
        for (int64_t i = 0; i < right; ++i) {
          y[i] = store<T>((load(r[i]) - mean) * rstd * sc[i] + bi[i]);
        }
        pm[row] = mean;
        pv[row] = static_cast<C>(var);
      }
    });
  });
}
SKIFF_INSTANTIATE_KERNEL(layer_norm, cpu)

template <typename T>
void rms_norm_cpu(const KernelContext& ctx, const RmsNormArgs& a) {
  using C = compute_t<T>;
  const DenseTensor x = a.x.contiguous();
  const auto [left, right] =
      norm_split(x.dims(), normalize_axis(a.begin_norm_axis, x.rank(), ctx.op, "begin_norm_axis"));
  if (left == 0) return;
  const std::vector<C> weight = param_values<C>(a.weight, right, C(1));
  const T* px = x.data<T>();
  T* py = a.out->data<T>();
  C* pr = a.inv_rms->data<C>();
  const double eps = a.epsilon;
  parallel_for(0, left, rows_grain(right), [&](int64_t b, int64_t e) {
    cpu::run_best_isa([&] {
      const C* w = weight.data();
      for (int64_t row = b; row < e; ++row) {
        const T* r = px + row * right;
        T* y = py + row * right;
        const double ms = blocked_sum<C>(right,
                                         [&](int64_t i) {
                                           const C v = load(r[i]);
                                           return v * v;
                                         }) /
                          right;
        const C inv = static_cast<C>(1.0 / std::sqrt(ms + eps));
        for (int64_t i = 0; i < right; ++i) y[i] = store<T>(load(r[i]) * inv * w[i]);
        pr[row] = inv;
      }
    });
  });
}
SKIFF_INSTANTIATE_KERNEL(rms_norm, cpu)

}  // namespace skiff::ops
