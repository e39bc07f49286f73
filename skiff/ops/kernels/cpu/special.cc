// CPU kernels of skiff/ops/yaml/special.yaml: each is one elementwise loop over a function of
// special_math.h evaluated in double (16-bit floats and float32 widen, then round once). These
// functions branch per element (series, recurrences, continued fractions), so the loops do not
// vectorize; nextafter stays in x's own precision.
#include "skiff/ops/generated/kernels/special.h"

#include <cmath>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/special_math.h"

namespace skiff::ops {

namespace {

template <typename T, typename F>
void map_in_double(const DenseTensor& x, DenseTensor& out, const F& f) {
  cpu::unary_loop<T, T>(x, out, [&f](compute_t<T> v) {
    return static_cast<compute_t<T>>(f(static_cast<double>(v)));
  });
}

}  // namespace

#define SKIFF_SPECIAL_KERNEL(op, Args, ...)                              \
  template <typename T>                                                  \
  void op##_cpu(const KernelContext&, const Args& a) {                   \
    map_in_double<T>(a.x, *a.out, [](double v) { return __VA_ARGS__; }); \
  }                                                                      \
  SKIFF_INSTANTIATE_KERNEL(op, cpu)

SKIFF_SPECIAL_KERNEL(lgamma, LgammaArgs, special::lgamma(v))
SKIFF_SPECIAL_KERNEL(digamma, DigammaArgs, special::digamma(v))
SKIFF_SPECIAL_KERNEL(erfinv, ErfinvArgs, special::erfinv(v))
SKIFF_SPECIAL_KERNEL(i0, I0Args, special::bessel_i(0, v, false))
SKIFF_SPECIAL_KERNEL(i0e, I0eArgs, special::bessel_i(0, v, true))
SKIFF_SPECIAL_KERNEL(i1, I1Args, special::bessel_i(1, v, false))
SKIFF_SPECIAL_KERNEL(i1e, I1eArgs, special::bessel_i(1, v, true))
#undef SKIFF_SPECIAL_KERNEL

template <typename T>
void polygamma_cpu(const KernelContext&, const PolygammaArgs& a) {
  const int64_t n = a.n;
  map_in_double<T>(a.x, *a.out, [n](double v) { return special::polygamma(n, v); });
}
SKIFF_INSTANTIATE_KERNEL(polygamma, cpu)

template <typename T>
void gammaincc_cpu(const KernelContext&, const GammainccArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) {
    return static_cast<T>(special::gammaincc(static_cast<double>(x), static_cast<double>(y)));
  });
}
SKIFF_INSTANTIATE_KERNEL(gammaincc, cpu)

template <typename T>
void nextafter_cpu(const KernelContext&, const NextafterArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return std::nextafter(x, y); });
}
SKIFF_INSTANTIATE_KERNEL(nextafter, cpu)

}  // namespace skiff::ops
