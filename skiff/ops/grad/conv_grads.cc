// VJP helpers of convolution and pooling gradients (the ops conv2d_grad and pool2d_grad carry
// the kernels; these compose their second-order rules from the op API).
#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"

namespace skiff {

Tensor pool2d_double_grad(const Tensor& grad, const std::vector<int64_t>& kernel_size,
                          const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                          bool ceil_mode, bool exclusive, const std::string& data_format,
                          const std::string& pooling_type, bool global_pooling, bool adaptive,
                          const std::string& padding_algorithm) {
  // avg: pool2d_grad spreads out_grad linearly with the forward's divisors; its adjoint is the
  // same average pooling.
  SKIFF_ENFORCE(pooling_type == "avg", kUnimplemented, "pool2d_grad", "pooling_type",
                "avg pooling (the gradient of max pooling's gradient is not supported)",
                pooling_type);
  return pool2d(grad, kernel_size, strides, paddings, ceil_mode, exclusive, data_format, "avg",
                global_pooling, adaptive, padding_algorithm);
}

}  // namespace skiff
