// Reference kernels of elementwise binary ops and cast: float64 / int64 loops.
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

using reference::map1;
using reference::map2;

template <typename T>
void cast_reference(const KernelContext&, const CastArgs& a) {
  visit_dtype(a.dtype, [&](auto tag) {
    using O = decltype(tag);
    map1<O, T>(a.x, *a.out, [](T v) -> O {
      if constexpr (std::is_same_v<O, bool>) {
        return static_cast<double>(static_cast<compute_t<T>>(v)) != 0.0;
      } else if constexpr (std::is_integral_v<O> && std::is_integral_v<T>) {
        return static_cast<O>(v);
      } else {
        return static_cast<O>(static_cast<double>(static_cast<compute_t<T>>(v)));
      }
    });
  });
}
SKIFF_INSTANTIATE_KERNEL(cast, reference)

template <typename T>
void add_reference(const KernelContext&, const AddArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return static_cast<T>(x + y); });
}
SKIFF_INSTANTIATE_KERNEL(add, reference)

template <typename T>
void subtract_reference(const KernelContext&, const SubtractArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return static_cast<T>(x - y); });
}
SKIFF_INSTANTIATE_KERNEL(subtract, reference)

template <typename T>
void multiply_reference(const KernelContext&, const MultiplyArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return static_cast<T>(x * y); });
}
SKIFF_INSTANTIATE_KERNEL(multiply, reference)

template <typename T>
void divide_reference(const KernelContext&, const DivideArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    map2<float, T, T>(a.x, a.y, *a.out, [](T x, T y) {
      return static_cast<float>(static_cast<double>(x) / static_cast<double>(y));
    });
  } else {
    map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x / y; });
  }
}
SKIFF_INSTANTIATE_KERNEL(divide, reference)

}  // namespace skiff::ops
