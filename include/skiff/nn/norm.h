// Normalization layers: LayerNorm, RMSNorm, BatchNorm2D (paddle.nn.layer.norm).
#pragma once

#include <vector>

#include "skiff/nn/layer.h"

namespace skiff::nn {

/// Normalizes over the trailing `normalized_shape` dims; weight ones, bias zeros, each of
/// prod(normalized_shape) elements.
class LayerNorm : public Layer {
 public:
  explicit LayerNorm(std::vector<int64_t> normalized_shape, double epsilon = 1e-5,
                     bool elementwise_affine = true);
  Tensor forward(const Tensor& x) override;
  Tensor weight, bias;

 private:
  std::vector<int64_t> shape_;
  double epsilon_;
};

/// x / sqrt(mean(x^2 over the last dim) + epsilon) * weight.
class RMSNorm : public Layer {
 public:
  explicit RMSNorm(int64_t hidden_size, double epsilon = 1e-6);
  Tensor forward(const Tensor& x) override;
  Tensor weight;

 private:
  double epsilon_;
};

/// Batch normalization over N, H, W of an NCHW input. Training normalizes with the batch's
/// mean and biased variance and updates the running statistics (buffers `_mean`, `_variance`)
/// as running = momentum * running + (1 - momentum) * batch (Paddle's momentum, default 0.9);
/// eval (or use_global_stats) normalizes with the running statistics.
class BatchNorm2D : public Layer {
 public:
  explicit BatchNorm2D(int64_t num_features, double momentum = 0.9, double epsilon = 1e-5,
                       bool use_global_stats = false);
  Tensor forward(const Tensor& x) override;
  Tensor weight, bias;
  Tensor running_mean, running_var;

 private:
  int64_t num_features_;
  double momentum_, epsilon_;
  bool use_global_stats_;
};

}  // namespace skiff::nn
