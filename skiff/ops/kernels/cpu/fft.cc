// CPU kernels of fft_c2c, fft_r2c and fft_c2r (skiff/ops/yaml/fft.yaml) on KISS FFT's C++ template
// (kissfft.hh from Debian's libkissfft-dev, BSD-3-Clause): mixed radix 2/3/4/5 with a generic
// butterfly for other primes, so every length works, in float and double. Multi-axis transforms
// are 1-D transforms axis by axis (fft_lines.h). The real transforms go through the complex one
// (r2c: the input as complex; c2r: the Hermitian-completed line), so odd lengths need no special
// case; this costs up to twice the arithmetic of a dedicated real FFT.
#include "skiff/ops/generated/kernels/fft.h"

#include <kissfft/kissfft.hh>

#include "skiff/ops/generated/dense/elementwise.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/complex_math.h"
#include "skiff/ops/kernels/fft_lines.h"

namespace skiff::ops {

namespace {
/// A kissfft plan for n points as a line transform; kissfft's "inverse" is the + exponent.
template <typename C>
auto kiss_planner() {
  return [](int64_t n, bool forward) {
    auto plan = std::make_shared<kissfft<typename C::value_type>>(static_cast<size_t>(n), !forward);
    return [plan](const C* in, C* out) { plan->transform(in, out); };
  };
}
}  // namespace

template <typename T>
void fft_c2c_cpu(const KernelContext&, const FftC2cArgs& a) {
  fft::c2c<T>(a.x, *a.out, a.axes, a.normalization, a.forward, kiss_planner<T>());
}
SKIFF_INSTANTIATE_KERNEL(fft_c2c, cpu)

template <typename T>
void fft_r2c_cpu(const KernelContext&, const FftR2cArgs& a) {
  DenseTensor xc = dense::cast(a.x, real_to_complex(a.x.dtype()));
  using C = std::complex<T>;
  fft::r2c<C>(xc, *a.out, a.axes, a.normalization, a.forward, a.onesided, kiss_planner<C>());
}
SKIFF_INSTANTIATE_KERNEL(fft_r2c, cpu)

template <typename T>
void fft_c2r_cpu(const KernelContext&, const FftC2rArgs& a) {
  DenseTensor xc = a.x.copy_to(a.x.place());  // contiguous; c2r overwrites it
  DenseTensor full = DenseTensor::empty(a.out->dims(), a.x.dtype(), a.out->place());
  fft::c2r<T, real_t<T>>(xc, full, *a.out, a.axes, a.normalization, a.forward, kiss_planner<T>());
}
SKIFF_INSTANTIATE_KERNEL(fft_c2r, cpu)

}  // namespace skiff::ops
