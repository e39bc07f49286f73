// CPU kernels of the activations: one cpu::unary_loop each with a functor written to vectorize
// (ternary selections, vm:: transcendental functions from glibc's libmvec, see unary_math.h).
// 16-bit floats compute in float. Formulas are chosen to avoid cancellation where the textbook
// form has it: gelu uses erfc, the tanh gelu uses 0.5 (1 + tanh u) = sigmoid(2u), mish uses
// tanh(log1p(e)) = n / (n + 2) with n = e (e + 2). NaN inputs give NaN.
#include "skiff/ops/generated/kernels/activation.h"

#include <cmath>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/cpu/unary_math.h"

namespace skiff::ops {

using cpu::unary_loop;
namespace vm = cpu::vm;

template <typename T>
void relu_cpu(const KernelContext&, const ReluArgs& a) {
  unary_loop<T, T>(a.x, *a.out, [](auto v) { return v < 0 ? decltype(v)(0) : v; });
}
SKIFF_INSTANTIATE_KERNEL(relu, cpu)

template <typename T>
void relu_grad_cpu(const KernelContext&, const ReluGradArgs& a) {
  cpu::binary_loop<T, T, T>(a.out, a.out_grad, *a.x_grad, [](auto out, auto grad) {
    return out > 0 ? grad : decltype(grad)(0);
  });
}
SKIFF_INSTANTIATE_KERNEL(relu_grad, cpu)

template <typename T>
void relu6_cpu(const KernelContext&, const Relu6Args& a) {
  unary_loop<T, T>(a.x, *a.out, [](auto v) {
    using V = decltype(v);
    return v < 0 ? V(0) : (v > V(6) ? V(6) : v);
  });
}
SKIFF_INSTANTIATE_KERNEL(relu6, cpu)

template <typename T>
void leaky_relu_cpu(const KernelContext&, const LeakyReluArgs& a) {
  const double slope = a.negative_slope;
  unary_loop<T, T>(a.x, *a.out, [slope](auto v) {
    using V = decltype(v);
    return v < 0 ? v * V(slope) : v;
  });
}
SKIFF_INSTANTIATE_KERNEL(leaky_relu, cpu)

template <typename T>
void elu_cpu(const KernelContext&, const EluArgs& a) {
  const double alpha = a.alpha;
  unary_loop<T, T>(a.x, *a.out, [alpha](auto v) {
    using V = decltype(v);
    return v > 0 ? v : V(alpha) * vm::expm1(v);
  });
}
SKIFF_INSTANTIATE_KERNEL(elu, cpu)

template <typename T>
void gelu_cpu(const KernelContext&, const GeluArgs& a) {
  if (a.approximate) {  // x sigmoid(2u), u = sqrt(2 / pi) (x + 0.044715 x^3)
    unary_loop<T, T>(a.x, *a.out, [](auto v) {
      using V = decltype(v);
      const V u2 = V(2 * 0.7978845608028654) * (v + V(0.044715) * v * v * v);
      return v / (V(1) + vm::exp(-u2));
    });
  } else {  // 0.5 x erfc(-x / sqrt 2)
    unary_loop<T, T>(a.x, *a.out, [](auto v) {
      using V = decltype(v);
      return V(0.5) * v * vm::erfc(v * V(-0.7071067811865476));
    });
  }
}
SKIFF_INSTANTIATE_KERNEL(gelu, cpu)

template <typename T>
void silu_cpu(const KernelContext&, const SiluArgs& a) {
  unary_loop<T, T>(a.x, *a.out, [](auto v) { return v / (decltype(v)(1) + vm::exp(-v)); });
}
SKIFF_INSTANTIATE_KERNEL(silu, cpu)

template <typename T>
void sigmoid_cpu(const KernelContext&, const SigmoidArgs& a) {
  unary_loop<T, T>(a.x, *a.out, [](auto v) {
    using V = decltype(v);
    return V(1) / (V(1) + vm::exp(-v));
  });
}
SKIFF_INSTANTIATE_KERNEL(sigmoid, cpu)

template <typename T>
void softplus_cpu(const KernelContext&, const SoftplusArgs& a) {
  const double beta = a.beta, threshold = a.threshold;
  unary_loop<T, T>(a.x, *a.out, [beta, threshold](auto v) {
    using V = decltype(v);
    const V bv = V(beta) * v;
    return bv > V(threshold) ? v : vm::log1p(vm::exp(bv)) / V(beta);
  });
}
SKIFF_INSTANTIATE_KERNEL(softplus, cpu)

template <typename T>
void hardswish_cpu(const KernelContext&, const HardswishArgs& a) {
  unary_loop<T, T>(a.x, *a.out, [](auto v) {
    using V = decltype(v);
    V t = v + V(3);
    t = t < 0 ? V(0) : t;
    t = t > V(6) ? V(6) : t;
    return v * t / V(6);
  });
}
SKIFF_INSTANTIATE_KERNEL(hardswish, cpu)

template <typename T>
void hardsigmoid_cpu(const KernelContext&, const HardsigmoidArgs& a) {
  const double slope = a.slope, offset = a.offset;
  unary_loop<T, T>(a.x, *a.out, [slope, offset](auto v) {
    using V = decltype(v);
    const V t = V(slope) * v + V(offset);
    return t < 0 ? V(0) : (t > V(1) ? V(1) : t);
  });
}
SKIFF_INSTANTIATE_KERNEL(hardsigmoid, cpu)

template <typename T>
void mish_cpu(const KernelContext&, const MishArgs& a) {
  unary_loop<T, T>(a.x, *a.out, [](auto v) {
    using V = decltype(v);
    const V e = vm::exp(v);
    const V n = e * (e + V(2));
    return v > V(20) ? v : v * n / (n + V(2));
  });
}
SKIFF_INSTANTIATE_KERNEL(mish, cpu)

template <typename T>
void tanhshrink_cpu(const KernelContext&, const TanhshrinkArgs& a) {
  unary_loop<T, T>(a.x, *a.out, [](auto v) { return v - vm::tanh(v); });
}
SKIFF_INSTANTIATE_KERNEL(tanhshrink, cpu)

}  // namespace skiff::ops
