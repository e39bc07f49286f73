// Infer-meta for unary math ops and activations: same dims as x, with the dtype rule of the
// op's kind. Each rejects the dtypes its kind has no meaning for with a TypeError.
#pragma once

#include <string_view>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// Same dtype and dims; x must be an integer or floating-point tensor (abs, neg, floor, ...).
void unary_numeric_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// Same dims; integers give float32, floats keep their dtype (exp, sqrt, sin, ...); no bool.
void unary_float_result_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// Same dtype and dims; x must be a floating-point tensor (relu, gelu, sigmoid, ...).
void activation_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);

}  // namespace skiff::ops::meta
