// Infer-meta for the fused optimizer ops: every list parallel to params, grads of the params'
// dims and dtype, moments float32 (float64 allowed for float64 params), learning_rate and step
// one-element float32 tensors (float64 accepted). Outputs take the metas of the tensors they
// alias.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

void fused_sgd_meta(std::string_view op, std::span<const TensorMeta> params,
                    std::span<const TensorMeta> grads, const TensorMeta& learning_rate,
                    std::vector<TensorMeta>* params_out);
void fused_momentum_meta(std::string_view op, std::span<const TensorMeta> params,
                         std::span<const TensorMeta> grads, std::span<const TensorMeta> velocity,
                         const TensorMeta& learning_rate, std::vector<TensorMeta>* params_out,
                         std::vector<TensorMeta>* velocity_out);
/// fused_adam_ and fused_adamw_: moment2_max is empty unless amsgrad.
void fused_adam_meta(std::string_view op, std::span<const TensorMeta> params,
                     std::span<const TensorMeta> grads, std::span<const TensorMeta> moment1,
                     std::span<const TensorMeta> moment2, std::span<const TensorMeta> moment2_max,
                     const TensorMeta& learning_rate, const TensorMeta& step, bool amsgrad,
                     std::vector<TensorMeta>* params_out, std::vector<TensorMeta>* moment1_out,
                     std::vector<TensorMeta>* moment2_out,
                     std::vector<TensorMeta>* moment2_max_out);

}  // namespace skiff::ops::meta
