// Infer-meta for convolution and pooling, and the window geometry their kernels share.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// Resolved 2-D window geometry (Paddle's padding rules already applied).
struct Window2d {
  bool nhwc = false;
  int64_t n = 0, c = 0, h = 0, w = 0;  // input
  int64_t oc = 0, oh = 0, ow = 0;      // output channels and spatial size
  int64_t kh = 1, kw = 1;
  int64_t stride_h = 1, stride_w = 1;
  int64_t dil_h = 1, dil_w = 1;
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  int64_t groups = 1;
};

/// conv2d geometry: input [N, C, H, W] (or NHWC), filter [OC, C / groups, KH, KW]. paddings are
/// [ph, pw] or [top, bottom, left, right]; "SAME" pads to ceil(in / stride) outputs with
/// dilation 1 (as Paddle), "VALID" pads nothing.
Window2d conv2d_window(std::string_view op, const Dims& input, const Dims& filter,
                       const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                       const std::string& padding_algorithm, const std::vector<int64_t>& dilations,
                       int64_t groups, const std::string& data_format);

/// Element strides (n, c, h, w) of a contiguous NCHW or NHWC tensor with c channels of h x w.
struct LayoutStrides {
  int64_t n, c, h, w;
};
inline LayoutStrides layout_strides(bool nhwc, int64_t c, int64_t h, int64_t w) {
  return nhwc ? LayoutStrides{h * w * c, 1, w * c, c} : LayoutStrides{c * h * w, h * w, w, 1};
}

/// Storage offset of element (n, c, h, w) of a strided 4-D tensor in NCHW or NHWC layout.
inline int64_t offset_4d(const Dims& strides, bool nhwc, int64_t n, int64_t c, int64_t h,
                         int64_t w) {
  return nhwc ? n * strides[0] + h * strides[1] + w * strides[2] + c * strides[3]
              : n * strides[0] + c * strides[1] + h * strides[2] + w * strides[3];
}

/// pool2d geometry (oc == c). For adaptive pooling kernel_size is the output size.
Window2d pool2d_window(std::string_view op, const Dims& x, const std::vector<int64_t>& kernel_size,
                       const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                       bool ceil_mode, const std::string& data_format, bool global_pooling,
                       bool adaptive, const std::string& padding_algorithm);

/// Output dims [N, OC, OH, OW] or [N, OH, OW, OC].
Dims window_out_dims(const Window2d& g);

void conv2d_meta(std::string_view op, const TensorMeta& input, const TensorMeta& filter,
                 const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                 const std::string& padding_algorithm, const std::vector<int64_t>& dilations,
                 int64_t groups, const std::string& data_format, TensorMeta* out);

void pool2d_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& kernel_size,
                 const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                 bool ceil_mode, bool exclusive, const std::string& data_format,
                 const std::string& pooling_type, bool global_pooling, bool adaptive,
                 const std::string& padding_algorithm, TensorMeta* out);

/// conv2d_grad: gradients of input and filter, given the output's gradient `out_grad`; an
/// output whose output_mask entry is 0 is empty (shape [0]).
void conv2d_grad_meta(std::string_view op, const TensorMeta& input, const TensorMeta& filter,
                      const TensorMeta& out_grad, const std::vector<int64_t>& strides,
                      const std::vector<int64_t>& paddings, const std::string& padding_algorithm,
                      const std::vector<int64_t>& dilations, int64_t groups,
                      const std::string& data_format,
                      const std::vector<int64_t>& output_mask, TensorMeta* input_grad,
                      TensorMeta* filter_grad);

/// pool2d_grad: the gradient of x, given the forward output `out` and its gradient.
void pool2d_grad_meta(std::string_view op, const TensorMeta& x, const TensorMeta& out,
                      const TensorMeta& out_grad, const std::vector<int64_t>& kernel_size,
                      const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                      bool ceil_mode, bool exclusive, const std::string& data_format,
                      const std::string& pooling_type, bool global_pooling, bool adaptive,
                      const std::string& padding_algorithm, TensorMeta* x_grad);

}  // namespace skiff::ops::meta
