// Infer-meta of the detection ops (roi_align, roi_pool, nms, box_coder): shapes and dtypes
// checked with Paddle's rules; what needs the data (boxes_num's sum) is checked by the kernels.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// x [N, C, H, W] floating, boxes [K, 4] floating, boxes_num [N] int32/int64, positive pooled
/// sizes and spatial_scale: out [K, C, pooled_height, pooled_width] of x's dtype.
void roi_align_meta(std::string_view op, const TensorMeta& x, const TensorMeta& boxes,
                    const TensorMeta* boxes_num, int64_t pooled_height, int64_t pooled_width,
                    float spatial_scale, int64_t sampling_ratio, bool aligned, TensorMeta* out);
/// roi_align's checks, out_grad of roi_align's output shape: x_grad like x.
void roi_align_grad_meta(std::string_view op, const TensorMeta& x, const TensorMeta& boxes,
                         const TensorMeta* boxes_num, const TensorMeta& out_grad,
                         int64_t pooled_height, int64_t pooled_width, float spatial_scale,
                         int64_t sampling_ratio, bool aligned, TensorMeta* x_grad);
/// roi_align's checks: out like roi_align's, arg_max int64 of the same shape.
void roi_pool_meta(std::string_view op, const TensorMeta& x, const TensorMeta& boxes,
                   const TensorMeta* boxes_num, int64_t pooled_height, int64_t pooled_width,
                   float spatial_scale, TensorMeta* out, TensorMeta* arg_max);
/// roi_pool's checks, arg_max int64 and out_grad of roi_pool's output shape: x_grad like x.
void roi_pool_grad_meta(std::string_view op, const TensorMeta& x, const TensorMeta& boxes,
                        const TensorMeta* boxes_num, const TensorMeta& arg_max,
                        const TensorMeta& out_grad, int64_t pooled_height, int64_t pooled_width,
                        float spatial_scale, TensorMeta* x_grad);
/// x [K, 4] floating: out int64 [kept] (dynamic).
void nms_meta(std::string_view op, const TensorMeta& x, float threshold, TensorMeta* out);
/// See vision.yaml's box_coder: out [N, M, 4] (encode) or target_box's shape (decode).
void box_coder_meta(std::string_view op, const TensorMeta& prior_box,
                    const TensorMeta* prior_box_var, const TensorMeta& target_box,
                    const std::string& code_type, bool box_normalized, int64_t axis,
                    const std::vector<double>& variance, TensorMeta* output_box);

}  // namespace skiff::ops::meta
