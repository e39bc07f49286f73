// CPU kernels of the statistics ops. x is made contiguous and viewed as [outer, n, inner] around
// the axis; each of the outer * inner lanes is scanned in sequence and lanes run in parallel.
// cummax/cummin follow Paddle's (and torch's) update rule: a NaN or a tie takes the newer index.
// logcumsumexp accumulates a running logaddexp in double. mode stable-sorts each lane (NaN last)
// and takes the longest run of equal values (the first, i.e. smallest, of equally long runs; the
// index of its last element). searchsorted binary-searches each value's row. poisson draws per
// element from its own Philox counter, one round (counter_hi) per attempt.
#include "skiff/ops/generated/kernels/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "skiff/core/generator.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops {

namespace {

struct Lanes {
  DenseTensor x;  // contiguous
  int64_t outer = 1, n = 1, inner = 1;
};

Lanes lanes(const DenseTensor& x, int64_t axis, bool flatten, const char* op) {
  Lanes v{x.contiguous()};
  if (flatten || x.rank() == 0) {
    v.n = x.numel();
    return v;
  }
  const int a = normalize_axis(axis, x.rank(), op, "axis");
  for (int i = 0; i < x.rank(); ++i) {
    int64_t& f = i < a ? v.outer : (i == a ? v.n : v.inner);
    f *= x.dim(i);
  }
  return v;
}

/// f(base offset of the lane) for every lane, lanes split across threads.
template <typename F>
void for_each_lane(const Lanes& v, int64_t cost_per_lane, const F& f) {
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(cost_per_lane, 1));
  parallel_for(0, v.outer * v.inner, grain, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) f((t / v.inner) * v.n * v.inner + t % v.inner);
  });
}

template <typename V>
inline bool is_nan(V v) {
  if constexpr (std::is_floating_point_v<V>) return v != v;
  return false;
}

/// NaN-last strict order (sort's order).
template <typename V>
inline bool nan_last_less(V a, V b) {
  return (!is_nan(a) && is_nan(b)) || a < b;
}

template <bool kMax, typename T, typename I>
void cum_extreme(const Lanes& v, DenseTensor& out, DenseTensor& indices) {
  using V = compute_t<T>;
  const T* px = static_cast<const T*>(v.x.raw_data());
  T* po = static_cast<T*>(out.raw_data());
  I* pi = static_cast<I*>(indices.raw_data());
  const int64_t n = v.n, inner = v.inner;
  for_each_lane(v, n, [&](int64_t base) {
    V best{};
    int64_t at = 0;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t off = base + j * inner;
      const V x = cpu::load(px[off]);
      const bool wins = kMax ? x >= best : x <= best;
      if (j == 0 || is_nan(x) || (!is_nan(best) && wins)) best = x, at = j;
      po[off] = cpu::store<T>(best);
      pi[off] = static_cast<I>(at);
    }
  });
}

template <bool kMax, typename T, typename Args>
void cum_extreme_kernel(const Args& a, const char* op) {
  if (a.out->numel() == 0) return;
  const Lanes v = lanes(a.x, a.axis, false, op);
  if (a.indices->dtype() == DType::kInt32) {
    return cum_extreme<kMax, T, int32_t>(v, *a.out, *a.indices);
  }
  cum_extreme<kMax, T, int64_t>(v, *a.out, *a.indices);
}

inline double log_add_exp(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  const double m = std::max(a, b);
  if (std::isinf(m)) return m;  // both -inf, or one +inf
  return m + std::log1p(std::exp(-std::abs(a - b)));
}

template <typename T>
T store_double(double v) {
  return cpu::store<T>(static_cast<compute_t<T>>(v));
}

/// The longest run of equal values of a lane stable-sorted NaN last: value and original index.
template <typename V>
std::pair<V, int64_t> lane_mode(std::vector<std::pair<V, int64_t>>& col) {
  std::stable_sort(col.begin(), col.end(),
                   [](const auto& l, const auto& r) { return nan_last_less(l.first, r.first); });
  std::pair<V, int64_t> best = col.back();
  int64_t best_count = 0, count = 0;
  const int64_t n = static_cast<int64_t>(col.size());
  for (int64_t i = 0; i < n; ++i) {
    ++count;
    if (i + 1 == n || !(col[i + 1].first == col[i].first)) {
      if (count > best_count) best_count = count, best = col[i];
      count = 0;
    }
  }
  return best;
}

/// Hormann's PTRS constants for one rate (lam >= 10).
struct Ptrs {
  double lam, log_lam, b, a, log_inv_alpha, vr;
  explicit Ptrs(double l)
      : lam(l),
        log_lam(std::log(l)),
        b(0.931 + 2.53 * std::sqrt(l)),
        a(-0.059 + 0.02483 * b),
        log_inv_alpha(std::log(1.1239 + 1.1328 / (b - 3.4))),
        vr(0.9277 - 3.6224 / (b - 2.0)) {}
};

constexpr double kInversionLimit = 10.0;

/// A Poisson(lam) sample from the rounds of counter `c`.
double poisson_sample(double lam, const PhiloxState& s, uint64_t c) {
  if (lam == 0.0) return 0.0;
  uint64_t round = 0;
  auto draw = [&](double* u, double* v) {
    const auto w = philox4x32(s.offset + c, round++, s.seed);
    *u = uints_to_unit_double(w[0], w[1]);
    *v = uints_to_unit_double(w[2], w[3]);
  };
  double u, v;
  if (lam < kInversionLimit) {  // inversion: the first k whose CDF exceeds u
    draw(&u, &v);
    double p = std::exp(-lam), cdf = p;
    int64_t k = 0;
    while (u >= cdf && k < 10000) {
      ++k;
      p *= lam / static_cast<double>(k);
      cdf += p;
    }
    return static_cast<double>(k);
  }
  const Ptrs c0(lam);
  while (true) {
    draw(&u, &v);
    u -= 0.5;
    const double us = 0.5 - std::abs(u);
    const double k = std::floor((2.0 * c0.a / us + c0.b) * u + lam + 0.43);
    if (us >= 0.07 && v <= c0.vr) return k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + c0.log_inv_alpha - std::log(c0.a / (us * us) + c0.b) <=
        -lam + k * c0.log_lam - std::lgamma(k + 1.0)) {
      return k;
    }
  }
}

}  // namespace

template <typename T>
void cummax_cpu(const KernelContext&, const CummaxArgs& a) {
  cum_extreme_kernel<true, T>(a, "cummax");
}
SKIFF_INSTANTIATE_KERNEL(cummax, cpu)

template <typename T>
void cummin_cpu(const KernelContext&, const CumminArgs& a) {
  cum_extreme_kernel<false, T>(a, "cummin");
}
SKIFF_INSTANTIATE_KERNEL(cummin, cpu)

template <typename T>
void logcumsumexp_cpu(const KernelContext&, const LogcumsumexpArgs& a) {
  if (a.out->numel() == 0) return;
  const Lanes v = lanes(a.x, a.axis, a.flatten, "logcumsumexp");
  const T* px = static_cast<const T*>(v.x.raw_data());
  T* po = static_cast<T*>(a.out->raw_data());
  const int64_t n = v.n, inner = v.inner;
  for_each_lane(v, 8 * n, [&](int64_t base) {
    double acc = -std::numeric_limits<double>::infinity();
    for (int64_t s = 0; s < n; ++s) {
      const int64_t off = base + (a.reverse ? n - 1 - s : s) * inner;
      const double next = log_add_exp(acc, static_cast<double>(cpu::load(px[off])));
      po[off] = store_double<T>(a.exclusive ? acc : next);
      acc = next;
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(logcumsumexp, cpu)

template <typename T>
void mode_cpu(const KernelContext&, const ModeArgs& a) {
  using V = compute_t<T>;
  if (a.out->numel() == 0) return;
  const Lanes v = lanes(a.x, a.axis, false, "mode");
  const T* px = static_cast<const T*>(v.x.raw_data());
  T* po = static_cast<T*>(a.out->raw_data());
  int64_t* pi = static_cast<int64_t*>(a.indices->raw_data());
  const int64_t n = v.n, inner = v.inner;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / (4 * n));
  parallel_for(0, v.outer * inner, grain, [&](int64_t b, int64_t e) {
    std::vector<std::pair<V, int64_t>> col(n);
    for (int64_t t = b; t < e; ++t) {
      const int64_t base = (t / inner) * n * inner + t % inner;
      for (int64_t j = 0; j < n; ++j) col[j] = {cpu::load(px[base + j * inner]), j};
      const auto [value, index] = lane_mode(col);
      po[t] = cpu::store<T>(value);  // out is [outer, inner] in lane order
      pi[t] = index;
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(mode, cpu)

template <typename T>
void searchsorted_cpu(const KernelContext&, const SearchsortedArgs& a) {
  using V = compute_t<T>;
  const int64_t count = a.values.numel();
  if (count == 0) return;
  const DenseTensor seq = a.sorted_sequence.contiguous();
  const DenseTensor vals = a.values.contiguous();
  const int64_t m = seq.dim(seq.rank() - 1);
  const int64_t per_row = seq.rank() == 1 ? count : vals.dim(vals.rank() - 1);
  const T* ps = static_cast<const T*>(seq.raw_data());
  const T* pv = static_cast<const T*>(vals.raw_data());
  const bool i32 = a.out->dtype() == DType::kInt32;
  void* po = a.out->raw_data();
  const bool right = a.right;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / 16);
  parallel_for(0, count, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const T* row = ps + (seq.rank() == 1 ? 0 : i / per_row) * m;
      const V x = cpu::load(pv[i]);
      int64_t lo = 0, hi = m;  // the first position whose element is >= x (> x with right)
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const V r = cpu::load(row[mid]);
        const bool before = right ? !nan_last_less(x, r) : nan_last_less(r, x);
        if (before) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (i32) {
        static_cast<int32_t*>(po)[i] = static_cast<int32_t>(lo);
      } else {
        static_cast<int64_t*>(po)[i] = lo;
      }
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(searchsorted, cpu)

template <typename T>
void poisson_cpu(const KernelContext& ctx, const PoissonArgs& a) {
  const int64_t n = a.out->numel();
  if (n == 0) return;
  const DenseTensor x = a.x.contiguous();
  const T* px = static_cast<const T*>(x.raw_data());
  for (int64_t i = 0; i < n; ++i) {
    const double lam = static_cast<double>(cpu::load(px[i]));
    SKIFF_ENFORCE(std::isfinite(lam) && lam >= 0.0, kInvalidArgument, "poisson", "x",
                  "finite non-negative rates", lam);
  }
  const PhiloxState s = default_generator(ctx.place).reserve(static_cast<uint64_t>(n));
  T* po = static_cast<T*>(a.out->raw_data());
  parallel_for(0, n, kParallelGrain / 64, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      po[i] = store_double<T>(poisson_sample(static_cast<double>(cpu::load(px[i])), s,
                                             static_cast<uint64_t>(i)));
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(poisson, cpu)

}  // namespace skiff::ops
