// Parameter initializers (paddle.nn.initializer). Random ones draw from the default Philox
// generator of the parameter's place, so `manual_seed_all(s)` makes model creation repeatable.
// Fans follow Paddle: a 2-D weight [in, out] has fan_in = in, fan_out = out; a conv filter
// [out_c, in_c, kh, kw] has fan_in = in_c * kh * kw, fan_out = out_c * kh * kw.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "skiff/core/tensor.h"

namespace skiff::nn {

class Initializer {
 public:
  virtual ~Initializer() = default;
  /// A new tensor of `shape` and floating `dtype` with this initializer's values.
  virtual Tensor generate(const std::vector<int64_t>& shape, DType dtype) const = 0;
  /// Overwrites `param`'s values in place (no autograd history).
  void operator()(const Tensor& param) const;
};

/// (fan_in, fan_out) of a parameter shape, as Paddle computes them.
std::pair<double, double> compute_fans(const std::vector<int64_t>& shape);

class Constant : public Initializer {
 public:
  explicit Constant(double value = 0.0) : value_(value) {}
  Tensor generate(const std::vector<int64_t>& shape, DType dtype) const override;

 private:
  double value_;
};

class Normal : public Initializer {
 public:
  explicit Normal(double mean = 0.0, double std = 1.0) : mean_(mean), std_(std) {}
  Tensor generate(const std::vector<int64_t>& shape, DType dtype) const override;

 private:
  double mean_, std_;
};

/// Normal values redrawn until they fall in [mean + a * std, mean + b * std] (Paddle: a=-2, b=2).
class TruncatedNormal : public Initializer {
 public:
  explicit TruncatedNormal(double mean = 0.0, double std = 1.0, double a = -2.0, double b = 2.0);
  Tensor generate(const std::vector<int64_t>& shape, DType dtype) const override;

 private:
  double mean_, std_, a_, b_;
};

class Uniform : public Initializer {
 public:
  explicit Uniform(double low = -1.0, double high = 1.0) : low_(low), high_(high) {}
  Tensor generate(const std::vector<int64_t>& shape, DType dtype) const override;

 private:
  double low_, high_;
};

/// std = gain * sqrt(2 / (fan_in + fan_out)); fans from the shape unless given (> 0).
class XavierNormal : public Initializer {
 public:
  explicit XavierNormal(double fan_in = 0, double fan_out = 0, double gain = 1.0)
      : fan_in_(fan_in), fan_out_(fan_out), gain_(gain) {}
  Tensor generate(const std::vector<int64_t>& shape, DType dtype) const override;

 private:
  double fan_in_, fan_out_, gain_;
};

/// limit = gain * sqrt(6 / (fan_in + fan_out)), values in [-limit, limit].
class XavierUniform : public Initializer {
 public:
  explicit XavierUniform(double fan_in = 0, double fan_out = 0, double gain = 1.0)
      : fan_in_(fan_in), fan_out_(fan_out), gain_(gain) {}
  Tensor generate(const std::vector<int64_t>& shape, DType dtype) const override;

 private:
  double fan_in_, fan_out_, gain_;
};

/// Paddle's calculate_gain for "relu" (sqrt 2), "leaky_relu" (sqrt(2 / (1 + slope^2))),
/// "tanh" (5/3), "linear"/"conv2d"/"sigmoid" (1), "selu" (3/4).
double calculate_gain(const std::string& nonlinearity, double param = 0.0);

/// std = gain / sqrt(fan_in), gain from `nonlinearity` (default relu).
class KaimingNormal : public Initializer {
 public:
  explicit KaimingNormal(double fan_in = 0, double negative_slope = 0.0,
                         std::string nonlinearity = "relu")
      : fan_in_(fan_in), negative_slope_(negative_slope), nonlinearity_(std::move(nonlinearity)) {}
  Tensor generate(const std::vector<int64_t>& shape, DType dtype) const override;

 private:
  double fan_in_, negative_slope_;
  std::string nonlinearity_;
};

/// limit = gain * sqrt(3 / fan_in).
class KaimingUniform : public Initializer {
 public:
  explicit KaimingUniform(double fan_in = 0, double negative_slope = 0.0,
                          std::string nonlinearity = "relu")
      : fan_in_(fan_in), negative_slope_(negative_slope), nonlinearity_(std::move(nonlinearity)) {}
  Tensor generate(const std::vector<int64_t>& shape, DType dtype) const override;

 private:
  double fan_in_, negative_slope_;
  std::string nonlinearity_;
};

}  // namespace skiff::nn
