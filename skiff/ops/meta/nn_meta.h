// Infer-meta for nn ops: softmax, normalizations, embedding, one_hot, cross entropy, dropout.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/core/place.h"
#include "skiff/core/scalar.h"
#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// softmax, log_softmax: a floating x, any rank (rank 0 has one axis of size 1).
void softmax_meta(std::string_view op, const TensorMeta& x, int64_t axis, TensorMeta* out);
/// out like x; mean and variance [prod(x.dims[:begin_norm_axis])], float32 for 16-bit x.
void layer_norm_meta(std::string_view op, const TensorMeta& x, const TensorMeta* scale,
                     const TensorMeta* bias, float epsilon, int64_t begin_norm_axis,
                     TensorMeta* out, TensorMeta* mean, TensorMeta* variance);
/// out like x; inv_rms x.dims[:begin_norm_axis], float32 for 16-bit x.
void rms_norm_meta(std::string_view op, const TensorMeta& x, const TensorMeta* weight,
                   float epsilon, int64_t begin_norm_axis, TensorMeta* out, TensorMeta* inv_rms);
/// out: x.dims + [weight.dims[1]], weight's dtype; x int32/int64 ids, weight 2-D.
void embedding_meta(std::string_view op, const TensorMeta& x, const TensorMeta& weight,
                    int64_t padding_idx, TensorMeta* out);
/// out: x.dims + [num_classes], float32.
void one_hot_meta(std::string_view op, const TensorMeta& x, int64_t num_classes, TensorMeta* out);
/// softmax like logits; loss: logits.dims with dims[axis] = 1.
void cross_entropy_with_softmax_meta(std::string_view op, const TensorMeta& logits,
                                     const TensorMeta& label, bool soft_label, bool use_softmax,
                                     bool numeric_stable_mode, int64_t ignore_index, int64_t axis,
                                     TensorMeta* softmax, TensorMeta* loss);
/// out like x; mask uint8 with x's dims.
void dropout_meta(std::string_view op, const TensorMeta& x, float p, bool is_test,
                  const std::string& mode, int64_t seed, TensorMeta* out, TensorMeta* mask);

}  // namespace skiff::ops::meta
