#include "skiff/nn/norm.h"

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/tensor_util.h"

namespace skiff::nn {

namespace {

int64_t product(const std::vector<int64_t>& v) {
  int64_t n = 1;
  for (int64_t d : v) n *= d;
  return n;
}

}  // namespace

LayerNorm::LayerNorm(std::vector<int64_t> normalized_shape, double epsilon, bool affine)
    : shape_(std::move(normalized_shape)), epsilon_(epsilon) {
  SKIFF_ENFORCE(!shape_.empty() && product(shape_) > 0, kInvalidArgument, "LayerNorm",
                "normalized_shape", "a non-empty shape of positive dims", str(shape_));
  if (affine) {
    const Constant one(1.0);
    weight = add_parameter("weight", create_parameter({product(shape_)}, &one));
    bias = add_parameter("bias", create_parameter({product(shape_)}, nullptr, std::nullopt, true));
  }
}

Tensor LayerNorm::forward(const Tensor& x) {
  const int64_t k = static_cast<int64_t>(shape_.size());
  SKIFF_ENFORCE(x.rank() >= k, kInvalidArgument, "LayerNorm", "x",
                str("a tensor whose trailing dims are ", shape_), x.dims());
  for (int64_t i = 0; i < k; ++i) {
    SKIFF_ENFORCE(x.dims()[x.rank() - k + i] == shape_[i], kInvalidArgument, "LayerNorm", "x",
                  str("a tensor whose trailing dims are ", shape_), x.dims());
  }
  auto opt = [](const Tensor& t) { return t.defined() ? std::optional<Tensor>(t) : std::nullopt; };
  return std::get<0>(
      layer_norm(x, opt(weight), opt(bias), static_cast<float>(epsilon_), x.rank() - k));
}

RMSNorm::RMSNorm(int64_t hidden_size, double epsilon) : epsilon_(epsilon) {
  const Constant one(1.0);
  weight = add_parameter("weight", create_parameter({hidden_size}, &one));
}

Tensor RMSNorm::forward(const Tensor& x) {
  return std::get<0>(rms_norm(x, weight, static_cast<float>(epsilon_), -1));
}

BatchNorm2D::BatchNorm2D(int64_t num_features, double momentum, double epsilon,
                         bool use_global_stats)
    : num_features_(num_features),
      momentum_(momentum),
      epsilon_(epsilon),
      use_global_stats_(use_global_stats) {
  SKIFF_ENFORCE(num_features > 0, kInvalidArgument, "BatchNorm2D", "num_features",
                "a positive count", num_features);
  const Constant one(1.0);
  weight = add_parameter("weight", create_parameter({num_features}, &one));
  bias = add_parameter("bias", create_parameter({num_features}, nullptr, std::nullopt, true));
  running_mean = register_buffer("_mean", zeros({num_features}, dtype()));
  running_var = register_buffer("_variance", ones({num_features}, dtype()));
}

Tensor BatchNorm2D::forward(const Tensor& x) {
  SKIFF_ENFORCE(x.rank() == 4 && x.dims()[1] == num_features_, kInvalidArgument, "BatchNorm2D", "x",
                str("an NCHW tensor with C = ", num_features_), x.dims());
  const std::vector<int64_t> per_channel{1, num_features_, 1, 1};
  Tensor mean_c, var_c;
  if (training() && !use_global_stats_) {
    mean_c = mean(x, {0, 2, 3}, true);
    var_c = mean(square(subtract(x, mean_c)), {0, 2, 3}, true);  // biased, as Paddle
    autograd::NoGradGuard no_grad;
    const Scalar m(momentum_), one_minus(1.0 - momentum_);
    copy_into(running_mean,
              add(scale(running_mean, m), scale(reshape(mean_c, {num_features_}), one_minus)));
    copy_into(running_var,
              add(scale(running_var, m), scale(reshape(var_c, {num_features_}), one_minus)));
  } else {
    mean_c = reshape(running_mean, per_channel);
    var_c = reshape(running_var, per_channel);
  }
  const Tensor inv_std = rsqrt(scale(var_c, Scalar(1.0), Scalar(epsilon_)));
  const Tensor y = multiply(subtract(x, mean_c), inv_std);
  return add(multiply(y, reshape(weight, per_channel)), reshape(bias, per_channel));
}

}  // namespace skiff::nn
