#include "skiff/optimizer/clip_grad.h"

#include <cmath>

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/tensor_util.h"

namespace skiff::optimizer {

ClipGradByGlobalNorm::ClipGradByGlobalNorm(double clip_norm) : clip_norm_(clip_norm) {
  SKIFF_ENFORCE(clip_norm > 0, kInvalidArgument, "ClipGradByGlobalNorm", "clip_norm",
                "a positive norm", clip_norm);
}

double ClipGradByGlobalNorm::global_norm(const std::vector<Tensor>& params) {
  autograd::NoGradGuard no_grad;
  double total = 0;
  for (const Tensor& p : params) {
    const Tensor g = grad_of(p);
    if (!g.defined() || g.numel() == 0) continue;
    total += sum(square(cast(g, DType::kFloat32)), {}, DType::kFloat64).item<double>();
  }
  return std::sqrt(total);
}

void ClipGradByGlobalNorm::operator()(const std::vector<Tensor>& params) const {
  const double norm = global_norm(params);
  if (norm <= clip_norm_) return;
  const double s = clip_norm_ / norm;
  autograd::NoGradGuard no_grad;
  for (const Tensor& p : params) {
    const Tensor g = grad_of(p);
    if (g.defined()) set_grad(p, scale(g, Scalar(s)));
  }
}

ClipGradByValue::ClipGradByValue(double max, std::optional<double> min)
    : min_(min.value_or(-max)), max_(max) {
  SKIFF_ENFORCE(min_ <= max_, kInvalidArgument, "ClipGradByValue", "min",
                str("a value <= max = ", max_), min_);
}

void ClipGradByValue::operator()(const std::vector<Tensor>& params) const {
  autograd::NoGradGuard no_grad;
  for (const Tensor& p : params) {
    const Tensor g = grad_of(p);
    if (g.defined()) set_grad(p, clip(g, Scalar(min_), Scalar(max_)));
  }
}

}  // namespace skiff::optimizer
