#include "skiff/nn/loss.h"

#include "skiff/nn/functional.h"

namespace skiff::nn {

namespace F = functional;

CrossEntropyLoss::CrossEntropyLoss(std::optional<Tensor> weight, int64_t ignore_index,
                                   std::string reduction, bool soft_label, int64_t axis,
                                   double label_smoothing)
    : weight_(std::move(weight)),
      ignore_index_(ignore_index),
      reduction_(std::move(reduction)),
      soft_label_(soft_label),
      axis_(axis),
      label_smoothing_(label_smoothing) {}

Tensor CrossEntropyLoss::forward(const Tensor& input, const Tensor& label) {
  return F::cross_entropy(input, label, weight_, ignore_index_, reduction_, soft_label_, axis_,
                          label_smoothing_);
}

NLLLoss::NLLLoss(std::optional<Tensor> weight, int64_t ignore_index, std::string reduction)
    : weight_(std::move(weight)), ignore_index_(ignore_index), reduction_(std::move(reduction)) {}

Tensor NLLLoss::forward(const Tensor& input, const Tensor& label) {
  return F::nll_loss(input, label, weight_, ignore_index_, reduction_);
}

MSELoss::MSELoss(std::string reduction) : reduction_(std::move(reduction)) {}
Tensor MSELoss::forward(const Tensor& input, const Tensor& label) {
  return F::mse_loss(input, label, reduction_);
}

L1Loss::L1Loss(std::string reduction) : reduction_(std::move(reduction)) {}
Tensor L1Loss::forward(const Tensor& input, const Tensor& label) {
  return F::l1_loss(input, label, reduction_);
}

BCEWithLogitsLoss::BCEWithLogitsLoss(std::optional<Tensor> weight, std::string reduction,
                                     std::optional<Tensor> pos_weight)
    : weight_(std::move(weight)),
      reduction_(std::move(reduction)),
      pos_weight_(std::move(pos_weight)) {}

Tensor BCEWithLogitsLoss::forward(const Tensor& logit, const Tensor& label) {
  return F::binary_cross_entropy_with_logits(logit, label, weight_, reduction_, pos_weight_);
}

}  // namespace skiff::nn
