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
/// batch_norm: x of rank 2-5 with C channels (axis 1, or the last for NLC/NHWC/NDHWC); mean,
/// variance, scale, bias [C] of x's dtype (or float32 for 16-bit x). out like x; mean_out and
/// variance_out like mean and variance; saved_mean and saved_variance [C], float32 for 16-bit x.
void batch_norm_meta(std::string_view op, const TensorMeta& x, const TensorMeta& mean,
                     const TensorMeta& variance, const TensorMeta* scale, const TensorMeta* bias,
                     bool is_test, float momentum, float epsilon, const std::string& data_format,
                     bool use_global_stats, bool trainable_statistics, TensorMeta* out,
                     TensorMeta* mean_out, TensorMeta* variance_out, TensorMeta* saved_mean,
                     TensorMeta* saved_variance);
/// batch_norm_grad: x_grad like x; scale_grad and bias_grad [C] of scale's dtype (float32 for
/// 16-bit x without scale).
void batch_norm_grad_meta(std::string_view op, const TensorMeta& x, const TensorMeta& saved_mean,
                          const TensorMeta& saved_variance, const TensorMeta& out_grad,
                          const TensorMeta* scale, const std::string& data_format,
                          bool use_global_stats, TensorMeta* x_grad, TensorMeta* scale_grad,
                          TensorMeta* bias_grad);
/// The channel axis of a batch_norm data_format over a rank-`rank` x (InvalidArgument naming op
/// and data_format for an unknown format).
int batch_norm_channel_axis(std::string_view op, const std::string& data_format, int rank);
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
