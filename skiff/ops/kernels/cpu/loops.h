// Elementwise loop machinery for CPU kernels. Operands are viewed through broadcast strides
// (0 on broadcast dims), dims that are contiguous in every operand are collapsed, and the
// innermost run is handed to a typed loop: contiguous runs are plain indexed loops the compiler
// vectorizes (compiled per ISA, see isa.h); other runs use strides. Outer runs are split across
// threads above kParallelGrain elements.
#pragma once

#include <array>
#include <type_traits>

#include "skiff/core/dense_tensor.h"
#include "skiff/core/parallel.h"
#include "skiff/ops/kernels/complex_math.h"
#include "skiff/ops/kernels/cpu/isa.h"

namespace skiff::ops::cpu {

/// Strides of `t` read as an operand of shape `out` (right-aligned; 0 where broadcast).
Dims broadcast_strides(const DenseTensor& t, const Dims& out);

template <int N>
struct LoopPlan {
  int rank = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides[N][kMaxRank] = {};
};

/// Drops size-1 dims and merges neighbours that are contiguous with each other in every operand.
template <int N>
LoopPlan<N> plan_loop(const Dims& dims, const std::array<Dims, N>& strides) {
  LoopPlan<N> p;
  for (int i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (p.rank > 0) {
      const int j = p.rank - 1;
      bool mergeable = true;
      for (int k = 0; k < N; ++k) mergeable &= p.strides[k][j] == strides[k][i] * dims[i];
      if (mergeable) {
        p.sizes[j] *= dims[i];
        for (int k = 0; k < N; ++k) p.strides[k][j] = strides[k][i];
        continue;
      }
    }
    p.sizes[p.rank] = dims[i];
    for (int k = 0; k < N; ++k) p.strides[k][p.rank] = strides[k][i];
    ++p.rank;
  }
  if (p.rank == 0) {  // a scalar: one run of one element
    p.rank = 1;
    p.sizes[0] = 1;
  }
  return p;
}

/// Calls run(offsets, inner_strides, n) for every innermost run, offsets in elements.
template <int N, typename Run>
void for_each_run(const LoopPlan<N>& p, const Run& run) {
  const int inner = p.rank - 1;
  const int64_t n = p.sizes[inner];
  int64_t outer = 1;
  for (int i = 0; i < inner; ++i) outer *= p.sizes[i];
  std::array<int64_t, N> inner_strides;
  for (int k = 0; k < N; ++k) inner_strides[k] = p.strides[k][inner];
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1));
  parallel_for(0, outer, grain, [&](int64_t begin, int64_t end) {
    for (int64_t o = begin; o < end; ++o) {
      std::array<int64_t, N> off{};
      int64_t rem = o;
      for (int d = inner - 1; d >= 0; --d) {
        const int64_t idx = rem % p.sizes[d];
        rem /= p.sizes[d];
        for (int k = 0; k < N; ++k) off[k] += idx * p.strides[k][d];
      }
      run(off, inner_strides, n);
    }
  });
}

/// Loads a stored element as its compute type (float for float16/bfloat16).
template <typename T>
inline compute_t<T> load(T v) {
  return static_cast<compute_t<T>>(v);
}
/// Stores a computed value as T (rounding to nearest even for float16/bfloat16).
template <typename T, typename V>
inline T store(V v) {
  if constexpr (is_complex_v<T> || is_complex_v<V>)
    return value_cast<T>(v);
  else if constexpr (std::is_same_v<T, bool>)
    return static_cast<bool>(v);
  else
    return static_cast<T>(v);
}

/// out[i] = f(x[i]) over out's elements; `out` is contiguous, `x` any strides and broadcastable.
template <typename Out, typename In, typename F>
void unary_loop(const DenseTensor& x, DenseTensor& out, const F& f) {
  const int64_t n = out.numel();
  if (n == 0) return;
  Out* o = static_cast<Out*>(out.raw_data());
  const In* xi = static_cast<const In*>(x.raw_data());
  if (x.is_contiguous() && x.dims() == out.dims()) {
    parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
      run_best_isa([&] {
        for (int64_t i = b; i < e; ++i) o[i] = store<Out>(f(load(xi[i])));
      });
    });
    return;
  }
  const auto plan = plan_loop<2>(out.dims(), {out.strides(), broadcast_strides(x, out.dims())});
  for_each_run(
      plan, [&](const std::array<int64_t, 2>& off, const std::array<int64_t, 2>& st, int64_t len) {
        Out* po = o + off[0];
        const In* px = xi + off[1];
        const int64_t sx = st[1];
        run_best_isa([&] {
          for (int64_t i = 0; i < len; ++i) po[i] = store<Out>(f(load(px[i * sx])));
        });
      });
}

/// out[i] = f(x[i], y[i]) with numpy broadcasting; `out` is contiguous.
template <typename Out, typename A, typename B, typename F>
void binary_loop(const DenseTensor& x, const DenseTensor& y, DenseTensor& out, const F& f) {
  const int64_t n = out.numel();
  if (n == 0) return;
  Out* o = static_cast<Out*>(out.raw_data());
  const A* xa = static_cast<const A*>(x.raw_data());
  const B* yb = static_cast<const B*>(y.raw_data());
  const bool x_full = x.is_contiguous() && x.dims() == out.dims();
  const bool y_full = y.is_contiguous() && y.dims() == out.dims();
  if (x_full && y_full) {
    parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
      run_best_isa([&] {
        for (int64_t i = b; i < e; ++i) o[i] = store<Out>(f(load(xa[i]), load(yb[i])));
      });
    });
    return;
  }
  if (x_full && y.numel() == 1) {
    const auto yv = load(yb[0]);
    parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
      run_best_isa([&] {
        for (int64_t i = b; i < e; ++i) o[i] = store<Out>(f(load(xa[i]), yv));
      });
    });
    return;
  }
  const auto plan = plan_loop<3>(out.dims(), {out.strides(), broadcast_strides(x, out.dims()),
                                              broadcast_strides(y, out.dims())});
  for_each_run(
      plan, [&](const std::array<int64_t, 3>& off, const std::array<int64_t, 3>& st, int64_t len) {
        Out* po = o + off[0];
        const A* px = xa + off[1];
        const B* py = yb + off[2];
        const int64_t sx = st[1], sy = st[2];
        run_best_isa([&] {
          if (sx == 1 && sy == 1) {
            for (int64_t i = 0; i < len; ++i) po[i] = store<Out>(f(load(px[i]), load(py[i])));
          } else if (sx == 1 && sy == 0) {
            const auto yv = load(py[0]);
            for (int64_t i = 0; i < len; ++i) po[i] = store<Out>(f(load(px[i]), yv));
          } else if (sx == 0 && sy == 1) {
            const auto xv = load(px[0]);
            for (int64_t i = 0; i < len; ++i) po[i] = store<Out>(f(xv, load(py[i])));
          } else {
            for (int64_t i = 0; i < len; ++i) {
              po[i] = store<Out>(f(load(px[i * sx]), load(py[i * sy])));
            }
          }
        });
      });
}

/// out[i] = f(a[i], b[i], c[i]) with broadcasting (where, lerp, clip with tensor bounds).
template <typename Out, typename A, typename B, typename C, typename F>
void ternary_loop(const DenseTensor& a, const DenseTensor& b, const DenseTensor& c,
                  DenseTensor& out, const F& f) {
  if (out.numel() == 0) return;
  Out* o = static_cast<Out*>(out.raw_data());
  const A* pa = static_cast<const A*>(a.raw_data());
  const B* pb = static_cast<const B*>(b.raw_data());
  const C* pc = static_cast<const C*>(c.raw_data());
  const auto plan = plan_loop<4>(
      out.dims(), {out.strides(), broadcast_strides(a, out.dims()),
                   broadcast_strides(b, out.dims()), broadcast_strides(c, out.dims())});
  for_each_run(
      plan, [&](const std::array<int64_t, 4>& off, const std::array<int64_t, 4>& st, int64_t len) {
        Out* po = o + off[0];
        const A* qa = pa + off[1];
        const B* qb = pb + off[2];
        const C* qc = pc + off[3];
        run_best_isa([&] {
          for (int64_t i = 0; i < len; ++i) {
            po[i] = store<Out>(f(load(qa[i * st[1]]), load(qb[i * st[2]]), load(qc[i * st[3]])));
          }
        });
      });
}

}  // namespace skiff::ops::cpu
