// CPU kernels of sum, mean, prod, max, min, amax, amin, all and any on the reduction engine
// (reduction_engine.h). A `dtype` argument of sum/prod other than the natural result type casts x
// first, as Paddle does. Floats run the engine in their own dtype; integer and bool inputs go
// through int64 (and all/any through bool) so that few engine instantiations are compiled.
#include "skiff/ops/generated/kernels/reduction.h"

#include "skiff/core/complex_views.h"
#include "skiff/ops/generated/dense/elementwise.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/reduction_engine.h"
#include "skiff/ops/meta/reduction_meta.h"

namespace skiff::ops {

namespace cpu::reduce_detail {

ReducePlan plan_reduction(const Dims& dims, const std::vector<bool>& mask) {
  // Collapse: drop size-1 dims, merge neighbours of the same kind (x is contiguous).
  int64_t sizes[kMaxRank];
  bool red[kMaxRank];
  int g = 0;
  for (int i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (g > 0 && red[g - 1] == mask[i]) {
      sizes[g - 1] *= dims[i];
      continue;
    }
    sizes[g] = dims[i];
    red[g++] = mask[i];
  }
  int64_t strides[kMaxRank];
  for (int i = g - 1, s = 1; i >= 0; --i) {
    strides[i] = s;
    s *= sizes[i];
  }
  ReducePlan p;
  p.inner = g > 0 && red[g - 1];
  p.len = g > 0 ? sizes[g - 1] : 1;
  for (int i = 0; i + 1 < g; ++i) (red[i] ? p.reduced : p.kept).add(sizes[i], strides[i]);
  return p;
}

}  // namespace cpu::reduce_detail

namespace {

/// The finalizer of plain reductions: one type for all, so instantiations are shared.
struct Identity {
  template <typename A>
  A operator()(A a) const {
    return a;
  }
};

std::vector<bool> mask_of(const char* op, const DenseTensor& x, const std::vector<int64_t>& axis) {
  return meta::reduce_mask(op, x.rank(), axis);
}

int64_t reduced_count(const DenseTensor& x, const std::vector<bool>& mask) {
  int64_t n = 1;
  for (int i = 0; i < x.rank(); ++i) n *= mask[i] ? x.dim(i) : 1;
  return n;
}

/// Integer reductions run on an int64 copy of x into an int64 result, then cast to out's dtype:
/// one engine instantiation serves every integer dtype (compile time), and integer inputs are
/// not on the hot paths.
template <typename R>
void reduce_as_int64(const DenseTensor& x, const std::vector<bool>& mask, DenseTensor& out) {
  const DenseTensor xi = x.dtype() == DType::kInt64 ? x : dense::cast(x, DType::kInt64);
  if (out.dtype() == DType::kInt64)
    return cpu::reduce<R, int64_t, int64_t>(xi, mask, out, Identity{});
  DenseTensor tmp = DenseTensor::empty(out.dims(), DType::kInt64, out.place());
  cpu::reduce<R, int64_t, int64_t>(xi, mask, tmp, Identity{});
  out.copy_from(dense::cast(tmp, out.dtype()));
}

/// Sum or product of x (dtype T) into out, whose dtype is T's or, for integers, int64.
template <template <typename> class Red, typename T>
void accumulate(const DenseTensor& x, const std::vector<bool>& mask, DenseTensor& out) {
  if constexpr (std::is_integral_v<T>) {  // bool included
    reduce_as_int64<Red<int64_t>>(x, mask, out);
  } else {
    cpu::reduce<Red<cpu::sum_acc_t<T>>, T, T>(x, mask, out, Identity{});
  }
}

/// Runs accumulate for out's dtype, casting x to it first when T cannot produce it (`dtype`).
template <template <typename> class Red, typename T>
void accumulate_as_out(const DenseTensor& x, const std::vector<bool>& mask, DenseTensor& out) {
  const DType od = out.dtype();
  if (od == dtype_v<T> || (std::is_integral_v<T> && od == DType::kInt64)) {
    return accumulate<Red, T>(x, mask, out);
  }
  const DenseTensor xc = dense::cast(x, od);
  visit_dtype(od, [&](auto tag) { accumulate<Red, decltype(tag)>(xc, mask, out); });
}

/// max/min: floats in their compute type, integers through int64.
template <template <typename> class Red, typename T>
void extreme(const DenseTensor& x, const std::vector<bool>& mask, DenseTensor& out) {
  if constexpr (std::is_integral_v<T>) {
    reduce_as_int64<Red<int64_t>>(x, mask, out);
  } else {
    cpu::reduce<Red<compute_t<T>>, T, T>(x, mask, out, Identity{});
  }
}

/// all/any read x as bool (nonzero, NaN included, is true).
template <typename R>
void logical(const DenseTensor& x, const std::vector<bool>& mask, DenseTensor& out) {
  const DenseTensor xb = x.dtype() == DType::kBool ? x : dense::cast(x, DType::kBool);
  cpu::reduce<R, bool, bool>(xb, mask, out, Identity{});
}

}  // namespace

// Note [Complex reductions as real ones]
// A complex sum or mean is two real ones, over the (real, imaginary) view of x and out
// (complex_views.h) with the trailing pair dim kept: the float engine does the work, and its
// accuracy (float accumulators, pairwise blocks) carries over to both components.
template <typename T>
void sum_cpu(const KernelContext&, const SumArgs& a) {
  if constexpr (is_complex_v<T>) {
    const DType od = a.out->dtype();
    const DenseTensor x = a.x.dtype() == od ? a.x : dense::cast(a.x, od);
    auto mask = mask_of("sum", a.x, a.axis);
    if (!is_complex(od)) {  // a real `dtype`: the real parts summed
      return visit_dtype(
          od, [&](auto tag) { accumulate<cpu::SumReducer, decltype(tag)>(x, mask, *a.out); });
    }
    mask.push_back(false);
    DenseTensor out = view_as_real(*a.out);
    if (a.out->dtype() == DType::kComplex64) {
      accumulate<cpu::SumReducer, float>(view_as_real(x), mask, out);
    } else {
      accumulate<cpu::SumReducer, double>(view_as_real(x), mask, out);
    }
  } else {
    accumulate_as_out<cpu::SumReducer, T>(a.x, mask_of("sum", a.x, a.axis), *a.out);
  }
}
SKIFF_INSTANTIATE_KERNEL(sum, cpu)

/// A complex product on the engine in T itself: products do not cancel, so no wider
/// accumulator is needed (the real/imaginary view of sum does not apply to products).
template <typename T>
void complex_prod(const DenseTensor& x, const std::vector<bool>& mask, DenseTensor& out) {
  if constexpr (is_complex_v<T>) {
    cpu::reduce<cpu::ProdReducer<T>, T, T>(x, mask, out, Identity{});
  } else {
    accumulate_as_out<cpu::ProdReducer, T>(x, mask, out);
  }
}

template <typename T>
void prod_cpu(const KernelContext&, const ProdArgs& a) {
  const auto mask = mask_of("prod", a.x, a.axis);
  if constexpr (is_complex_v<T>) {
    const DType od = a.out->dtype();
    if (od == dtype_v<T>) return complex_prod<T>(a.x, mask, *a.out);
    const DenseTensor xc = dense::cast(a.x, od);  // a `dtype`: x cast to it first, as Paddle
    visit_dtype_complex(od, [&](auto tag) { complex_prod<decltype(tag)>(xc, mask, *a.out); });
  } else {
    accumulate_as_out<cpu::ProdReducer, T>(a.x, mask, *a.out);
  }
}
SKIFF_INSTANTIATE_KERNEL(prod, cpu)

template <typename T>
void mean_cpu(const KernelContext&, const MeanArgs& a) {
  using R = real_t<T>;  // Note [Complex reductions as real ones]
  using Acc = cpu::sum_acc_t<R>;
  auto mask = mask_of("mean", a.x, a.axis);
  const Acc n = static_cast<Acc>(reduced_count(a.x, mask));
  if constexpr (is_complex_v<T>) {
    mask.push_back(false);
    DenseTensor out = view_as_real(*a.out);
    cpu::reduce<cpu::SumReducer<Acc>, R, R>(view_as_real(a.x), mask, out,
                                            [n](Acc s) { return s / n; });
  } else {
    cpu::reduce<cpu::SumReducer<Acc>, T, T>(a.x, mask, *a.out, [n](Acc s) { return s / n; });
  }
}
SKIFF_INSTANTIATE_KERNEL(mean, cpu)

template <typename T>
void max_cpu(const KernelContext&, const MaxArgs& a) {
  extreme<cpu::MaxReducer, T>(a.x, mask_of("max", a.x, a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(max, cpu)

template <typename T>
void min_cpu(const KernelContext&, const MinArgs& a) {
  extreme<cpu::MinReducer, T>(a.x, mask_of("min", a.x, a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(min, cpu)

template <typename T>
void amax_cpu(const KernelContext&, const AmaxArgs& a) {
  extreme<cpu::MaxReducer, T>(a.x, mask_of("amax", a.x, a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(amax, cpu)

template <typename T>
void amin_cpu(const KernelContext&, const AminArgs& a) {
  extreme<cpu::MinReducer, T>(a.x, mask_of("amin", a.x, a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(amin, cpu)

template <typename T>
void all_cpu(const KernelContext&, const AllArgs& a) {
  logical<cpu::AllReducer>(a.x, mask_of("all", a.x, a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(all, cpu)

template <typename T>
void any_cpu(const KernelContext&, const AnyArgs& a) {
  logical<cpu::AnyReducer>(a.x, mask_of("any", a.x, a.axis), *a.out);
}
SKIFF_INSTANTIATE_KERNEL(any, cpu)

}  // namespace skiff::ops
