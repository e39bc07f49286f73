// Activation layers (paddle.nn.layer.activation): thin wrappers over the ops.
#pragma once

#include "skiff/nn/layer.h"

namespace skiff::nn {

class ReLU : public Layer {
 public:
  Tensor forward(const Tensor& x) override;
};
class ReLU6 : public Layer {
 public:
  Tensor forward(const Tensor& x) override;
};
class GELU : public Layer {
 public:
  explicit GELU(bool approximate = false) : approximate_(approximate) {}
  Tensor forward(const Tensor& x) override;

 private:
  bool approximate_;
};
class SiLU : public Layer {
 public:
  Tensor forward(const Tensor& x) override;
};
class Tanh : public Layer {
 public:
  Tensor forward(const Tensor& x) override;
};
class Sigmoid : public Layer {
 public:
  Tensor forward(const Tensor& x) override;
};
class Softmax : public Layer {
 public:
  explicit Softmax(int64_t axis = -1) : axis_(axis) {}
  Tensor forward(const Tensor& x) override;

 private:
  int64_t axis_;
};
class LogSoftmax : public Layer {
 public:
  explicit LogSoftmax(int64_t axis = -1) : axis_(axis) {}
  Tensor forward(const Tensor& x) override;

 private:
  int64_t axis_;
};
class LeakyReLU : public Layer {
 public:
  explicit LeakyReLU(double negative_slope = 0.01) : slope_(negative_slope) {}
  Tensor forward(const Tensor& x) override;

 private:
  double slope_;
};
class ELU : public Layer {
 public:
  explicit ELU(double alpha = 1.0) : alpha_(alpha) {}
  Tensor forward(const Tensor& x) override;

 private:
  double alpha_;
};
class Softplus : public Layer {
 public:
  explicit Softplus(double beta = 1.0, double threshold = 20.0)
      : beta_(beta), threshold_(threshold) {}
  Tensor forward(const Tensor& x) override;

 private:
  double beta_, threshold_;
};
class Hardswish : public Layer {
 public:
  Tensor forward(const Tensor& x) override;
};
class Mish : public Layer {
 public:
  Tensor forward(const Tensor& x) override;
};

}  // namespace skiff::nn
