// IEEE 754 binary16 and bfloat16 storage types. Arithmetic happens in float: kernels load with
// float(x), compute, and store with T(result); conversions round to nearest even, handle
// subnormals, infinities and NaN, and are checked in tests against all 65,536 bit patterns.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace skiff {

namespace detail {

inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) {  // inf or nan: keep the payload
    return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  }
  if (exp == 0) {
    // Zero or subnormal: value = mant * 2^-24, exact in float.
    const float magnitude = static_cast<float>(mant) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

inline uint16_t float_to_half_bits(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  if (x >= 0x47800000u) {  // |f| >= 65536, inf or nan
    if (x > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((x >> 13) & 0x3ffu));
    return static_cast<uint16_t>(sign | 0x7c00u);
  }
  if (x < 0x38800000u) {
    // Result is subnormal or zero. Adding 0.5 (2^-1) places the 10 half-mantissa bits at the
    // bottom of the float mantissa, and the FPU's own round-to-nearest-even does the rounding.
    const float shifted = std::bit_cast<float>(x) + 0.5f;
    return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(shifted) - 0x3f000000u));
  }
  // Normal: rebias the exponent and round the 13 dropped bits to nearest even. A carry out of
  // the mantissa correctly bumps the exponent, up to infinity for values >= 65520.
  const uint32_t odd = (x >> 13) & 1u;
  x += 0xc8000fffu + odd;  // (15 - 127) << 23 plus the rounding bias 0xfff
  return static_cast<uint16_t>(sign | (x >> 13));
}

// Note [Rounding once from double and int64]
// Going double -> float -> 16 bits rounds twice: a double a hair above a 16-bit midpoint can
// land on the midpoint in float and then tie the wrong way. Narrowing to float with
// round-to-odd (truncate toward zero, set the last bit when inexact) instead keeps a sticky
// bit, and float has more than 2 * 11 + 1 bits, so the final round-to-nearest-even equals a
// single rounding. 64-bit integers first narrow to 53 bits the same way.
inline float double_to_float_round_odd(double d) {
  const float f = static_cast<float>(d);
  if (std::isnan(d) || static_cast<double>(f) == d) return f;
  uint32_t b = std::bit_cast<uint32_t>(f);
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) --b;  // step back toward zero
  return std::bit_cast<float>(b | 1u);
}

template <typename I>
double integer_to_double_round_odd(I v) {
  if constexpr (sizeof(I) < 8) {
    return static_cast<double>(v);  // exact
  } else {
    bool neg = false;
    if constexpr (std::is_signed_v<I>) neg = v < 0;
    uint64_t u = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    const int drop = std::bit_width(u) - 53;
    if (drop > 0) {
      const uint64_t low = u & ((uint64_t{1} << drop) - 1);
      u = (u >> drop << drop) | (low ? uint64_t{1} << drop : 0);
    }
    const auto m = static_cast<double>(u);  // 53 significant bits: exact
    return neg ? -m : m;
  }
}

inline float bfloat16_bits_to_float(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

inline uint16_t float_to_bfloat16_bits(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) {  // nan: truncate, keep it quiet
    return static_cast<uint16_t>((x >> 16) | 0x40u);
  }
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

}  // namespace detail

struct float16 {
  uint16_t bits = 0;

  float16() = default;
  static constexpr float16 from_bits(uint16_t b) {
    float16 h;
    h.bits = b;
    return h;
  }
  explicit float16(float f) : bits(detail::float_to_half_bits(f)) {}
  /// Rounds once (see Note [Rounding once from double and int64]).
  explicit float16(double d)
      : bits(detail::float_to_half_bits(detail::double_to_float_round_odd(d))) {}
  template <typename I>
  requires std::is_integral_v<I>
  explicit float16(I v) : float16(detail::integer_to_double_round_odd(v)) {}
  operator float() const { return detail::half_bits_to_float(bits); }
};

struct bfloat16 {
  uint16_t bits = 0;

  bfloat16() = default;
  static constexpr bfloat16 from_bits(uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
  explicit bfloat16(float f) : bits(detail::float_to_bfloat16_bits(f)) {}
  /// Rounds once (see Note [Rounding once from double and int64]).
  explicit bfloat16(double d)
      : bits(detail::float_to_bfloat16_bits(detail::double_to_float_round_odd(d))) {}
  template <typename I>
  requires std::is_integral_v<I>
  explicit bfloat16(I v) : bfloat16(detail::integer_to_double_round_odd(v)) {}
  operator float() const { return detail::bfloat16_bits_to_float(bits); }
};

static_assert(sizeof(float16) == 2 && sizeof(bfloat16) == 2);

/// The type kernels compute in: float for the 16-bit float types, T itself otherwise.
template <typename T>
struct compute_type {
  using type = T;
};
template <>
struct compute_type<float16> {
  using type = float;
};
template <>
struct compute_type<bfloat16> {
  using type = float;
};
template <typename T>
using compute_t = typename compute_type<T>::type;

}  // namespace skiff

template <>
class std::numeric_limits<skiff::float16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr skiff::float16 lowest() { return skiff::float16::from_bits(0xfbff); }
  static constexpr skiff::float16 max() { return skiff::float16::from_bits(0x7bff); }
  static constexpr skiff::float16 min() { return skiff::float16::from_bits(0x0400); }
  static constexpr skiff::float16 epsilon() { return skiff::float16::from_bits(0x1400); }
  static constexpr skiff::float16 infinity() { return skiff::float16::from_bits(0x7c00); }
  static constexpr skiff::float16 quiet_NaN() { return skiff::float16::from_bits(0x7e00); }
};

template <>
class std::numeric_limits<skiff::bfloat16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr skiff::bfloat16 lowest() { return skiff::bfloat16::from_bits(0xff7f); }
  static constexpr skiff::bfloat16 max() { return skiff::bfloat16::from_bits(0x7f7f); }
  static constexpr skiff::bfloat16 min() { return skiff::bfloat16::from_bits(0x0080); }
  static constexpr skiff::bfloat16 epsilon() { return skiff::bfloat16::from_bits(0x3c00); }
  static constexpr skiff::bfloat16 infinity() { return skiff::bfloat16::from_bits(0x7f80); }
  static constexpr skiff::bfloat16 quiet_NaN() { return skiff::bfloat16::from_bits(0x7fc0); }
};
