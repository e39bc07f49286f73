#include "skiff/nn/activation.h"

#include "skiff/ops/generated/api.h"

namespace skiff::nn {

Tensor ReLU::forward(const Tensor& x) { return relu(x); }
Tensor ReLU6::forward(const Tensor& x) { return relu6(x); }
Tensor GELU::forward(const Tensor& x) { return gelu(x, approximate_); }
Tensor SiLU::forward(const Tensor& x) { return silu(x); }
Tensor Tanh::forward(const Tensor& x) { return tanh(x); }
Tensor Sigmoid::forward(const Tensor& x) { return sigmoid(x); }
Tensor Softmax::forward(const Tensor& x) { return softmax(x, axis_); }
Tensor LogSoftmax::forward(const Tensor& x) { return log_softmax(x, axis_); }
Tensor LeakyReLU::forward(const Tensor& x) { return leaky_relu(x, static_cast<float>(slope_)); }
Tensor ELU::forward(const Tensor& x) { return elu(x, static_cast<float>(alpha_)); }
Tensor Softplus::forward(const Tensor& x) {
  return softplus(x, static_cast<float>(beta_), static_cast<float>(threshold_));
}
Tensor Hardswish::forward(const Tensor& x) { return hardswish(x); }
Tensor Mish::forward(const Tensor& x) { return mish(x); }

}  // namespace skiff::nn
