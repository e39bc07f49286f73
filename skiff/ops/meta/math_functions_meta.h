// Infer-meta for the ops of skiff/ops/yaml/math_functions.yaml that the elementwise metas do not
// cover: as_strided.
#pragma once

#include <string_view>
#include <vector>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// as_strided: dims and stride of equal length, both >= 0, offset >= 0, and every position
/// (offset + sum (dims[i] - 1) * stride[i]) inside x's numel elements. Out: x's dtype, `dims`.
void as_strided_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& dims,
                     const std::vector<int64_t>& stride, int64_t offset, TensorMeta* out);

}  // namespace skiff::ops::meta
