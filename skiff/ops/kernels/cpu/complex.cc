// CPU kernels of the complex-number ops (skiff/ops/yaml/complex.yaml): elementwise loops over the
// interleaved (real, imaginary) storage; as_complex/as_real copy through the shared-storage views
// of complex_views.h.
#include "skiff/ops/generated/kernels/complex.h"

#include <cmath>
#include <complex>

#include "skiff/core/complex_views.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops {

template <typename T>
void real_cpu(const KernelContext&, const RealArgs& a) {
  cpu::unary_loop<real_t<T>, T>(a.x, *a.out, [](T v) { return v.real(); });
}
SKIFF_INSTANTIATE_KERNEL(real, cpu)

template <typename T>
void imag_cpu(const KernelContext&, const ImagArgs& a) {
  cpu::unary_loop<real_t<T>, T>(a.x, *a.out, [](T v) { return v.imag(); });
}
SKIFF_INSTANTIATE_KERNEL(imag, cpu)

template <typename T>
void conj_cpu(const KernelContext&, const ConjArgs& a) {
  if constexpr (is_complex_v<T>) {
    cpu::unary_loop<T, T>(a.x, *a.out, [](T v) { return std::conj(v); });
  } else {
    cpu::unary_loop<T, T>(a.x, *a.out, [](auto v) { return v; });
  }
}
SKIFF_INSTANTIATE_KERNEL(conj, cpu)

template <typename T>
void complex_cpu(const KernelContext&, const ComplexArgs& a) {
  cpu::binary_loop<std::complex<T>, T, T>(a.real, a.imag, *a.out,
                                          [](T re, T im) { return std::complex<T>(re, im); });
}
SKIFF_INSTANTIATE_KERNEL(complex, cpu)

template <typename T>
void as_complex_cpu(const KernelContext&, const AsComplexArgs& a) {
  a.out->copy_from(view_as_complex(a.x));
}
SKIFF_INSTANTIATE_KERNEL(as_complex, cpu)

template <typename T>
void as_real_cpu(const KernelContext&, const AsRealArgs& a) {
  a.out->copy_from(view_as_real(a.x));
}
SKIFF_INSTANTIATE_KERNEL(as_real, cpu)

template <typename T>
void angle_cpu(const KernelContext&, const AngleArgs& a) {
  if constexpr (is_complex_v<T>) {
    cpu::unary_loop<real_t<T>, T>(a.x, *a.out, [](T v) { return std::arg(v); });
  } else {  // numpy's angle of a real number: atan2(0, x)
    cpu::unary_loop<T, T>(a.x, *a.out, [](T v) { return std::atan2(T(0), v); });
  }
}
SKIFF_INSTANTIATE_KERNEL(angle, cpu)

}  // namespace skiff::ops
