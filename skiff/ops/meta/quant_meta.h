// Infer-meta of the weight-only quantization ops (quant.yaml): Skiff's CPU layout
// (skiff/ops/kernels/quant_layout.h) checked against every argument; values (finite weights)
// are checked by the kernels.
#pragma once

#include <string>
#include <string_view>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// x [k, n] floating: out int8 [n, k] (int4: [n, ceil(k / 2)]), scale [n] or
/// [ceil(k / group_size), n] in x's dtype (float32 for llm.int8).
void weight_quantize_meta(std::string_view op, const TensorMeta& x, const std::string& algo,
                          int64_t group_size, TensorMeta* out, TensorMeta* scale);
/// x int8 [n, b], scale floating [n] or [groups, n]: out [k, n] in scale's dtype (k = b, or 2 b
/// for int4).
void weight_dequantize_meta(std::string_view op, const TensorMeta& x, const TensorMeta& scale,
                            const std::string& algo, int64_t group_size, TensorMeta* out);
/// x floating [..., k], weight int8 [n, k] (int4: [n, ceil(k / 2)]), bias [n] of x's dtype,
/// weight_scale floating [n] or [ceil(k / group_size), n]: out [..., n] of x's dtype.
void weight_only_linear_meta(std::string_view op, const TensorMeta& x, const TensorMeta& weight,
                             const TensorMeta* bias, const TensorMeta& weight_scale,
                             const std::string& weight_dtype, int64_t group_size, TensorMeta* out);
/// weight_only_linear_meta's checks for an int8 weight with per-channel scales; threshold not NaN.
void llm_int8_linear_meta(std::string_view op, const TensorMeta& x, const TensorMeta& weight,
                          const TensorMeta* bias, const TensorMeta& weight_scale, float threshold,
                          TensorMeta* out);
/// weight_only_linear's checks, out_grad of its output's meta: x_grad like x.
void weight_only_linear_grad_meta(std::string_view op, const TensorMeta& x,
                                  const TensorMeta& weight, const TensorMeta& weight_scale,
                                  const TensorMeta& out_grad, const std::string& weight_dtype,
                                  int64_t group_size, TensorMeta* x_grad);

}  // namespace skiff::ops::meta
