// Reference kernels of the activations: the textbook formulas of paddle.nn.functional's
// documentation in float64, element by element (NaN propagates through every one).
#include "skiff/ops/generated/kernels/activation.h"

#include <cmath>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

using reference::map1;

template <typename T>
void relu_reference(const KernelContext&, const ReluArgs& a) {
  map1<T, T>(a.x, *a.out, [](T v) { return std::isnan(v) ? v : std::max(v, 0.0); });
}
SKIFF_INSTANTIATE_KERNEL(relu, reference)

template <typename T>
void relu_grad_reference(const KernelContext&, const ReluGradArgs& a) {
  reference::map2<T, T, T>(a.out, a.out_grad, *a.x_grad,
                           [](T out, T grad) { return out > 0 ? grad : T(0); });
}
SKIFF_INSTANTIATE_KERNEL(relu_grad, reference)

template <typename T>
void relu6_reference(const KernelContext&, const Relu6Args& a) {
  map1<T, T>(a.x, *a.out, [](T v) { return std::isnan(v) ? v : std::min(std::max(v, 0.0), 6.0); });
}
SKIFF_INSTANTIATE_KERNEL(relu6, reference)

template <typename T>
void leaky_relu_reference(const KernelContext&, const LeakyReluArgs& a) {
  const double slope = a.negative_slope;
  map1<T, T>(a.x, *a.out, [&](T v) { return v >= 0 ? v : slope * v; });
}
SKIFF_INSTANTIATE_KERNEL(leaky_relu, reference)

template <typename T>
void elu_reference(const KernelContext&, const EluArgs& a) {
  const double alpha = a.alpha;
  map1<T, T>(a.x, *a.out, [&](T v) { return v > 0 ? v : alpha * (std::exp(v) - 1); });
}
SKIFF_INSTANTIATE_KERNEL(elu, reference)

template <typename T>
void gelu_reference(const KernelContext&, const GeluArgs& a) {
  const double sqrt_2_over_pi = std::sqrt(2 / M_PI);
  if (a.approximate) {
    map1<T, T>(a.x, *a.out, [&](T v) {
      return 0.5 * v * (1 + std::tanh(sqrt_2_over_pi * (v + 0.044715 * v * v * v)));
    });
  } else {
    map1<T, T>(a.x, *a.out, [](T v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); });
  }
}
SKIFF_INSTANTIATE_KERNEL(gelu, reference)

template <typename T>
void silu_reference(const KernelContext&, const SiluArgs& a) {
  map1<T, T>(a.x, *a.out, [](T v) { return v / (T(1) + std::exp(-v)); });
}
SKIFF_INSTANTIATE_KERNEL(silu, reference)

template <typename T>
void sigmoid_reference(const KernelContext&, const SigmoidArgs& a) {
  map1<T, T>(a.x, *a.out, [](T v) { return T(1) / (T(1) + std::exp(-v)); });
}
SKIFF_INSTANTIATE_KERNEL(sigmoid, reference)

template <typename T>
void softplus_reference(const KernelContext&, const SoftplusArgs& a) {
  const double beta = a.beta, threshold = a.threshold;
  map1<T, T>(a.x, *a.out, [&](T v) {
    return beta * v > threshold ? v : std::log(1 + std::exp(beta * v)) / beta;
  });
}
SKIFF_INSTANTIATE_KERNEL(softplus, reference)

template <typename T>
void hardswish_reference(const KernelContext&, const HardswishArgs& a) {
  map1<T, T>(a.x, *a.out,
             [](T v) { return std::isnan(v) ? v : v * std::min(std::max(v + 3, 0.0), 6.0) / 6; });
}
SKIFF_INSTANTIATE_KERNEL(hardswish, reference)

template <typename T>
void hardsigmoid_reference(const KernelContext&, const HardsigmoidArgs& a) {
  const double slope = a.slope, offset = a.offset;
  map1<T, T>(a.x, *a.out, [&](T v) {
    return std::isnan(v) ? v : std::min(std::max(slope * v + offset, 0.0), 1.0);
  });
}
SKIFF_INSTANTIATE_KERNEL(hardsigmoid, reference)

template <typename T>
void mish_reference(const KernelContext&, const MishArgs& a) {
  map1<T, T>(a.x, *a.out, [](T v) {
    const double softplus = v > 20 ? v : std::log(1 + std::exp(v));
    return v * std::tanh(softplus);
  });
}
SKIFF_INSTANTIATE_KERNEL(mish, reference)

template <typename T>
void tanhshrink_reference(const KernelContext&, const TanhshrinkArgs& a) {
  map1<T, T>(a.x, *a.out, [](T v) { return v - std::tanh(v); });
}
SKIFF_INSTANTIATE_KERNEL(tanhshrink, reference)

}  // namespace skiff::ops
