// Learning-rate schedulers (paddle.optimizer.lr). A scheduler is a pure function of the epoch
// (step count) `last_epoch`; step() advances it, get_lr() evaluates it. As in Paddle, a new
// scheduler stands at epoch 0, and the user calls step() after each optimizer step (or epoch).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "skiff/state_dict.h"

namespace skiff::optimizer::lr {

class LRScheduler {
 public:
  explicit LRScheduler(double learning_rate) : base_lr_(learning_rate) {}
  virtual ~LRScheduler() = default;
  /// The learning rate at `epoch`.
  virtual double lr_at(int64_t epoch) const = 0;
  double get_lr() const { return lr_at(last_epoch_); }
  double operator()() const { return get_lr(); }
  void step() { ++last_epoch_; }
  void step(int64_t epoch) { last_epoch_ = epoch; }
  int64_t last_epoch() const { return last_epoch_; }
  double base_lr() const { return base_lr_; }
  /// {"last_epoch", "last_lr"} as 0-D float64 tensors.
  StateDict state_dict() const;
  void set_state_dict(const StateDict& state);

 protected:
  double base_lr_;
  int64_t last_epoch_ = 0;
};

/// base * gamma^(epoch / step_size).
class StepDecay : public LRScheduler {
 public:
  StepDecay(double learning_rate, int64_t step_size, double gamma = 0.1);
  double lr_at(int64_t epoch) const override;

 private:
  int64_t step_size_;
  double gamma_;
};

/// base * gamma^(number of milestones <= epoch); milestones increasing.
class MultiStepDecay : public LRScheduler {
 public:
  MultiStepDecay(double learning_rate, std::vector<int64_t> milestones, double gamma = 0.1);
  double lr_at(int64_t epoch) const override;

 private:
  std::vector<int64_t> milestones_;
  double gamma_;
};

/// base * gamma^epoch.
class ExponentialDecay : public LRScheduler {
 public:
  ExponentialDecay(double learning_rate, double gamma);
  double lr_at(int64_t epoch) const override;

 private:
  double gamma_;
};

/// base * lr_lambda(epoch).
class LambdaDecay : public LRScheduler {
 public:
  LambdaDecay(double learning_rate, std::function<double(int64_t)> lr_lambda);
  double lr_at(int64_t epoch) const override;

 private:
  std::function<double(int64_t)> lr_lambda_;
};

/// eta_min + (base - eta_min) * (1 + cos(pi * epoch / T_max)) / 2.
class CosineAnnealingDecay : public LRScheduler {
 public:
  CosineAnnealingDecay(double learning_rate, int64_t T_max, double eta_min = 0.0);
  double lr_at(int64_t epoch) const override;

 private:
  int64_t t_max_;
  double eta_min_;
};

/// Linear from start_lr to end_lr over warmup_steps, then `learning_rate`: a constant, or a
/// scheduler evaluated at epoch - warmup_steps.
class LinearWarmup : public LRScheduler {
 public:
  LinearWarmup(double learning_rate, int64_t warmup_steps, double start_lr, double end_lr);
  LinearWarmup(std::shared_ptr<LRScheduler> learning_rate, int64_t warmup_steps, double start_lr,
               double end_lr);
  double lr_at(int64_t epoch) const override;

 private:
  std::shared_ptr<LRScheduler> inner_;
  int64_t warmup_steps_;
  double start_lr_, end_lr_;
};

}  // namespace skiff::optimizer::lr
