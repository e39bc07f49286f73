// Conversions between complex and real element types for kernels: numpy's rules (real to
// complex gives a zero imaginary part; complex to real keeps the real part, as Paddle's cast).
#pragma once

#include <complex>
#include <type_traits>

#include "skiff/core/dtype.h"

namespace skiff::ops {

template <typename T>
struct real_of {
  using type = T;
};
template <typename R>
struct real_of<std::complex<R>> {
  using type = R;
};
/// float for complex64, double for complex128, T otherwise.
template <typename T>
using real_t = typename real_of<T>::type;

/// static_cast that also crosses between complex and real (V: a compute type, no float16).
template <typename To, typename V>
inline To value_cast(V v) {
  if constexpr (is_complex_v<V> && std::is_same_v<To, bool>) {
    return v != V(0);
  } else if constexpr (is_complex_v<V> && !is_complex_v<To>) {
    return value_cast<To>(v.real());
  } else if constexpr (is_complex_v<To> && !is_complex_v<V>) {
    return To(static_cast<real_t<To>>(static_cast<compute_t<V>>(v)));
  } else if constexpr (is_complex_v<To>) {
    return To(static_cast<real_t<To>>(v.real()), static_cast<real_t<To>>(v.imag()));
  } else if constexpr (std::is_same_v<To, bool>) {
    return static_cast<bool>(v);
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace skiff::ops
