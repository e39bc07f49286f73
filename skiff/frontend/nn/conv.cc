#include "skiff/nn/conv.h"

#include <cmath>

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"

namespace skiff::nn {

namespace {

std::vector<int64_t> pair_of(const char* layer, const char* name, std::vector<int64_t> v) {
  if (v.size() == 1) v.push_back(v[0]);
  SKIFF_ENFORCE(v.size() == 2, kInvalidArgument, layer, name, "one or two values", str(v));
  return v;
}

}  // namespace

Conv2D::Conv2D(int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size,
               std::vector<int64_t> stride, std::vector<int64_t> padding,
               std::vector<int64_t> dilation, int64_t groups, bool has_bias,
               const Initializer* weight_init)
    : stride_(pair_of("Conv2D", "stride", std::move(stride))),
      padding_(pair_of("Conv2D", "padding", std::move(padding))),
      dilation_(pair_of("Conv2D", "dilation", std::move(dilation))),
      groups_(groups),
      out_channels_(out_channels) {
  const auto k = pair_of("Conv2D", "kernel_size", std::move(kernel_size));
  SKIFF_ENFORCE(groups > 0 && in_channels % groups == 0 && out_channels % groups == 0,
                kInvalidArgument, "Conv2D", "groups", "a divisor of in_channels and out_channels",
                groups);
  const double fan_in = double(in_channels / groups) * double(k[0] * k[1]);
  const Normal paddle_default(0.0, std::sqrt(2.0 / fan_in));
  weight =
      add_parameter("weight", create_parameter({out_channels, in_channels / groups, k[0], k[1]},
                                               weight_init ? weight_init : &paddle_default));
  if (has_bias) {
    bias = add_parameter("bias", create_parameter({out_channels}, nullptr, std::nullopt, true));
  }
}

Tensor Conv2D::forward(const Tensor& x) {
  Tensor y = conv2d(x, weight, stride_, padding_, "EXPLICIT", dilation_, groups_, "NCHW");
  if (!bias.defined()) return y;
  return add(y, reshape(bias, {1, out_channels_, 1, 1}));
}

MaxPool2D::MaxPool2D(std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                     std::vector<int64_t> padding, bool ceil_mode)
    : kernel_(pair_of("MaxPool2D", "kernel_size", std::move(kernel_size))),
      stride_(stride.empty() ? kernel_ : pair_of("MaxPool2D", "stride", std::move(stride))),
      padding_(pair_of("MaxPool2D", "padding", std::move(padding))),
      ceil_mode_(ceil_mode) {}

Tensor MaxPool2D::forward(const Tensor& x) {
  return pool2d(x, kernel_, stride_, padding_, ceil_mode_, true, "NCHW", "max");
}

AvgPool2D::AvgPool2D(std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                     std::vector<int64_t> padding, bool ceil_mode, bool exclusive)
    : kernel_(pair_of("AvgPool2D", "kernel_size", std::move(kernel_size))),
      stride_(stride.empty() ? kernel_ : pair_of("AvgPool2D", "stride", std::move(stride))),
      padding_(pair_of("AvgPool2D", "padding", std::move(padding))),
      ceil_mode_(ceil_mode),
      exclusive_(exclusive) {}

Tensor AvgPool2D::forward(const Tensor& x) {
  return pool2d(x, kernel_, stride_, padding_, ceil_mode_, exclusive_, "NCHW", "avg");
}

}  // namespace skiff::nn
