// Conv2D and pooling layers (NCHW), over the conv2d and pool2d ops.
#pragma once

#include <string>
#include <vector>

#include "skiff/nn/layer.h"

namespace skiff::nn {

/// weight [out_channels, in_channels / groups, kh, kw], initialized Normal(0, sqrt(2 / fan_in))
/// as Paddle does; bias [out_channels] zeros.
class Conv2D : public Layer {
 public:
  Conv2D(int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size,
         std::vector<int64_t> stride = {1, 1}, std::vector<int64_t> padding = {0, 0},
         std::vector<int64_t> dilation = {1, 1}, int64_t groups = 1, bool bias = true,
         const Initializer* weight_init = nullptr);
  Tensor forward(const Tensor& x) override;
  Tensor weight, bias;

 private:
  std::vector<int64_t> stride_, padding_, dilation_;
  int64_t groups_, out_channels_;
};

/// Max pooling; stride defaults to the kernel size.
class MaxPool2D : public Layer {
 public:
  explicit MaxPool2D(std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
                     std::vector<int64_t> padding = {0, 0}, bool ceil_mode = false);
  Tensor forward(const Tensor& x) override;

 private:
  std::vector<int64_t> kernel_, stride_, padding_;
  bool ceil_mode_;
};

/// Average pooling; `exclusive` divides by the unpadded window size (Paddle's default).
class AvgPool2D : public Layer {
 public:
  explicit AvgPool2D(std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
                     std::vector<int64_t> padding = {0, 0}, bool ceil_mode = false,
                     bool exclusive = true);
  Tensor forward(const Tensor& x) override;

 private:
  std::vector<int64_t> kernel_, stride_, padding_;
  bool ceil_mode_, exclusive_;
};

}  // namespace skiff::nn
