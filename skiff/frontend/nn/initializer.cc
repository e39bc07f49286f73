#include "skiff/nn/initializer.h"

#include <cmath>

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/tensor_util.h"

namespace skiff::nn {

namespace {

void check_float(const char* who, DType dtype) {
  SKIFF_ENFORCE(is_floating(dtype), kTypeError, who, "dtype", "a floating dtype", dtype);
}

double pick(double given, double computed) { return given > 0 ? given : computed; }

}  // namespace

void Initializer::operator()(const Tensor& param) const {
  autograd::NoGradGuard no_grad;
  copy_into(param, generate(param.shape(), param.dtype()));
}

std::pair<double, double> compute_fans(const std::vector<int64_t>& shape) {
  if (shape.empty()) return {1.0, 1.0};
  if (shape.size() == 1) return {double(shape[0]), double(shape[0])};
  if (shape.size() == 2) return {double(shape[0]), double(shape[1])};
  double receptive = 1;
  for (size_t i = 2; i < shape.size(); ++i) receptive *= double(shape[i]);
  return {double(shape[1]) * receptive, double(shape[0]) * receptive};
}

Tensor Constant::generate(const std::vector<int64_t>& shape, DType dtype) const {
  return full(shape, Scalar(value_), dtype);
}

Tensor Normal::generate(const std::vector<int64_t>& shape, DType dtype) const {
  check_float("Normal", dtype);
  return gaussian(shape, mean_, std_, 0, dtype);
}

TruncatedNormal::TruncatedNormal(double mean, double std, double a, double b)
    : mean_(mean), std_(std), a_(a), b_(b) {
  SKIFF_ENFORCE(a < b, kInvalidArgument, "TruncatedNormal", "b", str("a bound above a = ", a), b);
}

Tensor TruncatedNormal::generate(const std::vector<int64_t>& shape, DType dtype) const {
  check_float("TruncatedNormal", dtype);
  autograd::NoGradGuard no_grad;
  // Standard normal draws outside [a, b] are redrawn (rejection keeps the exact truncated
  // distribution); the rare survivors after a few rounds are clipped.
  Tensor z = gaussian(shape, 0.0, 1.0, 0, DType::kFloat32);
  const Tensor lo = full({}, Scalar(a_)), hi = full({}, Scalar(b_));
  for (int round = 0; round < 16; ++round) {
    const Tensor bad = logical_or(less_than(z, lo), greater_than(z, hi));
    if (!any(bad).item<bool>()) break;
    z = where(bad, gaussian(shape, 0.0, 1.0, 0, DType::kFloat32), z);
  }
  z = clip(z, Scalar(a_), Scalar(b_));
  return cast(scale(z, Scalar(std_), Scalar(mean_)), dtype);
}

Tensor Uniform::generate(const std::vector<int64_t>& shape, DType dtype) const {
  check_float("Uniform", dtype);
  return uniform(shape, dtype, low_, high_, 0);
}

Tensor XavierNormal::generate(const std::vector<int64_t>& shape, DType dtype) const {
  const auto [fi, fo] = compute_fans(shape);
  const double std = gain_ * std::sqrt(2.0 / (pick(fan_in_, fi) + pick(fan_out_, fo)));
  return Normal(0.0, std).generate(shape, dtype);
}

Tensor XavierUniform::generate(const std::vector<int64_t>& shape, DType dtype) const {
  const auto [fi, fo] = compute_fans(shape);
  const double limit = gain_ * std::sqrt(6.0 / (pick(fan_in_, fi) + pick(fan_out_, fo)));
  return Uniform(-limit, limit).generate(shape, dtype);
}

double calculate_gain(const std::string& nonlinearity, double param) {
  if (nonlinearity == "relu") return std::sqrt(2.0);
  if (nonlinearity == "leaky_relu") return std::sqrt(2.0 / (1.0 + param * param));
  if (nonlinearity == "tanh") return 5.0 / 3.0;
  if (nonlinearity == "selu") return 3.0 / 4.0;
  if (nonlinearity == "linear" || nonlinearity == "sigmoid" || nonlinearity == "conv2d" ||
      nonlinearity == "conv1d" || nonlinearity == "conv3d") {
    return 1.0;
  }
  SKIFF_THROW(kInvalidArgument, "calculate_gain", "nonlinearity",
              "one of relu, leaky_relu, tanh, selu, linear, sigmoid, conv1d/2d/3d", nonlinearity);
}

Tensor KaimingNormal::generate(const std::vector<int64_t>& shape, DType dtype) const {
  const double fan_in = pick(fan_in_, compute_fans(shape).first);
  const double std = calculate_gain(nonlinearity_, negative_slope_) / std::sqrt(fan_in);
  return Normal(0.0, std).generate(shape, dtype);
}

Tensor KaimingUniform::generate(const std::vector<int64_t>& shape, DType dtype) const {
  const double fan_in = pick(fan_in_, compute_fans(shape).first);
  const double limit = calculate_gain(nonlinearity_, negative_slope_) * std::sqrt(3.0 / fan_in);
  return Uniform(-limit, limit).generate(shape, dtype);
}

}  // namespace skiff::nn
