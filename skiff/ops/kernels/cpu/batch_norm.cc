// CPU kernels of batch_norm and batch_norm_grad: one pass for the statistics (two for the
// variance, centred on the mean), one fused pass for the output.
//
// Design: x is viewed as [outer, C, inner]: channels first gives outer = N, inner = the spatial
// size; channels last (and rank 2) gives outer = N * spatial, inner = 1. Channels-first sums run
// per channel (parallel over channels), each contiguous inner block through blocked_sum in the
// compute type, blocks added in double. Channels-last sums run over fixed chunks of rows (the
// same chunks for every thread count, so results do not depend on it), vectorized across the
// contiguous channels, chunks added in double in order. The output and the input gradient are
// one pass per element: y = (x - mean[c]) a[c] + bias[c] and
// dx = k1[c] dy + k2[c] (x - mean[c]) + k3[c] (centred, so a large mean cancels exactly). Loops run
// under run_best_isa; 16-bit x is computed in float with float32 statistics.
#include <array>
#include <cmath>
#include <vector>

#include "skiff/core/parallel.h"
#include "skiff/ops/generated/kernels/nn.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/cpu/nn_math.h"
#include "skiff/ops/meta/nn_meta.h"

namespace skiff::ops {

namespace {

using cpu::blocked_sum;
using cpu::load;
using cpu::store;

struct ChannelSplit {
  int64_t outer = 1, c = 1, inner = 1;
  int64_t count() const { return outer * inner; }  // elements per channel
};

ChannelSplit channel_split(std::string_view op, const Dims& dims, const std::string& format) {
  const int axis = meta::batch_norm_channel_axis(op, format, dims.size());
  ChannelSplit s;
  for (int i = 0; i < axis; ++i) s.outer *= dims[i];
  s.c = dims[axis];
  for (int i = axis + 1; i < dims.size(); ++i) s.inner *= dims[i];
  return s;
}

// A per-channel tensor (any float dtype) as doubles; `fill` when absent.
std::vector<double> channel_values(const DenseTensor* p, int64_t c, double fill) {
  std::vector<double> v(static_cast<size_t>(c), fill);
  if (!p) return v;
  const DenseTensor t = p->contiguous();
  visit_dtype(t.dtype(), [&](auto tag) {
    using P = decltype(tag);
    const P* d = static_cast<const P*>(t.raw_data());
    for (int64_t i = 0; i < c; ++i) v[i] = static_cast<double>(static_cast<compute_t<P>>(d[i]));
  });
  return v;
}

void write_channels(DenseTensor& t, const std::vector<double>& v) {
  visit_dtype(t.dtype(), [&](auto tag) {
    using P = decltype(tag);
    P* d = static_cast<P*>(t.raw_data());
    for (size_t i = 0; i < v.size(); ++i) d[i] = store<P>(static_cast<compute_t<P>>(v[i]));
  });
}

inline constexpr int64_t kChunkElems = 8192;  // channels-last: rows per chunk * C

// sums[k][c] = sum over channel c's elements of f(offset, c)[k], f returning std::array<C, K>.
template <typename C, int K, typename F>
std::array<std::vector<double>, K> channel_sums(const ChannelSplit& s, const F& f) {
  std::array<std::vector<double>, K> sums;
  for (auto& v : sums) v.assign(static_cast<size_t>(s.c), 0.0);
  if (s.count() == 0 || s.c == 0) return sums;
  if (s.inner > 1) {
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(s.count(), 1));
    parallel_for(0, s.c, grain, [&](int64_t b, int64_t e) {
      cpu::run_best_isa([&] {
        for (int64_t c = b; c < e; ++c) {
          for (int64_t n = 0; n < s.outer; ++n) {
            const int64_t base = (n * s.c + c) * s.inner;
            for (int k = 0; k < K; ++k) {
              sums[k][c] += blocked_sum<C>(s.inner, [&](int64_t i) { return f(base + i, c)[k]; });
            }
          }
        }
      });
    });
    return sums;
  }
  // Channels last: rows of C contiguous channels, in fixed chunks.
  const int64_t rows = std::max<int64_t>(1, kChunkElems / s.c);
  const int64_t chunks = (s.outer + rows - 1) / rows;
  std::vector<C> partial(static_cast<size_t>(chunks * K * s.c), C(0));
  parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
    cpu::run_best_isa([&] {
      for (int64_t ch = b; ch < e; ++ch) {
        C* acc = partial.data() + ch * K * s.c;
        const int64_t r1 = std::min(s.outer, (ch + 1) * rows);
        for (int64_t r = ch * rows; r < r1; ++r) {
          const int64_t base = r * s.c;
          for (int64_t c = 0; c < s.c; ++c) {
            const auto v = f(base + c, c);
            for (int k = 0; k < K; ++k) acc[k * s.c + c] += v[k];
          }
        }
      }
    });
  });
  for (int64_t ch = 0; ch < chunks; ++ch) {
    for (int k = 0; k < K; ++k) {
      for (int64_t c = 0; c < s.c; ++c) sums[k][c] += partial[(ch * K + k) * s.c + c];
    }
  }
  return sums;
}

// out[i] = f(i, c) for every element, c its channel (one pass, parallel).
template <typename F>
void channel_map(const ChannelSplit& s, const F& f) {
  if (s.inner > 1) {
    const int64_t planes = s.outer * s.c;
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / s.inner);
    parallel_for(0, planes, grain, [&](int64_t b, int64_t e) {
      cpu::run_best_isa([&] {
        for (int64_t p = b; p < e; ++p) {
          const int64_t c = p % s.c, base = p * s.inner;
          for (int64_t i = 0; i < s.inner; ++i) f(base + i, c);
        }
      });
    });
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(s.c, 1));
  parallel_for(0, s.outer, grain, [&](int64_t b, int64_t e) {
    cpu::run_best_isa([&] {
      for (int64_t r = b; r < e; ++r) {
        const int64_t base = r * s.c;
        for (int64_t c = 0; c < s.c; ++c) f(base + c, c);
      }
    });
  });
}

// Per-channel coefficients in the compute type, contiguous for the vectorized loops.
template <typename C>
std::vector<C> as_compute(const std::vector<double>& v) {
  return std::vector<C>(v.begin(), v.end());
}

bool uses_batch_stats(bool is_test, bool use_global_stats, bool trainable_statistics) {
  return !((is_test && !trainable_statistics) || use_global_stats);
}

}  // namespace

template <typename T>
void batch_norm_cpu(const KernelContext& ctx, const BatchNormArgs& a) {
  using C = compute_t<T>;
  const ChannelSplit s = channel_split(ctx.op, a.x.dims(), a.data_format);
  const DenseTensor x = a.x.contiguous();
  const T* px = x.data<T>();
  const int64_t count = s.count();
  const std::vector<double> run_mean = channel_values(&a.mean, s.c, 0.0);
  const std::vector<double> run_var = channel_values(&a.variance, s.c, 1.0);
  std::vector<double> mean = run_mean, var = run_var;
  std::vector<double> mean_out = run_mean, var_out = run_var;
  if (uses_batch_stats(a.is_test, a.use_global_stats, a.trainable_statistics) && count > 0) {
    const auto sums = channel_sums<C, 1>(s, [&](int64_t i, int64_t) {
      return std::array<C, 1>{load(px[i])};
    });
    for (int64_t c = 0; c < s.c; ++c) mean[c] = sums[0][c] / static_cast<double>(count);
    const std::vector<C> mc = as_compute<C>(mean);
    const auto sq = channel_sums<C, 1>(s, [&](int64_t i, int64_t c) {
      const C d = load(px[i]) - mc[c];
      return std::array<C, 1>{d * d};
    });
    const double m = a.momentum;
    for (int64_t c = 0; c < s.c; ++c) {
      var[c] = sq[0][c] / static_cast<double>(count);
      const double unbiased = sq[0][c] / static_cast<double>(std::max<int64_t>(count - 1, 1));
      mean_out[c] = m * run_mean[c] + (1.0 - m) * mean[c];
      var_out[c] = m * run_var[c] + (1.0 - m) * unbiased;
    }
  }
  const std::vector<double> scale = channel_values(a.scale ? &*a.scale : nullptr, s.c, 1.0);
  const std::vector<double> bias = channel_values(a.bias ? &*a.bias : nullptr, s.c, 0.0);
  std::vector<double> inv_std(s.c), ka(s.c);
  for (int64_t c = 0; c < s.c; ++c) {
    inv_std[c] = 1.0 / std::sqrt(var[c] + static_cast<double>(a.epsilon));
    ka[c] = scale[c] * inv_std[c];
  }
  write_channels(*a.mean_out, mean_out);
  write_channels(*a.variance_out, var_out);
  write_channels(*a.saved_mean, mean);
  write_channels(*a.saved_variance, inv_std);
  if (count == 0) return;
  const std::vector<C> cm = as_compute<C>(mean), ca = as_compute<C>(ka), cb = as_compute<C>(bias);
  T* py = a.out->data<T>();
  channel_map(s, [&](int64_t i, int64_t c) {
    py[i] = store<T>((load(px[i]) - cm[c]) * ca[c] + cb[c]);
  });
}
SKIFF_INSTANTIATE_KERNEL(batch_norm, cpu)

template <typename T>
void batch_norm_grad_cpu(const KernelContext& ctx, const BatchNormGradArgs& a) {
  using C = compute_t<T>;
  const ChannelSplit s = channel_split(ctx.op, a.x.dims(), a.data_format);
  const DenseTensor x = a.x.contiguous(), dy = a.out_grad.contiguous();
  const T* px = x.data<T>();
  const T* pdy = dy.data<T>();
  const std::vector<double> mean = channel_values(&a.saved_mean, s.c, 0.0);
  const std::vector<double> inv_std = channel_values(&a.saved_variance, s.c, 1.0);
  const std::vector<double> scale = channel_values(a.scale ? &*a.scale : nullptr, s.c, 1.0);
  const std::vector<C> mc = as_compute<C>(mean);
  // sum(dy) and sum(dy * (x - mean)) per channel, in one pass.
  const auto sums = channel_sums<C, 2>(s, [&](int64_t i, int64_t c) {
    const C g = load(pdy[i]);
    return std::array<C, 2>{g, g * (load(px[i]) - mc[c])};
  });
  std::vector<double> dscale(s.c), k1(s.c), k2(s.c, 0.0), k3(s.c, 0.0);
  const double count = static_cast<double>(s.count());
  for (int64_t c = 0; c < s.c; ++c) {
    dscale[c] = sums[1][c] * inv_std[c];
    k1[c] = scale[c] * inv_std[c];
    if (!a.use_global_stats && count > 0) {
      // dx = k1 (dy - sum(dy)/M - (x - mean) inv_std^2 sum(dy (x - mean))/M)
      k2[c] = -k1[c] * inv_std[c] * inv_std[c] * sums[1][c] / count;
      k3[c] = -k1[c] * sums[0][c] / count;
    }
  }
  write_channels(*a.scale_grad, dscale);
  write_channels(*a.bias_grad, sums[0]);
  if (s.count() == 0) return;
  const std::vector<C> c1 = as_compute<C>(k1), c2 = as_compute<C>(k2), c3 = as_compute<C>(k3);
  T* pdx = a.x_grad->data<T>();
  channel_map(s, [&](int64_t i, int64_t c) {
    pdx[i] = store<T>(c1[c] * load(pdy[i]) + c2[c] * (load(px[i]) - mc[c]) + c3[c]);
  });
}
SKIFF_INSTANTIATE_KERNEL(batch_norm_grad, cpu)

}  // namespace skiff::ops
