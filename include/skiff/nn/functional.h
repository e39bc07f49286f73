// paddle.nn.functional: losses and the few composite functions layers share. Losses reduce
// with "mean" (default), "sum" or "none".
#pragma once

#include <optional>
#include <string>

#include "skiff/core/tensor.h"

namespace skiff::nn::functional {

/// Softmax cross entropy of logits `input` against `label`: hard labels (integer class ids of
/// input's shape without `axis`, or with it of size 1) unless soft_label (probabilities of
/// input's shape). Hard labels equal to ignore_index add nothing and are left out of the mean.
/// label_smoothing > 0 mixes hard labels with the uniform distribution (then soft). `weight`
/// ([C], optional) scales each class's loss; the mean divides by the summed weights.
/// reduction "none" returns one loss per sample (input's dims without `axis`).
Tensor cross_entropy(const Tensor& input, const Tensor& label,
                     const std::optional<Tensor>& weight = std::nullopt,
                     int64_t ignore_index = -100, const std::string& reduction = "mean",
                     bool soft_label = false, int64_t axis = -1, double label_smoothing = 0.0);
/// Negative log likelihood of log-probabilities `input` [N, C] (or [N, C, d...]) at the class
/// ids `label` [N] (or [N, d...]); optional class weights [C]; ignore_index as above.
Tensor nll_loss(const Tensor& input, const Tensor& label,
                const std::optional<Tensor>& weight = std::nullopt, int64_t ignore_index = -100,
                const std::string& reduction = "mean");
Tensor mse_loss(const Tensor& input, const Tensor& label, const std::string& reduction = "mean");
Tensor l1_loss(const Tensor& input, const Tensor& label, const std::string& reduction = "mean");
/// Numerically stable sigmoid + binary cross entropy; pos_weight ([C]) weighs positive labels,
/// weight scales every element.
Tensor binary_cross_entropy_with_logits(const Tensor& logit, const Tensor& label,
                                        const std::optional<Tensor>& weight = std::nullopt,
                                        const std::string& reduction = "mean",
                                        const std::optional<Tensor>& pos_weight = std::nullopt);

}  // namespace skiff::nn::functional
