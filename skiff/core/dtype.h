// Element types, their names (Paddle's spelling), properties and type promotion.
#pragma once

#include <complex>
#include <cstdint>
#include <ostream>
#include <string_view>

#include "skiff/core/float16.h"

namespace skiff {

enum class DType : uint8_t {
  kBool,
  kInt8,
  kUInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat16,
  kBFloat16,
  kFloat32,
  kFloat64,
  kComplex64,   // two float32: real, imaginary (numpy's and Paddle's layout)
  kComplex128,  // two float64
  kUndefined,
};

inline constexpr int kNumDTypes = static_cast<int>(DType::kUndefined);

/// Paddle's name: "float32", "bfloat16", "bool", ...
std::string_view dtype_name(DType dtype);
/// Parses a Paddle name (also accepts "float", "double", "half", "int", "long"); throws on
/// anything else.
DType parse_dtype(std::string_view name);
std::ostream& operator<<(std::ostream& os, DType dtype);

constexpr int64_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::kBool:
    case DType::kInt8:
    case DType::kUInt8:
      return 1;
    case DType::kInt16:
    case DType::kFloat16:
    case DType::kBFloat16:
      return 2;
    case DType::kInt32:
    case DType::kFloat32:
      return 4;
    case DType::kInt64:
    case DType::kFloat64:
    case DType::kComplex64:
      return 8;
    case DType::kComplex128:
      return 16;
    case DType::kUndefined:
      return 0;
  }
  return 0;
}

constexpr bool is_floating(DType d) {
  return d == DType::kFloat16 || d == DType::kBFloat16 || d == DType::kFloat32 ||
         d == DType::kFloat64;
}
constexpr bool is_integral(DType d) {  // bool excluded
  return d == DType::kInt8 || d == DType::kUInt8 || d == DType::kInt16 || d == DType::kInt32 ||
         d == DType::kInt64;
}
constexpr bool is_low_precision(DType d) { return d == DType::kFloat16 || d == DType::kBFloat16; }
constexpr bool is_complex(DType d) { return d == DType::kComplex64 || d == DType::kComplex128; }
/// Dtypes that carry gradients: the floating and the complex ones.
constexpr bool is_differentiable(DType d) { return is_floating(d) || is_complex(d); }
/// complex64 -> float32, complex128 -> float64 (the dtype of real/imag/abs); others unchanged.
constexpr DType complex_to_real(DType d) {
  return d == DType::kComplex64 ? DType::kFloat32 : d == DType::kComplex128 ? DType::kFloat64 : d;
}
/// float64 -> complex128, other dtypes -> complex64 (Paddle's as_complex/complex/fft results).
constexpr DType real_to_complex(DType d) {
  if (is_complex(d)) return d;
  return d == DType::kFloat64 ? DType::kComplex128 : DType::kComplex64;
}

/// Result type of a binary op between two tensors (Paddle 3 / numpy lattice):
/// bool < integers < floats < complex (float64 with complex64 gives complex128); uint8 with int8
/// gives int16; float16 with bfloat16 gives float32;
/// an integer with a float gives the float.
DType promote_types(DType a, DType b);

/// Kind of a Python/C++ scalar operand, for promotion with a tensor.
enum class ScalarKind : uint8_t { kBool, kInt, kFloat };

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

/// Result type of `tensor op scalar`: the scalar changes the dtype only when it is of a higher
/// category (an int tensor with a float scalar gives `default_float`).
DType promote_with_scalar(DType tensor, ScalarKind scalar, DType default_float);

/// Maps a C++ type to its DType.
template <typename T>
struct dtype_of;
#define SKIFF_DTYPE_OF(T, D)                 \
  template <>                                \
  struct dtype_of<T> {                       \
    static constexpr DType value = DType::D; \
  };
SKIFF_DTYPE_OF(bool, kBool)
SKIFF_DTYPE_OF(int8_t, kInt8)
SKIFF_DTYPE_OF(uint8_t, kUInt8)
SKIFF_DTYPE_OF(int16_t, kInt16)
SKIFF_DTYPE_OF(int32_t, kInt32)
SKIFF_DTYPE_OF(int64_t, kInt64)
SKIFF_DTYPE_OF(float16, kFloat16)
SKIFF_DTYPE_OF(bfloat16, kBFloat16)
SKIFF_DTYPE_OF(float, kFloat32)
SKIFF_DTYPE_OF(double, kFloat64)
SKIFF_DTYPE_OF(complex64, kComplex64)
SKIFF_DTYPE_OF(complex128, kComplex128)
#undef SKIFF_DTYPE_OF
template <typename T>
inline constexpr DType dtype_v = dtype_of<T>::value;

[[noreturn]] void throw_undefined_dtype();
/// Unimplemented: a dtype-generic routine (`where`) that has no complex support.
[[noreturn]] void throw_complex_unsupported(DType dtype, std::string_view where);

template <typename T>
inline constexpr bool is_complex_v = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;

/// Calls `fn(T{})` with the C++ type of a real (non-complex) `dtype` (a tag value); throws
/// Unimplemented for the complex dtypes (most routines have no complex form; those that do call
/// visit_dtype_complex) and InvalidType for kUndefined.
template <typename Fn>
decltype(auto) visit_dtype(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::kBool:
      return fn(bool{});
    case DType::kInt8:
      return fn(int8_t{});
    case DType::kUInt8:
      return fn(uint8_t{});
    case DType::kInt16:
      return fn(int16_t{});
    case DType::kInt32:
      return fn(int32_t{});
    case DType::kInt64:
      return fn(int64_t{});
    case DType::kFloat16:
      return fn(float16{});
    case DType::kBFloat16:
      return fn(bfloat16{});
    case DType::kFloat32:
      return fn(float{});
    case DType::kFloat64:
      return fn(double{});
    case DType::kComplex64:
    case DType::kComplex128:
      throw_complex_unsupported(dtype, "this operation");
    case DType::kUndefined:
      break;
  }
  throw_undefined_dtype();
}

/// visit_dtype over every dtype, the complex ones included.
template <typename Fn>
decltype(auto) visit_dtype_complex(DType dtype, Fn&& fn) {
  if (dtype == DType::kComplex64) return fn(complex64{});
  if (dtype == DType::kComplex128) return fn(complex128{});
  return visit_dtype(dtype, std::forward<Fn>(fn));
}

}  // namespace skiff
