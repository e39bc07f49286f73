// Reference kernels of the complex-number ops: plain per-index loops (complex128, float64).
#include "skiff/ops/generated/kernels/complex.h"

#include <cmath>
#include <complex>

#include "skiff/core/complex_views.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/complex_math.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

using reference::map1;
using reference::map2;

template <typename T>
void real_reference(const KernelContext&, const RealArgs& a) {
  map1<real_t<T>, T>(a.x, *a.out, [](T v) { return v.real(); });
}
SKIFF_INSTANTIATE_KERNEL(real, reference)

template <typename T>
void imag_reference(const KernelContext&, const ImagArgs& a) {
  map1<real_t<T>, T>(a.x, *a.out, [](T v) { return v.imag(); });
}
SKIFF_INSTANTIATE_KERNEL(imag, reference)

template <typename T>
void conj_reference(const KernelContext&, const ConjArgs& a) {
  if constexpr (is_complex_v<T>) {
    map1<T, T>(a.x, *a.out, [](T v) { return std::conj(v); });
  } else {
    map1<T, T>(a.x, *a.out, [](T v) { return v; });
  }
}
SKIFF_INSTANTIATE_KERNEL(conj, reference)

template <typename T>
void complex_reference(const KernelContext&, const ComplexArgs& a) {
  map2<std::complex<T>, T, T>(a.real, a.imag, *a.out,
                              [](T re, T im) { return std::complex<T>(re, im); });
}
SKIFF_INSTANTIATE_KERNEL(complex, reference)

template <typename T>
void as_complex_reference(const KernelContext&, const AsComplexArgs& a) {
  a.out->copy_from(view_as_complex(a.x));
}
SKIFF_INSTANTIATE_KERNEL(as_complex, reference)

template <typename T>
void as_real_reference(const KernelContext&, const AsRealArgs& a) {
  a.out->copy_from(view_as_real(a.x));
}
SKIFF_INSTANTIATE_KERNEL(as_real, reference)

template <typename T>
void angle_reference(const KernelContext&, const AngleArgs& a) {
  if constexpr (is_complex_v<T>) {
    map1<real_t<T>, T>(a.x, *a.out, [](T v) { return std::arg(v); });
  } else {  // numpy's angle of a real number: atan2(0, x)
    map1<T, T>(a.x, *a.out, [](T v) { return std::atan2(T(0), v); });
  }
}
SKIFF_INSTANTIATE_KERNEL(angle, reference)

}  // namespace skiff::ops
