// The CPU reduction engine behind sum, mean, prod, max, min, amax, amin, all and any.
//
// Design. The input is made contiguous, size-1 dims are dropped and neighbouring dims that are
// both reduced or both kept are merged, so any reduction becomes alternating groups such as
// [K, R], [R, K] or [R, K, R]. Two loop shapes cover every case without copying:
//  - inner: the last group is reduced. Each output reduces contiguous runs of n elements (one
//    run per index of the outer reduced groups) with `kLanes` independent accumulators that
//    the compiler keeps in vector registers; runs are summed in blocks combined pairwise (a
//    binary-counter cascade), so fp32 sums are pairwise sums.
//  - outer: the last group is kept (m contiguous outputs). Rows of m elements, one per reduced
//    index, are folded into an accumulator tile vectorized along m; blocks of rows are again
//    combined pairwise.
// Work is split across threads over outputs; when there are fewer output tasks than threads
// (a full reduction, a sum over the rows of a few columns) the reduced range itself is split and
// the per-thread partials combined in a fixed order (deterministic for a given thread count).
// Reducers are small structs: Acc, init(), step(acc, value) and combine(acc, acc).
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/core/parallel.h"
#include "skiff/ops/kernels/cpu/isa.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops::cpu {

/// The accumulator of sums and products: float for 32- and 16-bit floats (pairwise summation
/// keeps fp32 accurate), double for float64, int64 for integers and bool.
template <typename T>
using sum_acc_t =
    std::conditional_t<std::is_same_v<T, double>, double,
                       std::conditional_t<std::is_floating_point_v<compute_t<T>>, float, int64_t>>;

template <typename A>
struct SumReducer {
  using Acc = A;
  static Acc init() { return Acc(0); }
  static Acc step(Acc a, Acc v) { return a + v; }
  static Acc combine(Acc a, Acc b) { return a + b; }
};

template <typename A>
struct ProdReducer {
  using Acc = A;
  static Acc init() { return Acc(1); }
  static Acc step(Acc a, Acc v) { return a * v; }
  static Acc combine(Acc a, Acc b) { return a * b; }
};

/// max with NaN propagation (numpy, Paddle): a NaN accumulator stays, a NaN value wins.
template <typename A>
struct MaxReducer {
  using Acc = A;
  static Acc init() {
    if constexpr (std::is_floating_point_v<A>) return -std::numeric_limits<A>::infinity();
    return std::numeric_limits<A>::lowest();
  }
  static Acc step(Acc a, Acc v) {
    if constexpr (std::is_floating_point_v<A>) return (a != a || a >= v) ? a : v;
    return a >= v ? a : v;
  }
  static Acc combine(Acc a, Acc b) { return step(a, b); }
};

template <typename A>
struct MinReducer {
  using Acc = A;
  static Acc init() {
    if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::infinity();
    return std::numeric_limits<A>::max();
  }
  static Acc step(Acc a, Acc v) {
    if constexpr (std::is_floating_point_v<A>) return (a != a || a <= v) ? a : v;
    return a <= v ? a : v;
  }
  static Acc combine(Acc a, Acc b) { return step(a, b); }
};

struct AllReducer {
  using Acc = bool;
  static Acc init() { return true; }
  static Acc step(Acc a, Acc v) { return a & v; }
  static Acc combine(Acc a, Acc b) { return a & b; }
};

struct AnyReducer {
  using Acc = bool;
  static Acc init() { return false; }
  static Acc step(Acc a, Acc v) { return a | v; }
  static Acc combine(Acc a, Acc b) { return a | b; }
};

namespace reduce_detail {

/// Accumulator lanes: 256 bytes, e.g. 64 floats = 4 zmm / 8 ymm registers of independent chains.
template <typename Acc>
inline constexpr int kLanes = 256 / sizeof(Acc);
/// Elements per pairwise leaf (each lane adds 32 values in sequence).
template <typename Acc>
inline constexpr int64_t kBlock = kLanes<Acc> * 32;
/// Rows per pairwise leaf in the outer loop, and the output tile width it folds them into.
inline constexpr int64_t kRowBlock = 32;
inline constexpr int64_t kTile = 256;
/// Depth of the pairwise cascades (2^48 leaves).
inline constexpr int kMaxLevels = 48;

template <typename Acc, typename T>
inline Acc to_acc(T v) {
  return static_cast<Acc>(load(v));
}

/// Reduces x[0, n) with kLanes independent accumulators (vectorized).
template <typename R, typename T>
inline typename R::Acc reduce_block(const T* x, int64_t n) {
  using Acc = typename R::Acc;
  constexpr int L = kLanes<Acc>;
  if (n < 2 * L) {
    Acc a = R::init();
    for (int64_t i = 0; i < n; ++i) a = R::step(a, to_acc<Acc>(x[i]));
    return a;
  }
  Acc acc[L];
  for (int j = 0; j < L; ++j) acc[j] = R::init();
  int64_t i = 0;
  for (; i + L <= n; i += L) {
    for (int j = 0; j < L; ++j) acc[j] = R::step(acc[j], to_acc<Acc>(x[i + j]));
  }
  for (int j = 0; i < n; ++i, ++j) acc[j] = R::step(acc[j], to_acc<Acc>(x[i]));
  for (int w = L / 2; w >= 1; w /= 2) {
    for (int j = 0; j < w; ++j) acc[j] = R::combine(acc[j], acc[j + w]);
  }
  return acc[0];
}

/// Pairwise reduction of the contiguous run x[0, n): blocks merged by a binary counter.
template <typename R, typename T>
inline typename R::Acc reduce_run(const T* x, int64_t n) {
  using Acc = typename R::Acc;
  constexpr int64_t B = kBlock<Acc>;
  if (n <= B) return reduce_block<R>(x, n);
  Acc stack[kMaxLevels];
  int top = 0;
  int64_t count = 0;
  for (int64_t b = 0; b < n; b += B) {
    Acc s = reduce_block<R>(x + b, std::min(B, n - b));
    for (int64_t k = count++; k & 1; k >>= 1) s = R::combine(stack[--top], s);
    stack[top++] = s;
  }
  Acc r = stack[--top];
  while (top > 0) r = R::combine(stack[--top], r);
  return r;
}

/// A multi-index walking a set of (size, stride) groups in row-major order; `offset` in elements.
struct Odometer {
  int rank = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
  int64_t idx[kMaxRank] = {};
  int64_t offset = 0;

  void add(int64_t size, int64_t stride) {
    sizes[rank] = size;
    strides[rank++] = stride;
  }
  int64_t count() const {
    int64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= sizes[d];
    return n;
  }
  void seek(int64_t flat) {
    offset = 0;
    for (int d = rank - 1; d >= 0; --d) {
      idx[d] = flat % sizes[d];
      flat /= sizes[d];
      offset += idx[d] * strides[d];
    }
  }
  void next() {
    for (int d = rank - 1; d >= 0; --d) {
      offset += strides[d];
      if (++idx[d] < sizes[d]) return;
      offset -= sizes[d] * strides[d];
      idx[d] = 0;
    }
  }
};

/// The collapsed loop structure of a reduction of a contiguous tensor.
struct ReducePlan {
  bool inner = true;  // the innermost group is reduced
  int64_t len = 1;    // size of the innermost group (run length n, or output width m)
  Odometer kept;      // kept groups, minus the innermost one in the outer case
  Odometer reduced;   // reduced groups, minus the innermost one in the inner case
};

ReducePlan plan_reduction(const Dims& dims, const std::vector<bool>& mask);

/// acc[0, w) = step(acc, rows) over rows [r0, r1) of the outer loop, pairwise over row blocks.
/// `stack` holds kMaxLevels * kTile accumulators.
template <typename R, typename T>
inline void reduce_rows(const T* base, Odometer rows, int64_t r0, int64_t r1, int64_t w,
                        typename R::Acc* acc, typename R::Acc* stack) {
  using Acc = typename R::Acc;
  rows.seek(r0);
  int top = 0;
  int64_t count = 0;
  Acc leaf[kTile];
  for (int64_t r = r0; r < r1;) {
    const int64_t end = std::min(r1, r + kRowBlock);
    for (int64_t j = 0; j < w; ++j) leaf[j] = R::init();
    for (; r < end; ++r, rows.next()) {
      const T* row = base + rows.offset;
      for (int64_t j = 0; j < w; ++j) leaf[j] = R::step(leaf[j], to_acc<Acc>(row[j]));
    }
    for (int64_t k = count++; k & 1; k >>= 1) {
      const Acc* prev = stack + (--top) * kTile;
      for (int64_t j = 0; j < w; ++j) leaf[j] = R::combine(prev[j], leaf[j]);
    }
    Acc* slot = stack + (top++) * kTile;
    for (int64_t j = 0; j < w; ++j) slot[j] = leaf[j];
  }
  for (int64_t j = 0; j < w; ++j) acc[j] = R::init();
  while (top > 0) {
    const Acc* s = stack + (--top) * kTile;
    for (int64_t j = 0; j < w; ++j) acc[j] = R::combine(s[j], acc[j]);
  }
}

}  // namespace reduce_detail

/// out[o] = fin(reduction over the masked dims of x) for every output element; `out` is
/// contiguous with x's kept dims in order (keepdim or not). `fin` maps R::Acc to Out.
template <typename R, typename T, typename Out, typename Fin>
void reduce(const DenseTensor& x_in, const std::vector<bool>& mask, DenseTensor& out,
            const Fin& fin) {
  using namespace reduce_detail;
  using Acc = typename R::Acc;
  const int64_t n_out = out.numel();
  if (n_out == 0) return;
  Out* o = static_cast<Out*>(out.raw_data());
  if (x_in.numel() == 0) {
    for (int64_t i = 0; i < n_out; ++i) o[i] = store<Out>(fin(R::init()));
    return;
  }
  const DenseTensor x = x_in.contiguous();
  const T* px = static_cast<const T*>(x.raw_data());
  const ReducePlan plan = plan_reduction(x.dims(), mask);
  const int threads = num_threads();

  if (plan.reduced.rank == 0 && !plan.inner) {  // nothing reduced: out = fin(x)
    parallel_for(0, n_out, kParallelGrain, [&](int64_t b, int64_t e) {
      run_best_isa([&] {
        for (int64_t i = b; i < e; ++i)
          o[i] = store<Out>(fin(R::step(R::init(), to_acc<Acc>(px[i]))));
      });
    });
    return;
  }

  if (plan.inner) {
    const int64_t n = plan.len, runs = plan.reduced.count();
    const int64_t work = runs * n;
    // One output's reduction over the flat reduced range [f0, f1) of (run, element) pairs.
    auto partial = [&](int64_t base, int64_t f0, int64_t f1) {
      Odometer rs = plan.reduced;
      Acc acc = R::init();
      int64_t run = f0 / n, pos = f0 % n;
      rs.seek(run);
      for (int64_t f = f0; f < f1; ++run, rs.next()) {
        const int64_t len = std::min(n - pos, f1 - f);
        acc = R::combine(acc, reduce_run<R>(px + base + rs.offset + pos, len));
        f += len;
        pos = 0;
      }
      return acc;
    };
    if (n_out >= threads || work * n_out <= kParallelGrain) {
      const int64_t grain = std::max<int64_t>(1, kParallelGrain / work);
      parallel_for(0, n_out, grain, [&](int64_t b, int64_t e) {
        Odometer ks = plan.kept;
        ks.seek(b);
        run_best_isa([&] {
          for (int64_t i = b; i < e; ++i, ks.next())
            o[i] = store<Out>(fin(partial(ks.offset, 0, work)));
        });
      });
      return;
    }
    // Few outputs: split each output's reduced range across threads.
    std::unique_ptr<Acc[]> parts(new Acc[threads]);  // not vector<bool>: threads write
    Odometer ks = plan.kept;
    ks.seek(0);
    for (int64_t i = 0; i < n_out; ++i, ks.next()) {
      const int64_t chunk = (work + threads - 1) / threads;
      parallel_for(0, threads, 1, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
          const int64_t f0 = std::min(work, t * chunk), f1 = std::min(work, f0 + chunk);
          run_best_isa([&] { parts[t] = partial(ks.offset, f0, f1); });
        }
      });
      Acc acc = parts[0];
      for (int t = 1; t < threads; ++t) acc = R::combine(acc, parts[t]);
      o[i] = store<Out>(fin(acc));
    }
    return;
  }

  // Outer loop: m contiguous outputs per kept index, rows over every reduced index.
  const int64_t m = plan.len, rows = plan.reduced.count(), outer = plan.kept.count();
  const int64_t tiles = (m + kTile - 1) / kTile, tasks = outer * tiles;
  auto fold = [&](int64_t task, int64_t r0, int64_t r1, Acc* acc, Acc* stack) {
    Odometer ks = plan.kept;
    ks.seek(task / tiles);
    const int64_t j0 = (task % tiles) * kTile;
    run_best_isa([&] {
      reduce_rows<R>(px + ks.offset + j0, plan.reduced, r0, r1, std::min(kTile, m - j0), acc,
                     stack);
    });
  };
  if (tasks >= threads || rows * m * outer <= 2 * kParallelGrain) {
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / (rows * std::min(m, kTile)));
    parallel_for(0, tasks, grain, [&](int64_t b, int64_t e) {
      std::unique_ptr<Acc[]> stack(new Acc[kMaxLevels * kTile]);
      Acc acc[kTile];
      for (int64_t t = b; t < e; ++t) {
        fold(t, 0, rows, acc, stack.get());
        const int64_t j0 = (t % tiles) * kTile, w = std::min(kTile, m - j0);
        Out* po = o + (t / tiles) * m + j0;
        for (int64_t j = 0; j < w; ++j) po[j] = store<Out>(fin(acc[j]));
      }
    });
    return;
  }
  // Few output tiles: split the rows across threads, combine the partial tiles in order.
  std::unique_ptr<Acc[]> parts(new Acc[static_cast<size_t>(threads) * tasks * kTile]);
  const int64_t chunk = (rows + threads - 1) / threads;
  parallel_for(0, threads, 1, [&](int64_t b, int64_t e) {
    std::unique_ptr<Acc[]> stack(new Acc[kMaxLevels * kTile]);
    for (int64_t th = b; th < e; ++th) {
      const int64_t r0 = std::min(rows, th * chunk), r1 = std::min(rows, r0 + chunk);
      for (int64_t t = 0; t < tasks; ++t) {
        fold(t, r0, r1, parts.get() + (th * tasks + t) * kTile, stack.get());
      }
    }
  });
  for (int64_t t = 0; t < tasks; ++t) {
    const int64_t j0 = (t % tiles) * kTile, w = std::min(kTile, m - j0);
    Out* po = o + (t / tiles) * m + j0;
    for (int64_t j = 0; j < w; ++j) {
      Acc acc = parts[t * kTile + j];
      for (int th = 1; th < threads; ++th)
        acc = R::combine(acc, parts[(th * tasks + t) * kTile + j]);
      po[j] = store<Out>(fin(acc));
    }
  }
}

}  // namespace skiff::ops::cpu
