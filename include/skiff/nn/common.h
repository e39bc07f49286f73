// Linear, Embedding, Dropout, Flatten, Identity (paddle.nn.layer.common).
#pragma once

#include <string>

#include "skiff/nn/layer.h"

namespace skiff::nn {

/// y = x @ weight + bias with weight [in_features, out_features] (Paddle's layout).
class Linear : public Layer {
 public:
  Linear(int64_t in_features, int64_t out_features, bool bias = true,
         const Initializer* weight_init = nullptr, const Initializer* bias_init = nullptr);
  Tensor forward(const Tensor& x) override;
  Tensor weight;
  Tensor bias;  // undefined without bias
};

/// Rows of weight [num_embeddings, embedding_dim] picked by integer ids. padding_idx (negative
/// counts from the end) gets a zero row that receives no gradient.
class Embedding : public Layer {
 public:
  Embedding(int64_t num_embeddings, int64_t embedding_dim,
            std::optional<int64_t> padding_idx = std::nullopt,
            const Initializer* weight_init = nullptr);
  Tensor forward(const Tensor& ids) override;
  Tensor weight;

 private:
  int64_t padding_idx_ = -1;
};

/// Zeroes elements with probability p while training; mode "upscale_in_train" (scales kept
/// ones by 1/(1-p)) or "downscale_in_infer".
class Dropout : public Layer {
 public:
  explicit Dropout(double p = 0.5, std::string mode = "upscale_in_train");
  Tensor forward(const Tensor& x) override;

 private:
  double p_;
  std::string mode_;
};

class Flatten : public Layer {
 public:
  explicit Flatten(int64_t start_axis = 1, int64_t stop_axis = -1)
      : start_(start_axis), stop_(stop_axis) {}
  Tensor forward(const Tensor& x) override;

 private:
  int64_t start_, stop_;
};

class Identity : public Layer {
 public:
  Tensor forward(const Tensor& x) override { return x; }
};

}  // namespace skiff::nn
