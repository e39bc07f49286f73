#include "skiff/optimizer/lr.h"

#include <cmath>
#include <numbers>

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"

namespace skiff::optimizer::lr {

StateDict LRScheduler::state_dict() const {
  StateDict s;
  s.set("last_epoch", full({}, Scalar(static_cast<double>(last_epoch_)), DType::kFloat64));
  s.set("last_lr", full({}, Scalar(get_lr()), DType::kFloat64));
  return s;
}

void LRScheduler::set_state_dict(const StateDict& state) {
  last_epoch_ = static_cast<int64_t>(cast(state.at("last_epoch"), DType::kFloat64).item<double>());
}

StepDecay::StepDecay(double learning_rate, int64_t step_size, double gamma)
    : LRScheduler(learning_rate), step_size_(step_size), gamma_(gamma) {
  SKIFF_ENFORCE(step_size > 0, kInvalidArgument, "StepDecay", "step_size", "a positive count",
                step_size);
}
double StepDecay::lr_at(int64_t epoch) const {
  return base_lr_ * std::pow(gamma_, static_cast<double>(epoch / step_size_));
}

MultiStepDecay::MultiStepDecay(double learning_rate, std::vector<int64_t> milestones, double gamma)
    : LRScheduler(learning_rate), milestones_(std::move(milestones)), gamma_(gamma) {
  for (size_t i = 1; i < milestones_.size(); ++i) {
    SKIFF_ENFORCE(milestones_[i] > milestones_[i - 1], kInvalidArgument, "MultiStepDecay",
                  "milestones", "an increasing list", str(milestones_));
  }
}
double MultiStepDecay::lr_at(int64_t epoch) const {
  size_t passed = 0;
  while (passed < milestones_.size() && epoch >= milestones_[passed]) ++passed;
  return base_lr_ * std::pow(gamma_, static_cast<double>(passed));
}

ExponentialDecay::ExponentialDecay(double learning_rate, double gamma)
    : LRScheduler(learning_rate), gamma_(gamma) {}
double ExponentialDecay::lr_at(int64_t epoch) const {
  return base_lr_ * std::pow(gamma_, static_cast<double>(epoch));
}

LambdaDecay::LambdaDecay(double learning_rate, std::function<double(int64_t)> lr_lambda)
    : LRScheduler(learning_rate), lr_lambda_(std::move(lr_lambda)) {
  SKIFF_ENFORCE(lr_lambda_ != nullptr, kInvalidArgument, "LambdaDecay", "lr_lambda", "a function",
                "an empty function");
}
double LambdaDecay::lr_at(int64_t epoch) const { return base_lr_ * lr_lambda_(epoch); }

CosineAnnealingDecay::CosineAnnealingDecay(double learning_rate, int64_t T_max, double eta_min)
    : LRScheduler(learning_rate), t_max_(T_max), eta_min_(eta_min) {
  SKIFF_ENFORCE(T_max > 0, kInvalidArgument, "CosineAnnealingDecay", "T_max", "a positive count",
                T_max);
}
double CosineAnnealingDecay::lr_at(int64_t epoch) const {
  const double c = std::cos(std::numbers::pi * static_cast<double>(epoch) / t_max_);
  return eta_min_ + (base_lr_ - eta_min_) * (1 + c) / 2;
}

LinearWarmup::LinearWarmup(double learning_rate, int64_t warmup_steps, double start_lr,
                           double end_lr)
    : LRScheduler(learning_rate),
      warmup_steps_(warmup_steps),
      start_lr_(start_lr),
      end_lr_(end_lr) {
  SKIFF_ENFORCE(warmup_steps > 0, kInvalidArgument, "LinearWarmup", "warmup_steps",
                "a positive count", warmup_steps);
}
LinearWarmup::LinearWarmup(std::shared_ptr<LRScheduler> learning_rate, int64_t warmup_steps,
                           double start_lr, double end_lr)
    : LinearWarmup(0.0, warmup_steps, start_lr, end_lr) {
  SKIFF_ENFORCE(learning_rate != nullptr, kInvalidArgument, "LinearWarmup", "learning_rate",
                "a scheduler", "a null pointer");
  inner_ = std::move(learning_rate);
  base_lr_ = inner_->base_lr();
}
double LinearWarmup::lr_at(int64_t epoch) const {
  if (epoch < warmup_steps_) {
    return start_lr_ + (end_lr_ - start_lr_) * static_cast<double>(epoch) / warmup_steps_;
  }
  return inner_ ? inner_->lr_at(epoch - warmup_steps_) : base_lr_;
}

}  // namespace skiff::optimizer::lr
