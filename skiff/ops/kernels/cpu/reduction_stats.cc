// CPU kernels of logsumexp, var, std and p_norm. These need two passes or transcendental maps per
// element and are not on the hot paths the engine serves, so the reduced dims are permuted last
// and made contiguous (a copy only when needed), and each output reduces one contiguous row in
// double precision; rows are split across threads.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "skiff/core/views.h"
#include "skiff/ops/generated/kernels/reduction.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/meta/reduction_meta.h"

namespace skiff::ops {

namespace {

/// x as contiguous rows [outputs, reduced count]: kept dims first, reduced dims last.
DenseTensor as_rows(const DenseTensor& x, const std::vector<bool>& mask, int64_t* n) {
  std::vector<int64_t> perm;
  *n = 1;
  for (int i = 0; i < x.rank(); ++i) {
    if (!mask[i]) perm.push_back(i);
  }
  for (int i = 0; i < x.rank(); ++i) {
    if (mask[i]) {
      perm.push_back(i);
      *n *= x.dim(i);
    }
  }
  return view_permute(x, perm).contiguous();
}

/// out[r] = f(row r, n) for every row, f returning double.
template <typename T, typename F>
void for_rows(const DenseTensor& x, const std::vector<bool>& mask, DenseTensor& out, const F& f) {
  const int64_t m = out.numel();
  if (m == 0) return;
  int64_t n = 0;
  const DenseTensor rows = as_rows(x, mask, &n);
  const T* px = n > 0 ? static_cast<const T*>(rows.raw_data()) : nullptr;
  T* po = static_cast<T*>(out.raw_data());
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1));
  parallel_for(0, m, grain, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) po[r] = cpu::store<T>(f(px + r * n, n));
  });
}

template <typename T>
double row_sum(const T* x, int64_t n) {
  double s[4] = {0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int j = 0; j < 4; ++j) s[j] += static_cast<double>(cpu::load(x[i + j]));
  }
  for (; i < n; ++i) s[0] += static_cast<double>(cpu::load(x[i]));
  return (s[0] + s[1]) + (s[2] + s[3]);
}

template <typename T>
double row_logsumexp(const T* x, int64_t n) {
  double m = -INFINITY;
  for (int64_t i = 0; i < n; ++i) {
    const double v = cpu::load(x[i]);
    m = (m != m || m >= v) ? m : v;
  }
  if (std::isnan(m)) return m;
  if (std::isinf(m)) m = 0;  // all -inf gives -inf; any +inf gives +inf
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += std::exp(static_cast<double>(cpu::load(x[i])) - m);
  return m + std::log(s);
}

template <typename T>
double row_var(const T* x, int64_t n, bool unbiased) {
  const double mean = row_sum(x, n) / static_cast<double>(n);
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(cpu::load(x[i])) - mean;
    s += d * d;
  }
  // numpy's max(n - ddof, 0): an empty row is 0/0 = nan (not 0/-1 = -0).
  return s / static_cast<double>(std::max<int64_t>(n - (unbiased ? 1 : 0), 0));
}

template <typename T>
double row_p_norm(const T* x, int64_t n, double p) {
  if (std::isinf(p)) {
    double r = p > 0 ? 0.0 : INFINITY;
    for (int64_t i = 0; i < n; ++i) {
      const double v = std::abs(static_cast<double>(cpu::load(x[i])));
      if (v != v) return v;
      r = p > 0 ? std::max(r, v) : std::min(r, v);
    }
    return r;
  }
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = std::abs(static_cast<double>(cpu::load(x[i])));
    if (p == 0) {
      s += v != 0 ? 1.0 : 0.0;
    } else if (p == 1) {
      s += v;
    } else if (p == 2) {
      s += v * v;
    } else {
      s += std::pow(v, p);
    }
  }
  if (p == 0 || p == 1) return s;
  return p == 2 ? std::sqrt(s) : std::pow(s, 1.0 / p);
}

}  // namespace

template <typename T>
void logsumexp_cpu(const KernelContext&, const LogsumexpArgs& a) {
  const auto mask = meta::reduce_mask("logsumexp", a.x.rank(), a.axis);
  for_rows<T>(a.x, mask, *a.out, [](const T* x, int64_t n) { return row_logsumexp(x, n); });
}
SKIFF_INSTANTIATE_KERNEL(logsumexp, cpu)

template <typename T>
void var_cpu(const KernelContext&, const VarArgs& a) {
  const auto mask = meta::reduce_mask("var", a.x.rank(), a.axis);
  const bool unbiased = a.unbiased;
  for_rows<T>(a.x, mask, *a.out,
              [unbiased](const T* x, int64_t n) { return row_var(x, n, unbiased); });
}
SKIFF_INSTANTIATE_KERNEL(var, cpu)

template <typename T>
void std_cpu(const KernelContext&, const StdArgs& a) {
  const auto mask = meta::reduce_mask("std", a.x.rank(), a.axis);
  const bool unbiased = a.unbiased;
  for_rows<T>(a.x, mask, *a.out,
              [unbiased](const T* x, int64_t n) { return std::sqrt(row_var(x, n, unbiased)); });
}
SKIFF_INSTANTIATE_KERNEL(std, cpu)

template <typename T>
void p_norm_cpu(const KernelContext&, const PNormArgs& a) {
  const auto mask = a.asvector ? std::vector<bool>(a.x.rank(), true)
                               : meta::reduce_mask("p_norm", a.x.rank(), {a.axis});
  const double p = a.porder;
  for_rows<T>(a.x, mask, *a.out, [p](const T* x, int64_t n) { return row_p_norm(x, n, p); });
}
SKIFF_INSTANTIATE_KERNEL(p_norm, cpu)

}  // namespace skiff::ops
