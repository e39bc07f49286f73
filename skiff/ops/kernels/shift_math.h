// The bit shifts of Paddle's bitwise_left_shift / bitwise_right_shift for one element, shared by
// the CPU and reference kernels. A shift by y < 0 or y >= the width of T is defined (C++ leaves
// it undefined): a left shift and a logical right shift give 0, an arithmetic right shift fills
// with x's sign bit (0 or -1). Shifts go through the unsigned type, so a negative x shifted left
// wraps instead of being undefined.
#pragma once

#include <type_traits>

namespace skiff::ops {

template <typename T>
inline bool shift_in_range(T y) {
  return !(y < T(0)) && static_cast<unsigned long long>(y) < sizeof(T) * 8;
}

template <typename T>
inline T shift_left(T x, T y) {
  using U = std::make_unsigned_t<T>;
  if (!shift_in_range(y)) return T(0);
  return static_cast<T>(static_cast<U>(static_cast<U>(x) << static_cast<int>(y)));
}

template <bool kArithmetic, typename T>
inline T shift_right(T x, T y) {
  using U = std::make_unsigned_t<T>;
  if constexpr (kArithmetic && std::is_signed_v<T>) {
    if (!shift_in_range(y)) return x < 0 ? T(-1) : T(0);
    return static_cast<T>(x >> static_cast<int>(y));  // arithmetic on signed types (C++20)
  } else {
    if (!shift_in_range(y)) return T(0);
    return static_cast<T>(static_cast<U>(x) >> static_cast<int>(y));
  }
}

}  // namespace skiff::ops
