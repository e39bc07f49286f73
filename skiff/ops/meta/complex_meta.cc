#include "skiff/ops/meta/complex_meta.h"

#include "skiff/base/error.h"
#include "skiff/ops/meta/elementwise_meta.h"

namespace skiff::ops::meta {

void complex_part_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  const bool real_ok = op == "angle" && (x.dtype == DType::kFloat32 || x.dtype == DType::kFloat64);
  SKIFF_ENFORCE(is_complex(x.dtype) || real_ok, kTypeError, op, "x",
                op == "angle" ? "a float32, float64, complex64 or complex128 tensor"
                              : "a complex64 or complex128 tensor",
                x.dtype);
  *out = {complex_to_real(x.dtype), x.dims};
}

void abs_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  SKIFF_ENFORCE(x.dtype != DType::kBool, kTypeError, op, "x",
                "an integer, floating-point or complex tensor", x.dtype);
  *out = {complex_to_real(x.dtype), x.dims};
}

void complex_meta(std::string_view op, const TensorMeta& real, const TensorMeta& imag,
                  TensorMeta* out) {
  for (const auto* t : {&real, &imag}) {
    SKIFF_ENFORCE(t->dtype == DType::kFloat32 || t->dtype == DType::kFloat64, kTypeError, op,
                  t == &real ? "real" : "imag", "a float32 or float64 tensor", t->dtype);
  }
  SKIFF_ENFORCE(real.dtype == imag.dtype, kTypeError, op, "imag",
                str("the dtype of real (", real.dtype, ")"), imag.dtype);
  *out = {real_to_complex(real.dtype), broadcast_dims(op, real.dims, imag.dims)};
}

void as_complex_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  SKIFF_ENFORCE(x.dtype == DType::kFloat32 || x.dtype == DType::kFloat64, kTypeError, op, "x",
                "a float32 or float64 tensor", x.dtype);
  SKIFF_ENFORCE(x.dims.size() >= 1 && x.dims.back() == 2, kInvalidArgument, op, "x",
                "a last dim of size 2 (real, imaginary)", x.dims);
  Dims d;
  for (int i = 0; i + 1 < x.dims.size(); ++i) d.push_back(x.dims[i]);
  *out = {real_to_complex(x.dtype), d};
}

void as_real_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  SKIFF_ENFORCE(is_complex(x.dtype), kTypeError, op, "x", "a complex64 or complex128 tensor",
                x.dtype);
  Dims d = x.dims;
  d.push_back(2);
  *out = {complex_to_real(x.dtype), d};
}

}  // namespace skiff::ops::meta
