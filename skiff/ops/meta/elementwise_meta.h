// Infer-meta for elementwise ops: unary, binary with numpy broadcasting, comparisons.
#pragma once

#include <string_view>

#include "skiff/core/scalar.h"
#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// Numpy broadcasting of two shapes (a -1 dim broadcasts as unknown); throws naming the op and
/// the argument `b_name` (`a_name` names the other operand in the message).
Dims broadcast_dims(std::string_view op, const Dims& a, const Dims& b,
                    std::string_view b_name = "y", std::string_view a_name = "x");

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
/// Broadcast dims, promoted dtype, which must be bool or an integer (bitwise ops).
void bitwise_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out);
/// Same as x, which must be bool or an integer.
void bitwise_not_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// where: bool condition; dims of all three broadcast; x's dtype (x and y arrive promoted).
void where_meta(std::string_view op, const TensorMeta& condition, const TensorMeta& x,
                const TensorMeta& y, TensorMeta* out);
/// clip: same as x; requires min <= max.
void clip_meta(std::string_view op, const TensorMeta& x, const Scalar& min, const Scalar& max,
               TensorMeta* out);
/// lerp: dims of x, y and weight broadcast; a floating dtype.
void lerp_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y,
               const TensorMeta& weight, TensorMeta* out);
/// Cast: x's dims with `dtype`.
void cast_meta(std::string_view op, const TensorMeta& x, DType dtype, TensorMeta* out);

/// reduce_as: x summed over the dims where `target` broadcasts to x; target's dims, x's dtype.
void reduce_as_meta(std::string_view op, const TensorMeta& x, const TensorMeta& target,
                    TensorMeta* out);

}  // namespace skiff::ops::meta
