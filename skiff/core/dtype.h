// Element types, their names (Paddle's spelling), properties and type promotion.
#pragma once

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
      return 8;
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

/// Result type of a binary op between two tensors (Paddle 3 / numpy lattice):
/// bool < integers < floats; uint8 with int8 gives int16; float16 with bfloat16 gives float32;
/// an integer with a float gives the float.
DType promote_types(DType a, DType b);

/// Kind of a Python/C++ scalar operand, for promotion with a tensor.
enum class ScalarKind : uint8_t { kBool, kInt, kFloat };

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
#undef SKIFF_DTYPE_OF
template <typename T>
inline constexpr DType dtype_v = dtype_of<T>::value;

[[noreturn]] void throw_undefined_dtype();

/// Calls `fn(T{})` with the C++ type of `dtype` (a tag value); throws for kUndefined.
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
    case DType::kUndefined:
      break;
  }
  throw_undefined_dtype();
}

}  // namespace skiff
