// Infer-meta for linalg ops.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "skiff/core/place.h"
#include "skiff/core/scalar.h"
#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// Paddle's matmul: 1-D operands are promoted to a row (x) or column (y) and the added dim is
/// dropped from the result (transposes do not apply to them); batch dims broadcast numpy-style.
void matmul_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, bool transpose_x,
                 bool transpose_y, TensorMeta* out);
/// [B, M, K] x [B, K, N] -> [B, M, N], no broadcasting.
void bmm_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out);
/// [N] . [N] -> [] and row-wise [B, N] . [B, N] -> [B].
void dot_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out);
/// Flattened x and y: [x.numel, y.numel].
void outer_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out);
/// beta * input + alpha * (x @ y): x [M, K], y [K, N], input broadcastable to [M, N].
void addmm_meta(std::string_view op, const TensorMeta& input, const TensorMeta& x,
                const TensorMeta& y, float beta, float alpha, TensorMeta* out);
/// x [..., in] @ weight [in, out] (+ bias [out]) -> [..., out].
void linear_meta(std::string_view op, const TensorMeta& x, const TensorMeta& weight,
                 const TensorMeta* bias, TensorMeta* out);

}  // namespace skiff::ops::meta
