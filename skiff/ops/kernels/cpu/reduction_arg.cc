// CPU kernels of argmax/argmin (one axis, or the flattened tensor) and of the scans cumsum and
// cumprod. x is made contiguous and viewed as [outer, n, inner] around the axis. With inner == 1
// each row is scanned in sequence; otherwise the loop runs along the n rows of `inner` contiguous
// elements, vectorized over inner. Threads split outer x inner tiles. argmax/argmin pick the
// first extreme and a NaN beats every number (numpy, Paddle); scans accumulate in double for
// floats (float for float16/bfloat16), complex128 for complex and int64 for integers.
#include <cmath>
#include <vector>

#include "skiff/ops/generated/kernels/reduction.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops {

namespace {

struct AxisView {
  DenseTensor x;  // contiguous
  int64_t outer = 1, n = 1, inner = 1;
};

AxisView axis_view(const DenseTensor& x, int64_t axis, bool flatten, const char* op,
                   const char* arg) {
  AxisView v{x.contiguous()};
  if (flatten || x.rank() == 0) {
    v.n = x.numel();
    return v;
  }
  const int a = normalize_axis(axis, x.rank(), op, arg);
  for (int i = 0; i < x.rank(); ++i) {
    int64_t& f = i < a ? v.outer : (i == a ? v.n : v.inner);
    f *= x.dim(i);
  }
  return v;
}

template <typename V>
inline bool is_nan(V v) {
  if constexpr (std::is_floating_point_v<V>) return v != v;
  return false;
}

/// True if v replaces best: strictly better, or the first NaN.
template <bool kMax, typename V>
inline bool better(V v, V best) {
  if constexpr (kMax) {
    return v > best || (is_nan(v) && !is_nan(best));
  } else {
    return v < best || (is_nan(v) && !is_nan(best));
  }
}

constexpr int64_t kTile = 256;

template <bool kMax, typename T, typename I>
void arg_reduce(const AxisView& v, DenseTensor& out) {
  using V = compute_t<T>;
  const T* px = static_cast<const T*>(v.x.raw_data());
  I* po = static_cast<I*>(out.raw_data());
  const int64_t n = v.n, inner = v.inner;
  if (inner == 1) {
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / n);
    parallel_for(0, v.outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* row = px + o * n;
        V best = cpu::load(row[0]);
        int64_t bi = 0;
        for (int64_t j = 1; j < n; ++j) {
          const V x = cpu::load(row[j]);
          if (better<kMax>(x, best)) best = x, bi = j;
        }
        po[o] = static_cast<I>(bi);
      }
    });
    return;
  }
  const int64_t tiles = (inner + kTile - 1) / kTile;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / (n * std::min(inner, kTile)));
  parallel_for(0, v.outer * tiles, grain, [&](int64_t b, int64_t e) {
    V best[kTile];
    int64_t bi[kTile];
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / tiles, k0 = (t % tiles) * kTile, w = std::min(kTile, inner - k0);
      const T* base = px + o * n * inner + k0;
      cpu::run_best_isa([&] {
        for (int64_t k = 0; k < w; ++k) best[k] = cpu::load(base[k]), bi[k] = 0;
        for (int64_t j = 1; j < n; ++j) {
          const T* row = base + j * inner;
          for (int64_t k = 0; k < w; ++k) {
            const V x = cpu::load(row[k]);
            const bool up = better<kMax>(x, best[k]);
            best[k] = up ? x : best[k];
            bi[k] = up ? j : bi[k];
          }
        }
      });
      I* dst = po + o * inner + k0;
      for (int64_t k = 0; k < w; ++k) dst[k] = static_cast<I>(bi[k]);
    }
  });
}

template <bool kMax, typename T, typename Args>
void arg_kernel(const Args& a, const char* op) {
  if (a.out->numel() == 0) return;  // e.g. argmax of [0, 3] along axis 1 (the reduced axis is 3)
  const AxisView v = axis_view(a.x, a.axis.template to<int64_t>(), a.flatten, op, "axis");
  if (a.out->dtype() == DType::kInt32) return arg_reduce<kMax, T, int32_t>(v, *a.out);
  arg_reduce<kMax, T, int64_t>(v, *a.out);
}

template <typename T>
using scan_acc_t = std::conditional_t<
    is_complex_v<T>, complex128,
    std::conditional_t<std::is_floating_point_v<T>, double,
                       std::conditional_t<std::is_integral_v<T>, int64_t, float>>>;

template <bool kSum, typename T>
void scan(const AxisView& v, DenseTensor& out, bool exclusive, bool reverse) {
  using Acc = scan_acc_t<T>;
  if (out.numel() == 0) return;
  const T* px = static_cast<const T*>(v.x.raw_data());
  T* po = static_cast<T*>(out.raw_data());
  const int64_t n = v.n, inner = v.inner;
  const Acc init = kSum ? Acc(0) : Acc(1);
  auto op = [](Acc a, Acc x) { return kSum ? a + x : a * x; };
  if (inner == 1) {  // one sequential scan per row
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1));
    parallel_for(0, v.outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* src = px + o * n;
        T* dst = po + o * n;
        Acc acc = init;
        if (reverse) {
          for (int64_t j = n - 1; j >= 0; --j) {
            const Acc next = op(acc, static_cast<Acc>(cpu::load(src[j])));
            dst[j] = cpu::store<T>(exclusive ? acc : next);
            acc = next;
          }
          continue;
        }
        for (int64_t j = 0; j < n; ++j) {
          const Acc next = op(acc, static_cast<Acc>(cpu::load(src[j])));
          dst[j] = cpu::store<T>(exclusive ? acc : next);
          acc = next;
        }
      }
    });
    return;
  }
  const int64_t tiles = (inner + kTile - 1) / kTile;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / (n * std::min(inner, kTile)));
  parallel_for(0, v.outer * tiles, grain, [&](int64_t b, int64_t e) {
    Acc acc[kTile];
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / tiles, k0 = (t % tiles) * kTile, w = std::min(kTile, inner - k0);
      const T* src = px + o * n * inner + k0;
      T* dst = po + o * n * inner + k0;
      cpu::run_best_isa([&] {
        for (int64_t k = 0; k < w; ++k) acc[k] = init;
        for (int64_t s = 0; s < n; ++s) {
          const int64_t j = reverse ? n - 1 - s : s;
          const T* row = src + j * inner;
          T* orow = dst + j * inner;
          for (int64_t k = 0; k < w; ++k) {
            const Acc x = static_cast<Acc>(cpu::load(row[k]));
            const Acc next = op(acc[k], x);
            orow[k] = cpu::store<T>(exclusive ? acc[k] : next);
            acc[k] = next;
          }
        }
      });
    }
  });
}

}  // namespace

template <typename T>
void argmax_cpu(const KernelContext&, const ArgmaxArgs& a) {
  arg_kernel<true, T>(a, "argmax");
}
SKIFF_INSTANTIATE_KERNEL(argmax, cpu)

template <typename T>
void argmin_cpu(const KernelContext&, const ArgminArgs& a) {
  arg_kernel<false, T>(a, "argmin");
}
SKIFF_INSTANTIATE_KERNEL(argmin, cpu)

template <typename T>
void cumsum_cpu(const KernelContext&, const CumsumArgs& a) {
  const AxisView v = axis_view(a.x, a.axis.to<int64_t>(), a.flatten, "cumsum", "axis");
  scan<true, T>(v, *a.out, a.exclusive, a.reverse);
}
SKIFF_INSTANTIATE_KERNEL(cumsum, cpu)

template <typename T>
void cumprod_cpu(const KernelContext&, const CumprodArgs& a) {
  const AxisView v = axis_view(a.x, a.dim, false, "cumprod", "dim");
  scan<false, T>(v, *a.out, a.exclusive, a.reverse);
}
SKIFF_INSTANTIATE_KERNEL(cumprod, cpu)

}  // namespace skiff::ops
