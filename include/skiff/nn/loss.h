// Loss layers (paddle.nn.layer.loss): forward(input, label) over nn::functional.
#pragma once

#include <optional>
#include <string>

#include "skiff/nn/layer.h"

namespace skiff::nn {

/// A loss: forward(input, label), also callable as loss(input, label).
class Loss : public Layer {
 public:
  virtual Tensor forward(const Tensor& input, const Tensor& label) = 0;
  Tensor operator()(const Tensor& input, const Tensor& label) { return forward(input, label); }
  using Layer::forward;
  using Layer::operator();
};

class CrossEntropyLoss : public Loss {
 public:
  explicit CrossEntropyLoss(std::optional<Tensor> weight = std::nullopt,
                            int64_t ignore_index = -100, std::string reduction = "mean",
                            bool soft_label = false, int64_t axis = -1,
                            double label_smoothing = 0.0);
  Tensor forward(const Tensor& input, const Tensor& label) override;

 private:
  std::optional<Tensor> weight_;
  int64_t ignore_index_;
  std::string reduction_;
  bool soft_label_;
  int64_t axis_;
  double label_smoothing_;
};

class NLLLoss : public Loss {
 public:
  explicit NLLLoss(std::optional<Tensor> weight = std::nullopt, int64_t ignore_index = -100,
                   std::string reduction = "mean");
  Tensor forward(const Tensor& input, const Tensor& label) override;

 private:
  std::optional<Tensor> weight_;
  int64_t ignore_index_;
  std::string reduction_;
};

class MSELoss : public Loss {
 public:
  explicit MSELoss(std::string reduction = "mean");
  Tensor forward(const Tensor& input, const Tensor& label) override;

 private:
  std::string reduction_;
};

class L1Loss : public Loss {
 public:
  explicit L1Loss(std::string reduction = "mean");
  Tensor forward(const Tensor& input, const Tensor& label) override;

 private:
  std::string reduction_;
};

class BCEWithLogitsLoss : public Loss {
 public:
  explicit BCEWithLogitsLoss(std::optional<Tensor> weight = std::nullopt,
                             std::string reduction = "mean",
                             std::optional<Tensor> pos_weight = std::nullopt);
  Tensor forward(const Tensor& logit, const Tensor& label) override;

 private:
  std::optional<Tensor> weight_;
  std::string reduction_;
  std::optional<Tensor> pos_weight_;
};

}  // namespace skiff::nn
