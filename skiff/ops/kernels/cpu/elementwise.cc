// CPU kernels of elementwise binary ops and cast.
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops {

template <typename T>
void cast_cpu(const KernelContext&, const CastArgs& a) {
  visit_dtype(a.dtype, [&](auto tag) {
    using O = decltype(tag);
    cpu::unary_loop<O, T>(a.x, *a.out, [](auto v) { return v; });
  });
}
SKIFF_INSTANTIATE_KERNEL(cast, cpu)

template <typename T>
void add_cpu(const KernelContext&, const AddArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](auto x, auto y) { return x + y; });
}
SKIFF_INSTANTIATE_KERNEL(add, cpu)

template <typename T>
void subtract_cpu(const KernelContext&, const SubtractArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](auto x, auto y) { return x - y; });
}
SKIFF_INSTANTIATE_KERNEL(subtract, cpu)

template <typename T>
void multiply_cpu(const KernelContext&, const MultiplyArgs& a) {
  if constexpr (std::is_same_v<T, bool>) {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](bool x, bool y) { return x && y; });
  } else {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](auto x, auto y) { return x * y; });
  }
}
SKIFF_INSTANTIATE_KERNEL(multiply, cpu)

template <typename T>
void divide_cpu(const KernelContext&, const DivideArgs& a) {
  if constexpr (std::is_integral_v<T>) {  // true division into float32
    cpu::binary_loop<float, T, T>(a.x, a.y, *a.out, [](auto x, auto y) {
      return static_cast<float>(static_cast<double>(x) / static_cast<double>(y));
    });
  } else {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](auto x, auto y) { return x / y; });
  }
}
SKIFF_INSTANTIATE_KERNEL(divide, cpu)

}  // namespace skiff::ops
