// Reference kernels of the FFT ops: the direct O(n^2) DFT of each line in complex128, twiddles
// taken at (j k mod n) so their angles stay exact; the oracle of the kissfft kernels.
#include "skiff/ops/generated/kernels/fft.h"

#include <cmath>
#include <numbers>

#include "skiff/ops/generated/dense/elementwise.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/complex_math.h"
#include "skiff/ops/kernels/fft_lines.h"

namespace skiff::ops {

namespace {
template <typename C>
auto direct_planner() {
  return [](int64_t n, bool forward) {
    using R = typename C::value_type;
    std::vector<C> w(n);
    const double sign = forward ? -1.0 : 1.0;
    for (int64_t j = 0; j < n; ++j) {
      const double angle = sign * 2.0 * std::numbers::pi * static_cast<double>(j) / n;
      w[j] = C(static_cast<R>(std::cos(angle)), static_cast<R>(std::sin(angle)));
    }
    return [w = std::move(w), n](const C* in, C* out) {
      for (int64_t k = 0; k < n; ++k) {
        C acc(0);
        for (int64_t j = 0; j < n; ++j) acc += in[j] * w[(j * k) % n];
        out[k] = acc;
      }
    };
  };
}
}  // namespace

template <typename T>
void fft_c2c_reference(const KernelContext&, const FftC2cArgs& a) {
  fft::c2c<T>(a.x, *a.out, a.axes, a.normalization, a.forward, direct_planner<T>());
}
SKIFF_INSTANTIATE_KERNEL(fft_c2c, reference)

template <typename T>
void fft_r2c_reference(const KernelContext&, const FftR2cArgs& a) {
  DenseTensor xc = dense::cast(a.x, real_to_complex(a.x.dtype()));
  using C = std::complex<T>;
  fft::r2c<C>(xc, *a.out, a.axes, a.normalization, a.forward, a.onesided, direct_planner<C>());
}
SKIFF_INSTANTIATE_KERNEL(fft_r2c, reference)

template <typename T>
void fft_c2r_reference(const KernelContext&, const FftC2rArgs& a) {
  DenseTensor xc = a.x.copy_to(a.x.place());  // contiguous; c2r overwrites it
  DenseTensor full = DenseTensor::empty(a.out->dims(), a.x.dtype(), a.out->place());
  fft::c2r<T, real_t<T>>(xc, full, *a.out, a.axes, a.normalization, a.forward, direct_planner<T>());
}
SKIFF_INSTANTIATE_KERNEL(fft_c2r, reference)

}  // namespace skiff::ops
