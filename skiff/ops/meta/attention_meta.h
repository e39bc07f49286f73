// Infer-meta of the fused attention ops (flash_attn, flash_attn_grad).
#pragma once

#include <string>
#include <string_view>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// q [B, Sq, H, D], k and v [B, Sk, Hk, D] of q's floating dtype (the CPU kernels: float32/bfloat16/float16), H % Hk == 0,
/// 0 <= dropout < 1, fixed_seed_offset int64 [2]. out like q, softmax [B, H, Sq, Sk] with
/// return_softmax else [0], softmax_lse float32 [B, H, Sq], seed_offset int64 [2].
void flash_attn_meta(std::string_view op, const TensorMeta& q, const TensorMeta& k,
                     const TensorMeta& v, const TensorMeta* fixed_seed_offset, float dropout,
                     bool causal, bool return_softmax, bool is_test, const std::string& rng_name,
                     TensorMeta* out, TensorMeta* softmax, TensorMeta* softmax_lse,
                     TensorMeta* seed_offset);
/// flash_attn's checks, out and out_grad like q, softmax_lse float32 [B, H, Sq]: the grads
/// like q, k and v.
void flash_attn_grad_meta(std::string_view op, const TensorMeta& q, const TensorMeta& k,
                          const TensorMeta& v, const TensorMeta& out,
                          const TensorMeta& softmax_lse, const TensorMeta& seed_offset,
                          const TensorMeta& out_grad, float dropout, bool causal,
                          TensorMeta* q_grad, TensorMeta* k_grad, TensorMeta* v_grad);

}  // namespace skiff::ops::meta
