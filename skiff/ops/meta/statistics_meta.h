// Infer-meta for the statistics ops (skiff/ops/yaml/statistics.yaml): running extremes with
// indices, logcumsumexp, mode, searchsorted and poisson.
#pragma once

#include <cstdint>
#include <string_view>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// cummax/cummin: out as x, indices of x's dims in `dtype` (int32 or int64).
void cum_extreme_meta(std::string_view op, const TensorMeta& x, int64_t axis, DType dtype,
                      TensorMeta* out, TensorMeta* indices);
/// x's dims (1-D when `flatten`) and dtype.
void logcumsumexp_meta(std::string_view op, const TensorMeta& x, int64_t axis, bool flatten,
                       bool exclusive, bool reverse, TensorMeta* out);
/// x's dims without `axis` (size 1 with keepdim); int64 indices. The axis must not be empty.
void mode_meta(std::string_view op, const TensorMeta& x, int64_t axis, bool keepdim,
               TensorMeta* out, TensorMeta* indices);
/// values' dims, int32 or int64; sorted_sequence is 1-D or has values' leading dims.
void searchsorted_meta(std::string_view op, const TensorMeta& sorted_sequence,
                       const TensorMeta& values, bool out_int32, bool right, TensorMeta* out);
/// x's dims and dtype (a floating dtype).
void poisson_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);

}  // namespace skiff::ops::meta
