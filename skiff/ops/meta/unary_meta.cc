#include "skiff/ops/meta/unary_meta.h"

#include "skiff/base/error.h"

namespace skiff::ops::meta {

void unary_numeric_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  SKIFF_ENFORCE(x.dtype != DType::kBool, kTypeError, op, "x", "an integer or floating-point tensor",
                x.dtype);
  *out = x;
}

void unary_float_result_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  SKIFF_ENFORCE(x.dtype != DType::kBool, kTypeError, op, "x", "an integer or floating-point tensor",
                x.dtype);
  // complex in, complex out (exp, log, sqrt, ... of complex64 are complex64)
  *out = {is_floating(x.dtype) || is_complex(x.dtype) ? x.dtype : DType::kFloat32, x.dims};
}

void activation_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  // complex passes: the kernel lookup names the activations without a complex kernel
  SKIFF_ENFORCE(is_floating(x.dtype) || is_complex(x.dtype), kTypeError, op, "x",
                "a floating-point tensor", x.dtype);
  *out = x;
}

}  // namespace skiff::ops::meta
