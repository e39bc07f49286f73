// Gradient clipping (paddle.nn.ClipGradByGlobalNorm / ClipGradByValue), applied by the
// optimizer before its update or called directly on (parameter, gradient) pairs.
#pragma once

#include <optional>
#include <vector>

#include "skiff/core/tensor.h"

namespace skiff::optimizer {

class GradClip {
 public:
  virtual ~GradClip() = default;
  /// Replaces the gradients of `params` (those that have one) by clipped ones.
  virtual void operator()(const std::vector<Tensor>& params) const = 0;
};

/// Scales all gradients by clip_norm / max(global_norm, clip_norm), where global_norm is the
/// L2 norm of every gradient together.
class ClipGradByGlobalNorm : public GradClip {
 public:
  explicit ClipGradByGlobalNorm(double clip_norm);
  void operator()(const std::vector<Tensor>& params) const override;
  /// The global L2 norm of the gradients of `params` (float64 on the host).
  static double global_norm(const std::vector<Tensor>& params);

 private:
  double clip_norm_;
};

/// Clamps every gradient element to [min, max] (min defaults to -max).
class ClipGradByValue : public GradClip {
 public:
  explicit ClipGradByValue(double max, std::optional<double> min = std::nullopt);
  void operator()(const std::vector<Tensor>& params) const override;

 private:
  double min_, max_;
};

}  // namespace skiff::optimizer
