// Infer-meta for elementwise ops: unary, binary with numpy broadcasting, comparisons.
#pragma once

#include <string_view>

#include "skiff/core/scalar.h"
#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// Numpy broadcasting of two shapes (a -1 dim broadcasts as unknown); throws naming the op.
Dims broadcast_dims(std::string_view op, const Dims& a, const Dims& b);

/// Same dtype and dims as x.
void unchanged_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// Same dims as x, the given dtype.
void unary_to_dtype_meta(std::string_view op, const TensorMeta& x, DType dtype, TensorMeta* out);
/// Same dims, bool dtype (isnan, isinf, ...).
void unary_bool_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// Same dims; integer and bool inputs give the default float dtype (exp, sqrt, sin, ...).
void unary_float_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// Broadcast dims, promoted dtype.
void binary_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out);
/// Broadcast dims, bool dtype (comparisons, logical ops).
void compare_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out);
/// Broadcast dims, promoted float dtype (divide on integers gives float).
void binary_float_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y,
                       TensorMeta* out);
/// Cast: x's dims with `dtype`.
void cast_meta(std::string_view op, const TensorMeta& x, DType dtype, TensorMeta* out);

}  // namespace skiff::ops::meta
