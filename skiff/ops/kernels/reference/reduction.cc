// Reference kernels of the reduction ops: every input element is visited in row-major order and
// folded into its output slot in float64 (int64 for integers, bool for all/any). Rows of the
// two-pass ops (logsumexp, var, std, p_norm) are gathered into a std::vector first.
#include "skiff/ops/generated/kernels/reduction.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "skiff/core/complex_views.h"
#include "skiff/ops/generated/dense/elementwise.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/complex_math.h"
#include "skiff/ops/kernels/reference/ref_loops.h"
#include "skiff/ops/meta/reduction_meta.h"

namespace skiff::ops {

namespace {

using reference::for_each_index;
using reference::get;
using reference::offset_of;

/// Output slot (row-major over the kept dims) of input multi-index idx.
int64_t out_slot(const DenseTensor& x, const std::vector<bool>& mask, const int64_t* idx) {
  int64_t slot = 0;
  for (int i = 0; i < x.rank(); ++i) {
    if (!mask[i]) slot = slot * x.dim(i) + idx[i];
  }
  return slot;
}

template <typename O, typename V>
void put(DenseTensor& out, int64_t i, V v) {
  O* p = static_cast<O*>(out.raw_data());
  if constexpr (std::is_same_v<O, bool>) {
    p[i] = v != V(0);
  } else if constexpr (std::is_same_v<O, float16> || std::is_same_v<O, bfloat16>) {
    p[i] = O(static_cast<float>(v));
  } else {
    p[i] = static_cast<O>(v);
  }
}

/// Writes values[i] to out[i] converted to out's dtype.
template <typename V>
void write_all(DenseTensor& out, const std::vector<V>& values) {
  if constexpr (is_complex_v<V>) {  // complex scans: out has x's complex dtype
    for (size_t i = 0; i < values.size(); ++i) {
      if (out.dtype() == DType::kComplex64) {
        static_cast<complex64*>(out.raw_data())[i] = complex64(values[i]);
      } else {
        static_cast<complex128*>(out.raw_data())[i] = complex128(values[i]);
      }
    }
  } else {
    visit_dtype(out.dtype(), [&](auto tag) {
      using O = decltype(tag);
      for (size_t i = 0; i < values.size(); ++i) put<O>(out, static_cast<int64_t>(i), values[i]);
    });
  }
}

/// out[slot] = fold(init, x elements of that slot) with step(acc, value).
template <typename T, typename Acc, typename Step>
std::vector<Acc> fold(const DenseTensor& x, const std::vector<bool>& mask, int64_t n_out, Acc init,
                      const Step& step) {
  std::vector<Acc> acc(n_out, init);
  for_each_index(x.dims(), [&](const int64_t* idx) {
    Acc& a = acc[out_slot(x, mask, idx)];
    a = step(a, get<T>(x, offset_of(x, idx)));
  });
  return acc;
}

/// The values of each output slot, in row-major order of the input.
template <typename T>
std::vector<std::vector<double>> gather_rows(const DenseTensor& x, const std::vector<bool>& mask,
                                             int64_t n_out) {
  std::vector<std::vector<double>> rows(n_out);
  for_each_index(x.dims(), [&](const int64_t* idx) {
    rows[out_slot(x, mask, idx)].push_back(static_cast<double>(get<T>(x, offset_of(x, idx))));
  });
  return rows;
}

template <typename T>
using wide_t = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;

template <typename T>
void sum_like(const DenseTensor& x, const std::vector<bool>& mask, DenseTensor& out, bool prod) {
  using W = wide_t<T>;
  const auto acc = fold<T, W>(x, mask, out.numel(), prod ? W(1) : W(0), [prod](W a, T v) {
    return prod ? static_cast<W>(a * static_cast<W>(v)) : static_cast<W>(a + static_cast<W>(v));
  });
  write_all(out, acc);
}

template <bool kMax, typename T>
void extreme(const DenseTensor& x, const std::vector<bool>& mask, DenseTensor& out) {
  std::vector<std::optional<T>> acc(out.numel());
  for_each_index(x.dims(), [&](const int64_t* idx) {
    auto& a = acc[out_slot(x, mask, idx)];
    const T v = get<T>(x, offset_of(x, idx));
    if (!a || std::isnan(static_cast<double>(*a))) {
      if (!a) a = v;
      return;
    }
    if (std::isnan(static_cast<double>(v)) || (kMax ? v > *a : v < *a)) a = v;
  });
  std::vector<T> values;
  for (const auto& a : acc) values.push_back(*a);
  write_all(out, values);
}

std::vector<bool> all_axes(int rank) { return std::vector<bool>(rank, true); }

}  // namespace

template <typename T>
void sum_reference(const KernelContext&, const SumArgs& a) {
  auto mask = meta::reduce_mask("sum", a.x.rank(), a.axis);
  if constexpr (is_complex_v<T>) {      // two real sums over the (real, imaginary) views
    if (!is_complex(a.out->dtype())) {  // a real `dtype`: the real parts summed
      return sum_like<double>(dense::cast(a.x, DType::kFloat64), mask, *a.out, false);
    }
    const DenseTensor x = a.x.dtype() == a.out->dtype() ? a.x : dense::cast(a.x, a.out->dtype());
    mask.push_back(false);
    DenseTensor out = view_as_real(*a.out);
    sum_like<real_t<T>>(view_as_real(x), mask, out, false);
  } else {
    sum_like<T>(a.x, mask, *a.out, false);
  }
}
SKIFF_INSTANTIATE_KERNEL(sum, reference)

template <typename T>
void prod_reference(const KernelContext&, const ProdArgs& a) {
  const auto mask = meta::reduce_mask("prod", a.x.rank(), a.axis);
  if constexpr (is_complex_v<T>) {
    if (!is_complex(a.out->dtype())) {  // a real `dtype`: the real parts multiplied
      return sum_like<double>(dense::cast(a.x, DType::kFloat64), mask, *a.out, true);
    }
    using W = std::complex<double>;
    const auto acc = fold<T, W>(a.x, mask, a.out->numel(), W(1), [](W p, T v) { return p * W(v); });
    DenseTensor wide = DenseTensor::empty(a.out->dims(), DType::kComplex128, a.out->place());
    std::copy(acc.begin(), acc.end(), static_cast<W*>(wide.raw_data()));
    a.out->copy_from(a.out->dtype() == DType::kComplex128 ? wide
                                                          : dense::cast(wide, a.out->dtype()));
  } else {
    sum_like<T>(a.x, mask, *a.out, true);
  }
}
SKIFF_INSTANTIATE_KERNEL(prod, reference)

template <typename T>
void mean_reference(const KernelContext&, const MeanArgs& a) {
  using R = real_t<T>;  // complex: two real means over the (real, imaginary) views
  auto mask = meta::reduce_mask("mean", a.x.rank(), a.axis);
  int64_t n = 1;
  for (int i = 0; i < a.x.rank(); ++i) n *= mask[i] ? a.x.dim(i) : 1;
  DenseTensor x = a.x, out = *a.out;
  if constexpr (is_complex_v<T>) {
    mask.push_back(false);
    x = view_as_real(a.x);
    out = view_as_real(*a.out);
  }
  std::vector<double> s =
      fold<R, double>(x, mask, out.numel(), 0.0, [](double acc, R v) { return acc + v; });
  for (double& v : s) v /= static_cast<double>(n);
  write_all(out, s);
}
SKIFF_INSTANTIATE_KERNEL(mean, reference)

template <typename T>
void max_reference(const KernelContext&, const MaxArgs& a) {
  extreme<true, T>(a.x, meta::reduce_mask("max", a.x.rank(), a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(max, reference)

template <typename T>
void min_reference(const KernelContext&, const MinArgs& a) {
  extreme<false, T>(a.x, meta::reduce_mask("min", a.x.rank(), a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(min, reference)

template <typename T>
void amax_reference(const KernelContext&, const AmaxArgs& a) {
  extreme<true, T>(a.x, meta::reduce_mask("amax", a.x.rank(), a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(amax, reference)

template <typename T>
void amin_reference(const KernelContext&, const AminArgs& a) {
  extreme<false, T>(a.x, meta::reduce_mask("amin", a.x.rank(), a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(amin, reference)

template <typename T>
void all_reference(const KernelContext&, const AllArgs& a) {
  const auto mask = meta::reduce_mask("all", a.x.rank(), a.axis);
  write_all(*a.out, fold<T, int64_t>(a.x, mask, a.out->numel(), 1, [](int64_t acc, T v) {
    return static_cast<int64_t>(acc && static_cast<double>(v) != 0.0);
  }));
}
SKIFF_INSTANTIATE_KERNEL(all, reference)

template <typename T>
void any_reference(const KernelContext&, const AnyArgs& a) {
  const auto mask = meta::reduce_mask("any", a.x.rank(), a.axis);
  write_all(*a.out, fold<T, int64_t>(a.x, mask, a.out->numel(), 0, [](int64_t acc, T v) {
    return static_cast<int64_t>(acc || static_cast<double>(v) != 0.0);
  }));
}
SKIFF_INSTANTIATE_KERNEL(any, reference)

template <typename T>
void logsumexp_reference(const KernelContext&, const LogsumexpArgs& a) {
  const auto rows =
      gather_rows<T>(a.x, meta::reduce_mask("logsumexp", a.x.rank(), a.axis), a.out->numel());
  std::vector<double> r;
  for (const auto& row : rows) {
    double m = -INFINITY;
    bool nan = false;
    for (double v : row) nan |= std::isnan(v), m = std::max(m, v);
    if (std::isinf(m)) m = 0;
    double s = 0;
    for (double v : row) s += std::exp(v - m);
    r.push_back(nan ? NAN : m + std::log(s));
  }
  write_all(*a.out, r);
}
SKIFF_INSTANTIATE_KERNEL(logsumexp, reference)

namespace {
template <typename T>
std::vector<double> variances(const DenseTensor& x, const std::vector<int64_t>& axis, bool unbiased,
                              int64_t n_out, const char* op) {
  std::vector<double> r;
  for (const auto& row : gather_rows<T>(x, meta::reduce_mask(op, x.rank(), axis), n_out)) {
    double mean = 0;
    for (double v : row) mean += v;
    mean /= static_cast<double>(row.size());
    double s = 0;
    for (double v : row) s += (v - mean) * (v - mean);
    r.push_back(s / std::max(static_cast<double>(row.size()) - (unbiased ? 1.0 : 0.0), 0.0));
  }
  return r;
}
}  // namespace

template <typename T>
void var_reference(const KernelContext&, const VarArgs& a) {
  write_all(*a.out, variances<T>(a.x, a.axis, a.unbiased, a.out->numel(), "var"));
}
SKIFF_INSTANTIATE_KERNEL(var, reference)

template <typename T>
void std_reference(const KernelContext&, const StdArgs& a) {
  auto v = variances<T>(a.x, a.axis, a.unbiased, a.out->numel(), "std");
  for (double& s : v) s = std::sqrt(s);
  write_all(*a.out, v);
}
SKIFF_INSTANTIATE_KERNEL(std, reference)

template <typename T>
void p_norm_reference(const KernelContext&, const PNormArgs& a) {
  const auto mask =
      a.asvector ? all_axes(a.x.rank()) : meta::reduce_mask("p_norm", a.x.rank(), {a.axis});
  const double p = a.porder;
  std::vector<double> r;
  for (const auto& row : gather_rows<T>(a.x, mask, a.out->numel())) {
    double s = p == -INFINITY ? INFINITY : 0.0;
    for (double v : row) {
      const double m = std::abs(v);
      if (std::isnan(m)) {
        s = NAN;
        break;
      }
      if (p == INFINITY)
        s = std::max(s, m);
      else if (p == -INFINITY)
        s = std::min(s, m);
      else if (p == 0)
        s += m != 0 ? 1 : 0;
      else
        s += std::pow(m, p);
    }
    r.push_back(std::isinf(p) || p == 0 || std::isnan(s) ? s : std::pow(s, 1.0 / p));
  }
  write_all(*a.out, r);
}
SKIFF_INSTANTIATE_KERNEL(p_norm, reference)

namespace {
template <bool kMax, typename T, typename Args>
void arg_reference(const Args& a, const char* op) {
  const DenseTensor& x = a.x;
  std::vector<bool> mask = all_axes(x.rank());
  if (!a.flatten && x.rank() > 0) {
    mask.assign(x.rank(), false);
    mask[normalize_axis(a.axis.template to<int64_t>(), x.rank(), op, "axis")] = true;
  }
  const int64_t n_out = a.out->numel();
  std::vector<std::optional<T>> best(n_out);
  std::vector<int64_t> pos(n_out, 0), seen(n_out, 0);
  for_each_index(x.dims(), [&](const int64_t* idx) {
    const int64_t s = out_slot(x, mask, idx);
    const T v = get<T>(x, offset_of(x, idx));
    const int64_t k = seen[s]++;
    auto& b = best[s];
    const bool b_nan = b && std::isnan(static_cast<double>(*b));
    const bool v_nan = std::isnan(static_cast<double>(v));
    if (!b || (!b_nan && (v_nan || (kMax ? v > *b : v < *b)))) b = v, pos[s] = k;
  });
  write_all(*a.out, pos);
}
}  // namespace

template <typename T>
void argmax_reference(const KernelContext&, const ArgmaxArgs& a) {
  arg_reference<true, T>(a, "argmax");
}
SKIFF_INSTANTIATE_KERNEL(argmax, reference)

template <typename T>
void argmin_reference(const KernelContext&, const ArgminArgs& a) {
  arg_reference<false, T>(a, "argmin");
}
SKIFF_INSTANTIATE_KERNEL(argmin, reference)

namespace {
/// out = running sum or product along `axis` (x flattened row-major when `flatten`).
template <typename T>
void scan_reference(const DenseTensor& x, int64_t axis, bool flatten, bool exclusive, bool reverse,
                    bool prod, DenseTensor& out, const char* op, const char* arg) {
  using W = std::conditional_t<is_complex_v<T>, complex128, wide_t<T>>;
  std::vector<T> vals;
  for_each_index(x.dims(),
                 [&](const int64_t* idx) { vals.push_back(get<T>(x, offset_of(x, idx))); });
  if (vals.empty()) return;
  int64_t n = static_cast<int64_t>(vals.size()), inner = 1;
  if (!flatten && x.rank() > 0) {
    const int a = normalize_axis(axis, x.rank(), op, arg);
    n = x.dim(a);
    for (int i = a + 1; i < x.rank(); ++i) inner *= x.dim(i);
  }
  std::vector<W> res(vals.size());
  const int64_t outer = n == 0 ? 0 : static_cast<int64_t>(vals.size()) / (n * inner);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < inner; ++k) {
      W acc = prod ? W(1) : W(0);
      for (int64_t s = 0; s < n; ++s) {
        const int64_t j = reverse ? n - 1 - s : s;
        const int64_t i = (o * n + j) * inner + k;
        const W next = prod ? acc * static_cast<W>(vals[i]) : acc + static_cast<W>(vals[i]);
        res[i] = exclusive ? acc : next;
        acc = next;
      }
    }
  }
  write_all(out, res);
}
}  // namespace

template <typename T>
void cumsum_reference(const KernelContext&, const CumsumArgs& a) {
  scan_reference<T>(a.x, a.axis.to<int64_t>(), a.flatten, a.exclusive, a.reverse, false, *a.out,
                    "cumsum", "axis");
}
SKIFF_INSTANTIATE_KERNEL(cumsum, reference)

template <typename T>
void cumprod_reference(const KernelContext&, const CumprodArgs& a) {
  scan_reference<T>(a.x, a.dim, false, a.exclusive, a.reverse, true, *a.out, "cumprod", "dim");
}
SKIFF_INSTANTIATE_KERNEL(cumprod, reference)

}  // namespace skiff::ops
