// CPU kernels of skiff/ops/yaml/math_functions.yaml: frac, logit, heaviside, gcd, lcm through the
// elementwise loops of loops.h, and as_strided (a view, or a view of a contiguous copy).
//
// The shifts follow Paddle's functors (shift_math.h, shared with the reference).
// gcd/lcm run Euclid on the magnitudes as unsigned values, so INT_MIN has a magnitude and
// nothing overflows inside the loop; lcm divides before it multiplies and wraps like an
// unsigned product where the result does not fit.
#include "skiff/ops/generated/kernels/math_functions.h"

#include <cmath>
#include <type_traits>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/cpu/manipulation_util.h"
#include "skiff/ops/kernels/shift_math.h"
#include "skiff/ops/meta/math_functions_meta.h"

namespace skiff::ops {

namespace {

template <typename T>
using C = compute_t<T>;

template <typename T>
std::make_unsigned_t<T> magnitude(T v) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_signed_v<T>) {
    return v < 0 ? static_cast<U>(U(0) - static_cast<U>(v)) : static_cast<U>(v);
  } else {
    return v;
  }
}

template <typename T>
std::make_unsigned_t<T> gcd_magnitude(T x, T y) {
  using U = std::make_unsigned_t<T>;
  U a = magnitude(x), b = magnitude(y);
  while (b != 0) {
    const U t = static_cast<U>(a % b);
    a = b;
    b = t;
  }
  return a;
}

}  // namespace

template <typename T>
void frac_cpu(const KernelContext&, const FracArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    cpu::unary_loop<T, T>(a.x, *a.out, [](T) { return T(0); });
  } else {
    cpu::unary_loop<T, T>(a.x, *a.out, [](C<T> v) { return v - std::trunc(v); });
  }
}
SKIFF_INSTANTIATE_KERNEL(frac, cpu)

template <typename T>
void logit_cpu(const KernelContext&, const LogitArgs& a) {
  const C<T> eps = static_cast<C<T>>(a.eps);
  if (a.eps == 0) {
    cpu::unary_loop<T, T>(a.x, *a.out, [](C<T> v) { return std::log(v / (C<T>(1) - v)); });
    return;
  }
  cpu::unary_loop<T, T>(a.x, *a.out, [eps](C<T> v) {
    const C<T> z = v < eps ? eps : (v > C<T>(1) - eps ? C<T>(1) - eps : v);
    return std::log(z / (C<T>(1) - z));
  });
}
SKIFF_INSTANTIATE_KERNEL(logit, cpu)

template <typename T>
void heaviside_cpu(const KernelContext&, const HeavisideArgs& a) {
  // Paddle's functor: y where x == 0, else (x > 0); a NaN x gives 0.
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) {
    return x == C<T>(0) ? y : static_cast<C<T>>(x > C<T>(0));
  });
}
SKIFF_INSTANTIATE_KERNEL(heaviside, cpu)

template <typename T>
void gcd_cpu(const KernelContext&, const GcdArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out,
                            [](T x, T y) { return static_cast<T>(gcd_magnitude(x, y)); });
}
SKIFF_INSTANTIATE_KERNEL(gcd, cpu)

template <typename T>
void lcm_cpu(const KernelContext&, const LcmArgs& a) {
  using U = std::make_unsigned_t<T>;
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) {
    const U g = gcd_magnitude(x, y);
    if (g == 0) return T(0);
    return static_cast<T>(static_cast<U>(static_cast<U>(magnitude(x) / g) * magnitude(y)));
  });
}
SKIFF_INSTANTIATE_KERNEL(lcm, cpu)

template <typename T>
void bitwise_left_shift_cpu(const KernelContext&, const BitwiseLeftShiftArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return shift_left(x, y); });
}
SKIFF_INSTANTIATE_KERNEL(bitwise_left_shift, cpu)

template <typename T>
void bitwise_right_shift_cpu(const KernelContext&, const BitwiseRightShiftArgs& a) {
  if (a.is_arithmetic) {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return shift_right<true>(x, y); });
  } else {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return shift_right<false>(x, y); });
  }
}
SKIFF_INSTANTIATE_KERNEL(bitwise_right_shift, cpu)

template <typename T>
void as_strided_cpu(const KernelContext& c, const AsStridedArgs& a) {
  TensorMeta m;
  meta::as_strided_meta(c.op, a.x.meta(), a.dims, a.stride, a.offset, &m);
  const DenseTensor base = a.x.is_contiguous() ? a.x : cpu::clone(a.x);
  *a.out = base.as_strided(m.dims, Dims(a.stride), base.offset() + a.offset);
}
SKIFF_INSTANTIATE_KERNEL(as_strided, cpu)

}  // namespace skiff::ops
