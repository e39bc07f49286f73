#include "skiff/core/dtype.h"

#include <array>

#include "skiff/base/error.h"

namespace skiff {

namespace {
constexpr std::array<std::string_view, kNumDTypes> kNames = {
    "bool",    "int8",     "uint8",   "int16",   "int32",     "int64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};

// Rank in the promotion lattice; types of equal rank need a special rule.
int category(DType d) {
  if (d == DType::kBool) return 0;
  if (is_integral(d)) return 1;
  if (is_complex(d)) return 3;
  return 2;
}
}  // namespace

std::string_view dtype_name(DType dtype) {
  if (dtype == DType::kUndefined) return "undefined";
  return kNames[static_cast<int>(dtype)];
}

std::ostream& operator<<(std::ostream& os, DType dtype) { return os << dtype_name(dtype); }

DType parse_dtype(std::string_view name) {
  if (name.starts_with("paddle.")) name.remove_prefix(7);
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kNames[i] == name) return static_cast<DType>(i);
  }
  if (name == "float") return DType::kFloat32;
  if (name == "double") return DType::kFloat64;
  if (name == "half") return DType::kFloat16;
  if (name == "int") return DType::kInt32;
  if (name == "long") return DType::kInt64;
  SKIFF_THROW(kTypeError, "dtype", "name",
              "one of bool, int8, uint8, int16, int32, int64, "
              "float16, bfloat16, float32, float64, complex64, complex128",
              str("'", name, "'"));
}

void throw_complex_unsupported(DType dtype, std::string_view where) {
  SKIFF_THROW(kUnimplemented, where, "dtype", "a real dtype (no complex kernel exists here)",
              dtype);
}

void throw_undefined_dtype() {
  SKIFF_THROW(kTypeError, "dtype", "dtype", "a defined dtype", "undefined");
}

DType promote_types(DType a, DType b) {
  SKIFF_ENFORCE(a != DType::kUndefined && b != DType::kUndefined, kTypeError, "promote_types",
                "dtype", "defined dtypes", str(a, ", ", b));
  if (a == b) return a;
  const int ca = category(a), cb = category(b);
  // A complex with a float64 (or complex128) keeps double precision: complex128.
  if (ca == 3 || cb == 3) {
    if (a == DType::kComplex128 || b == DType::kComplex128 || a == DType::kFloat64 ||
        b == DType::kFloat64) {
      return DType::kComplex128;
    }
    return DType::kComplex64;
  }
  if (ca != cb) return ca > cb ? a : b;
  if (ca == 2) {
    if (is_low_precision(a) && is_low_precision(b)) return DType::kFloat32;  // f16 with bf16
    return dtype_size(a) >= dtype_size(b) ? a : b;
  }
  // Integers: signed and unsigned of the same width widen to the next signed type.
  const bool ua = a == DType::kUInt8, ub = b == DType::kUInt8;
  if (ua || ub) {
    const DType other = ua ? b : a;
    return other == DType::kInt8 ? DType::kInt16 : other;
  }
  return dtype_size(a) >= dtype_size(b) ? a : b;
}

DType promote_with_scalar(DType tensor, ScalarKind scalar, DType default_float) {
  const int ct = category(tensor);
  const int cs = scalar == ScalarKind::kBool ? 0 : scalar == ScalarKind::kInt ? 1 : 2;
  if (cs <= ct) return tensor;
  return cs == 2 ? default_float : DType::kInt64;
}

}  // namespace skiff
