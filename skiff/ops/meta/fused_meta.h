// Infer-meta for the fused LLM ops of skiff/ops/yaml/fused.yaml.
#pragma once

#include <string_view>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// fused_rope: x floating, rank 4, even head_dim; sin and cos both or neither, [seq', head_dim]
/// or [1, seq', 1, head_dim] of x's dtype; position_ids int32/int64 [batch, seq] (without it
/// seq' = seq). out like x.
void fused_rope_meta(std::string_view op, const TensorMeta& x, const TensorMeta* sin,
                     const TensorMeta* cos, const TensorMeta* position_ids,
                     bool use_neox_rotary_style, bool time_major, float rotary_emb_base,
                     bool transpose, TensorMeta* out);

}  // namespace skiff::ops::meta
