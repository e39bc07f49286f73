// Infer-meta of the complex-number ops (skiff/ops/yaml/complex.yaml) and of abs, whose result is
// real for a complex input.
#pragma once

#include <string_view>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// real, imag, angle: the real dtype of x (complex64 -> float32); angle also takes floats.
void complex_part_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// abs: numeric x keeps its dtype, complex x gives its real dtype; no bool.
void abs_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// complex(real, imag): both float32 or both float64, broadcast; the matching complex dtype.
void complex_meta(std::string_view op, const TensorMeta& real, const TensorMeta& imag,
                  TensorMeta* out);
/// as_complex: float32/float64 of shape [..., 2] -> complex of shape [...].
void as_complex_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// as_real: complex of shape [...] -> float of shape [..., 2].
void as_real_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);

}  // namespace skiff::ops::meta
