// Reference kernels of skiff/ops/yaml/math_functions.yaml: plain float64 / int64 loops, the
// oracle of the consistency test. as_strided gathers into a fresh tensor (never a view).
#include "skiff/ops/generated/kernels/math_functions.h"

#include <cmath>
#include <cstdlib>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"
#include "skiff/ops/kernels/shift_math.h"
#include "skiff/ops/meta/math_functions_meta.h"

namespace skiff::ops {

using reference::map1;
using reference::map2;

namespace {

uint64_t magnitude(int64_t v) { return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : v; }

uint64_t euclid(int64_t x, int64_t y) {
  uint64_t a = magnitude(x), b = magnitude(y);
  while (b != 0) {
    const uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

}  // namespace

template <typename T>
void frac_reference(const KernelContext&, const FracArgs& a) {
  map1<T, T>(a.x, *a.out, [](T v) -> T {
    if constexpr (std::is_integral_v<T>) {
      return 0;
    } else {
      return v - std::trunc(v);
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(frac, reference)

template <typename T>
void logit_reference(const KernelContext&, const LogitArgs& a) {
  const double eps = a.eps;
  map1<T, T>(a.x, *a.out, [eps](T v) -> T {
    double z = v;
    if (eps != 0) z = std::min(std::max(z, eps), 1.0 - eps);
    return std::log(z / (1.0 - z));
  });
}
SKIFF_INSTANTIATE_KERNEL(logit, reference)

template <typename T>
void heaviside_reference(const KernelContext&, const HeavisideArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) -> T {
    if (x == 0) return y;
    return x > 0 ? 1 : 0;
  });
}
SKIFF_INSTANTIATE_KERNEL(heaviside, reference)

template <typename T>
void gcd_reference(const KernelContext&, const GcdArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) -> T { return static_cast<T>(euclid(x, y)); });
}
SKIFF_INSTANTIATE_KERNEL(gcd, reference)

template <typename T>
void lcm_reference(const KernelContext&, const LcmArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) -> T {
    const uint64_t g = euclid(x, y);
    return g == 0 ? 0 : static_cast<T>(magnitude(x) / g * magnitude(y));
  });
}
SKIFF_INSTANTIATE_KERNEL(lcm, reference)

template <typename T>
void as_strided_reference(const KernelContext& c, const AsStridedArgs& a) {
  TensorMeta m;
  meta::as_strided_meta(c.op, a.x.meta(), a.dims, a.stride, a.offset, &m);
  *a.out = DenseTensor::empty(m.dims, a.x.dtype(), a.x.place());
  const Dims& xd = a.x.dims();
  reference::for_each_index(m.dims, [&](const int64_t* idx) {
    int64_t p = a.offset;  // row-major position in x
    for (int d = 0; d < m.dims.size(); ++d) p += idx[d] * a.stride[d];
    int64_t xo = 0;
    for (int d = xd.size() - 1; d >= 0; --d) {
      xo += (p % xd[d]) * a.x.strides()[d];
      p /= xd[d];
    }
    reference::set<T>(*a.out, reference::offset_of(*a.out, idx), reference::get<T>(a.x, xo));
  });
}
SKIFF_INSTANTIATE_KERNEL(as_strided, reference)

template <typename T>
void bitwise_left_shift_reference(const KernelContext&, const BitwiseLeftShiftArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return shift_left(x, y); });
}
SKIFF_INSTANTIATE_KERNEL(bitwise_left_shift, reference)

template <typename T>
void bitwise_right_shift_reference(const KernelContext&, const BitwiseRightShiftArgs& a) {
  const bool arithmetic = a.is_arithmetic;
  map2<T, T, T>(a.x, a.y, *a.out, [arithmetic](T x, T y) {
    return arithmetic ? shift_right<true>(x, y) : shift_right<false>(x, y);
  });
}
SKIFF_INSTANTIATE_KERNEL(bitwise_right_shift, reference)

}  // namespace skiff::ops
