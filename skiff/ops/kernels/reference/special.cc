// Reference kernels of skiff/ops/yaml/special.yaml: the functions of special_math.h in long
// double (the CPU kernels run them in double), element by element; nextafter in the tested
// dtype itself, since its result is defined by that precision.
#include "skiff/ops/generated/kernels/special.h"

#include <cmath>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"
#include "skiff/ops/kernels/special_math.h"

namespace skiff::ops {

using reference::map1;
using reference::map2;

#define SKIFF_SPECIAL_REFERENCE(op, Args, ...)               \
  template <typename T>                                      \
  void op##_reference(const KernelContext&, const Args& a) { \
    map1<T, T>(a.x, *a.out, [](T t) {                        \
      const long double v = static_cast<long double>(t);     \
      return static_cast<T>(__VA_ARGS__);                    \
    });                                                      \
  }                                                          \
  SKIFF_INSTANTIATE_KERNEL(op, reference)

SKIFF_SPECIAL_REFERENCE(lgamma, LgammaArgs, special::lgamma(v))
SKIFF_SPECIAL_REFERENCE(digamma, DigammaArgs, special::digamma(v))
SKIFF_SPECIAL_REFERENCE(erfinv, ErfinvArgs, special::erfinv(v))
SKIFF_SPECIAL_REFERENCE(i0, I0Args, special::bessel_i(0, v, false))
SKIFF_SPECIAL_REFERENCE(i0e, I0eArgs, special::bessel_i(0, v, true))
SKIFF_SPECIAL_REFERENCE(i1, I1Args, special::bessel_i(1, v, false))
SKIFF_SPECIAL_REFERENCE(i1e, I1eArgs, special::bessel_i(1, v, true))
#undef SKIFF_SPECIAL_REFERENCE

template <typename T>
void polygamma_reference(const KernelContext&, const PolygammaArgs& a) {
  const int64_t n = a.n;
  map1<T, T>(a.x, *a.out, [n](T t) {
    return static_cast<T>(special::polygamma(n, static_cast<long double>(t)));
  });
}
SKIFF_INSTANTIATE_KERNEL(polygamma, reference)

template <typename T>
void gammaincc_reference(const KernelContext&, const GammainccArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) {
    return static_cast<T>(
        special::gammaincc(static_cast<long double>(x), static_cast<long double>(y)));
  });
}
SKIFF_INSTANTIATE_KERNEL(gammaincc, reference)

template <typename T>
void nextafter_reference(const KernelContext&, const NextafterArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return std::nextafter(x, y); });
}
SKIFF_INSTANTIATE_KERNEL(nextafter, reference)

}  // namespace skiff::ops
