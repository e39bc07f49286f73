#include "skiff/nn/common.h"

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/tensor_util.h"

namespace skiff::nn {

Linear::Linear(int64_t in_features, int64_t out_features, bool has_bias,
               const Initializer* weight_init, const Initializer* bias_init) {
  SKIFF_ENFORCE(in_features > 0 && out_features > 0, kInvalidArgument, "Linear", "features",
                "positive in_features and out_features", str(in_features, ", ", out_features));
  weight = add_parameter("weight", create_parameter({in_features, out_features}, weight_init));
  if (has_bias) {
    bias = add_parameter("bias", create_parameter({out_features}, bias_init, std::nullopt, true));
  }
}

Tensor Linear::forward(const Tensor& x) {
  return linear(x, weight, bias.defined() ? std::optional<Tensor>(bias) : std::nullopt);
}

Embedding::Embedding(int64_t num_embeddings, int64_t embedding_dim,
                     std::optional<int64_t> padding_idx, const Initializer* weight_init) {
  SKIFF_ENFORCE(num_embeddings > 0 && embedding_dim > 0, kInvalidArgument, "Embedding", "size",
                "positive num_embeddings and embedding_dim",
                str(num_embeddings, ", ", embedding_dim));
  if (padding_idx) {
    const int64_t p = *padding_idx;
    SKIFF_ENFORCE(p >= -num_embeddings && p < num_embeddings, kOutOfRange, "Embedding",
                  "padding_idx", str("in [", -num_embeddings, ", ", num_embeddings, ")"), p);
    padding_idx_ = p < 0 ? p + num_embeddings : p;
  }
  weight = add_parameter("weight", create_parameter({num_embeddings, embedding_dim}, weight_init));
  if (padding_idx_ >= 0) {  // the padding row starts (and, without gradient, stays) zero
    autograd::NoGradGuard no_grad;
    Tensor row = slice(weight, {0}, {padding_idx_}, {padding_idx_ + 1});
    row.mutable_dense().copy_from(zeros_like(row).dense());
  }
}

Tensor Embedding::forward(const Tensor& ids) { return embedding(ids, weight, padding_idx_); }

Dropout::Dropout(double p, std::string mode) : p_(p), mode_(std::move(mode)) {
  SKIFF_ENFORCE(p >= 0 && p <= 1, kInvalidArgument, "Dropout", "p", "a probability in [0, 1]", p);
  SKIFF_ENFORCE(mode_ == "upscale_in_train" || mode_ == "downscale_in_infer", kInvalidArgument,
                "Dropout", "mode", "upscale_in_train or downscale_in_infer", mode_);
}

Tensor Dropout::forward(const Tensor& x) {
  if (p_ == 0 && mode_ == "upscale_in_train") return x;
  return std::get<0>(dropout(x, static_cast<float>(p_), !training(), mode_));
}

Tensor Flatten::forward(const Tensor& x) { return flatten(x, start_, stop_); }

}  // namespace skiff::nn
