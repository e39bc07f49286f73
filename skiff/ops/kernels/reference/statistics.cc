// Reference kernels of the statistics ops: plain loops in double (int64 for integers) over the
// row-major values, written from the definitions rather than the CPU kernels' algorithms:
// extremes by rescanning each prefix, logcumsumexp as max + log(sum(exp(x - max))) per prefix,
// mode by counting equal elements, searchsorted by counting the elements before the value.
// poisson reproduces the CPU kernel's draws (the same sampler on the same Philox rounds).
#include "skiff/ops/generated/kernels/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "skiff/core/generator.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

namespace {

using reference::for_each_index;
using reference::get;
using reference::offset_of;

template <typename T>
std::vector<T> values_of(const DenseTensor& x) {
  std::vector<T> v;
  for_each_index(x.dims(), [&](const int64_t* idx) { v.push_back(get<T>(x, offset_of(x, idx))); });
  return v;
}

template <typename T>
void write(DenseTensor& out, int64_t i, T v) {
  static_cast<T*>(out.raw_data())[i] = v;  // outputs are contiguous
}

void write_index(DenseTensor& out, int64_t i, int64_t v) {
  if (out.dtype() == DType::kInt32) return write<int32_t>(out, i, static_cast<int32_t>(v));
  write<int64_t>(out, i, v);
}

struct Axis {
  int64_t outer = 1, n = 1, inner = 1;
  int64_t at(int64_t o, int64_t j, int64_t k) const { return (o * n + j) * inner + k; }
};

Axis axis_split(const DenseTensor& x, int64_t axis, bool flatten, const char* op) {
  Axis s;
  if (flatten || x.rank() == 0) {
    s.n = x.numel();
    return s;
  }
  const int a = normalize_axis(axis, x.rank(), op, "axis");
  for (int i = 0; i < x.rank(); ++i) (i < a ? s.outer : i == a ? s.n : s.inner) *= x.dim(i);
  return s;
}

template <typename T>
bool nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  return false;
}

/// The order of sort: NaN after every number.
template <typename T>
bool before(T a, T b) {
  return (!nan(a) && nan(b)) || a < b;
}

template <bool kMax, typename T, typename Args>
void cum_extreme_reference(const Args& a, const char* op) {
  const std::vector<T> x = values_of<T>(a.x);
  if (x.empty()) return;
  const Axis s = axis_split(a.x, a.axis, false, op);
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t k = 0; k < s.inner; ++k) {
      for (int64_t j = 0; j < s.n; ++j) {
        // The prefix's extreme: its last NaN if it has one, else the last position of its
        // largest (smallest) value.
        int64_t at = -1;
        for (int64_t l = 0; l <= j; ++l) {
          if (nan(x[s.at(o, l, k)])) at = l;
        }
        if (at < 0) {
          at = 0;
          for (int64_t l = 1; l <= j; ++l) {
            const T v = x[s.at(o, l, k)], best = x[s.at(o, at, k)];
            if (kMax ? v >= best : v <= best) at = l;
          }
        }
        write<T>(*a.out, s.at(o, j, k), x[s.at(o, at, k)]);
        write_index(*a.indices, s.at(o, j, k), at);
      }
    }
  }
}

}  // namespace

template <typename T>
void cummax_reference(const KernelContext&, const CummaxArgs& a) {
  cum_extreme_reference<true, T>(a, "cummax");
}
SKIFF_INSTANTIATE_KERNEL(cummax, reference)

template <typename T>
void cummin_reference(const KernelContext&, const CumminArgs& a) {
  cum_extreme_reference<false, T>(a, "cummin");
}
SKIFF_INSTANTIATE_KERNEL(cummin, reference)

template <typename T>
void logcumsumexp_reference(const KernelContext&, const LogcumsumexpArgs& a) {
  const std::vector<T> x = values_of<T>(a.x);
  if (x.empty()) return;
  const Axis s = axis_split(a.x, a.axis, a.flatten, "logcumsumexp");
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t k = 0; k < s.inner; ++k) {
      for (int64_t j = 0; j < s.n; ++j) {
        // positions summed into output j: up to j (from j when reverse), j itself unless exclusive
        std::vector<double> terms;
        for (int64_t l = 0; l < s.n; ++l) {
          const bool in = a.reverse ? (a.exclusive ? l > j : l >= j)
                                    : (a.exclusive ? l < j : l <= j);
          if (in) terms.push_back(static_cast<double>(x[s.at(o, l, k)]));
        }
        double m = -inf;
        bool has_nan = false;
        for (double t : terms) has_nan |= std::isnan(t), m = std::max(m, t);
        double r;
        if (has_nan) {
          r = std::numeric_limits<double>::quiet_NaN();
        } else if (std::isinf(m)) {
          r = m;
        } else {
          double sum = 0;
          for (double t : terms) sum += std::exp(t - m);
          r = m + std::log(sum);
        }
        write<T>(*a.out, s.at(o, j, k), static_cast<T>(r));
      }
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(logcumsumexp, reference)

template <typename T>
void mode_reference(const KernelContext&, const ModeArgs& a) {
  const std::vector<T> x = values_of<T>(a.x);
  if (x.empty()) return;
  const Axis s = axis_split(a.x, a.axis, false, "mode");
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t k = 0; k < s.inner; ++k) {
      // The value with the most equal elements (each NaN counts once), the smallest in sort's
      // order among ties; then its last position (a NaN winner: the first NaN).
      int64_t best = -1, best_count = 0;
      for (int64_t j = 0; j < s.n; ++j) {
        const T v = x[s.at(o, j, k)];
        int64_t count = 0;
        for (int64_t l = 0; l < s.n; ++l) count += x[s.at(o, l, k)] == v;
        if (nan(v)) count = 1;
        if (best < 0 || count > best_count ||
            (count == best_count && before(v, x[s.at(o, best, k)]))) {
          best = j, best_count = count;
        }
      }
      const T w = x[s.at(o, best, k)];
      for (int64_t j = 0; j < s.n && !nan(w); ++j) {
        if (x[s.at(o, j, k)] == w) best = j;
      }
      write<T>(*a.out, o * s.inner + k, x[s.at(o, best, k)]);
      write<int64_t>(*a.indices, o * s.inner + k, best);
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(mode, reference)

template <typename T>
void searchsorted_reference(const KernelContext&, const SearchsortedArgs& a) {
  const std::vector<T> seq = values_of<T>(a.sorted_sequence);
  const std::vector<T> vals = values_of<T>(a.values);
  const DenseTensor& st = a.sorted_sequence;
  const int64_t m = st.dim(st.rank() - 1);
  for (int64_t i = 0; i < static_cast<int64_t>(vals.size()); ++i) {
    const int64_t row = st.rank() == 1 ? 0 : i / a.values.dim(a.values.rank() - 1);
    int64_t pos = 0;  // elements before the value: smaller (or not larger, with right)
    for (int64_t j = 0; j < m; ++j) {
      const T e = seq[row * m + j];
      pos += a.right ? !before(vals[i], e) : before(e, vals[i]);
    }
    write_index(*a.out, i, pos);
  }
}
SKIFF_INSTANTIATE_KERNEL(searchsorted, reference)

namespace {

/// The CPU kernel's sampler, restated: inversion below rate 10, PTRS (Hormann 1993) above.
double poisson_draw(double lam, const PhiloxState& s, uint64_t c) {
  if (lam == 0.0) return 0.0;
  uint64_t round = 0;
  double u, v;
  auto draw = [&] {
    const auto w = philox4x32(s.offset + c, round++, s.seed);
    u = uints_to_unit_double(w[0], w[1]);
    v = uints_to_unit_double(w[2], w[3]);
  };
  if (lam < 10.0) {
    draw();
    double cdf = 0;
    for (int64_t k = 0; k < 10000; ++k) {
      cdf += std::exp(-lam + k * std::log(lam) - std::lgamma(k + 1.0));
      if (u < cdf) return static_cast<double>(k);
    }
    return 10000.0;
  }
  const double b = 0.931 + 2.53 * std::sqrt(lam), aa = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
  while (true) {
    draw();
    u -= 0.5;
    const double us = 0.5 - std::abs(u);
    const double k = std::floor((2.0 * aa / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    const double lhs = std::log(v * inv_alpha / (aa / (us * us) + b));
    if (lhs <= -lam + k * std::log(lam) - std::lgamma(k + 1.0)) return k;
  }
}

}  // namespace

template <typename T>
void poisson_reference(const KernelContext& ctx, const PoissonArgs& a) {
  const std::vector<T> x = values_of<T>(a.x);
  if (x.empty()) return;
  for (T lam : x) {
    SKIFF_ENFORCE(std::isfinite(static_cast<double>(lam)) && lam >= 0, kInvalidArgument,
                  "poisson", "x", "finite non-negative rates", lam);
  }
  const PhiloxState s = default_generator(ctx.place).reserve(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    write<T>(*a.out, static_cast<int64_t>(i),
             static_cast<T>(poisson_draw(static_cast<double>(x[i]), s, i)));
  }
}
SKIFF_INSTANTIATE_KERNEL(poisson, reference)

}  // namespace skiff::ops
