// Optimizers (paddle.optimizer): SGD, Momentum, Adam, AdamW over parameter groups. step()
// clips the gradients (if a GradClip is set), then updates each group with ONE call of a fused
// multi-tensor op (fused_sgd_, fused_momentum_, fused_adam_, fused_adamw_ in
// skiff/ops/yaml/optimizer.yaml; in-place ops, which bump the versions of what they write)
// under no_grad. Parameters without a gradient are skipped.
//
// State dict keys: "<param name>.<state>" (moment1, moment2, moment2_max, velocity), "step"
// (updates done) and, with a scheduler, "LR_Scheduler.last_epoch" / "LR_Scheduler.last_lr".
// Parameter names come from named parameters (e.g. Layer::named_parameters()), or are
// "param_<i>" for an unnamed list.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/optimizer/clip_grad.h"
#include "skiff/optimizer/lr.h"
#include "skiff/state_dict.h"

namespace skiff::optimizer {

using NamedParams = std::vector<std::pair<std::string, Tensor>>;

/// A parameter group: its own weight decay, and a learning-rate multiplier (Paddle's group
/// "learning_rate": the group's rate is the optimizer's rate times this).
struct ParamGroup {
  NamedParams params;
  std::optional<double> learning_rate_scale;
  std::optional<double> weight_decay;
};

/// A constant learning rate or a scheduler.
using LearningRate = std::variant<double, std::shared_ptr<lr::LRScheduler>>;

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  void step();
  /// Drops the gradients (set_to_zero: fills them with zeros, Paddle's default).
  void clear_grad(bool set_to_zero = true);
  double get_lr() const;
  /// Sets a constant learning rate (an error when a scheduler drives it).
  void set_lr(double lr);
  const std::shared_ptr<lr::LRScheduler>& lr_scheduler() const { return scheduler_; }
  int64_t step_count() const { return step_count_; }

  StateDict state_dict() const;
  /// Loads state saved by state_dict(): every key must name a known parameter's state (with
  /// matching shape) or the step / scheduler entries.
  void set_state_dict(const StateDict& state);

  const std::vector<ParamGroup>& param_groups() const { return groups_; }
  /// All parameters of all groups.
  std::vector<Tensor> parameters() const;

 protected:
  Optimizer(std::vector<ParamGroup> groups, LearningRate learning_rate, double weight_decay,
            std::shared_ptr<GradClip> grad_clip, const char* name);

  /// Updates params (all with gradients, same dtype) with their grads in one fused op call.
  virtual void update(const std::vector<std::string>& names, const std::vector<Tensor>& params,
                      const std::vector<Tensor>& grads, const Tensor& lr, double weight_decay) = 0;
  /// The state tensors of `name` (created on first use, zeros like `param` in float32).
  Tensor& state(const std::string& kind, const std::string& name, const Tensor& param);
  /// The names of the per-parameter state this optimizer keeps (for set_state_dict checks).
  virtual std::vector<std::string> state_kinds() const = 0;
  /// The current step number (1-based during an update) as a 0-D float32 tensor.
  Tensor step_tensor() const;

 private:
  std::vector<ParamGroup> groups_;
  double lr_ = 0.0;
  std::shared_ptr<lr::LRScheduler> scheduler_;
  double weight_decay_;
  std::shared_ptr<GradClip> grad_clip_;
  const char* name_;
  int64_t step_count_ = 0;
  std::map<std::string, Tensor> state_;  // "<param name>.<kind>"
  std::map<std::string, Tensor> param_by_name_;
};

/// Plain SGD; weight_decay is L2 (grad += weight_decay * param).
class SGD : public Optimizer {
 public:
  SGD(LearningRate learning_rate, NamedParams parameters, double weight_decay = 0.0,
      std::shared_ptr<GradClip> grad_clip = nullptr);
  SGD(LearningRate learning_rate, std::vector<ParamGroup> groups, double weight_decay = 0.0,
      std::shared_ptr<GradClip> grad_clip = nullptr);

 protected:
  void update(const std::vector<std::string>& names, const std::vector<Tensor>& params,
              const std::vector<Tensor>& grads, const Tensor& lr, double weight_decay) override;
  std::vector<std::string> state_kinds() const override { return {}; }
};

/// Momentum (Paddle): velocity = momentum * velocity + grad; param -= lr * velocity, or with
/// use_nesterov param -= lr * (grad + momentum * velocity). weight_decay is L2.
class Momentum : public Optimizer {
 public:
  Momentum(LearningRate learning_rate, NamedParams parameters, double momentum = 0.9,
           bool use_nesterov = false, double weight_decay = 0.0,
           std::shared_ptr<GradClip> grad_clip = nullptr);
  Momentum(LearningRate learning_rate, std::vector<ParamGroup> groups, double momentum = 0.9,
           bool use_nesterov = false, double weight_decay = 0.0,
           std::shared_ptr<GradClip> grad_clip = nullptr);

 protected:
  void update(const std::vector<std::string>& names, const std::vector<Tensor>& params,
              const std::vector<Tensor>& grads, const Tensor& lr, double weight_decay) override;
  std::vector<std::string> state_kinds() const override { return {"velocity"}; }

 private:
  double momentum_;
  bool use_nesterov_;
};

struct AdamOptions {
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  bool amsgrad = false;
};

/// Adam; weight_decay is L2 (added to the gradient).
class Adam : public Optimizer {
 public:
  Adam(LearningRate learning_rate, NamedParams parameters, AdamOptions options = {},
       double weight_decay = 0.0, std::shared_ptr<GradClip> grad_clip = nullptr);
  Adam(LearningRate learning_rate, std::vector<ParamGroup> groups, AdamOptions options = {},
       double weight_decay = 0.0, std::shared_ptr<GradClip> grad_clip = nullptr);

 protected:
  Adam(std::vector<ParamGroup> groups, LearningRate learning_rate, AdamOptions options,
       double weight_decay, std::shared_ptr<GradClip> grad_clip, const char* name);
  void update(const std::vector<std::string>& names, const std::vector<Tensor>& params,
              const std::vector<Tensor>& grads, const Tensor& lr, double weight_decay) override;
  std::vector<std::string> state_kinds() const override;
  /// The moments of `names` for one fused call.
  struct Moments {
    std::vector<Tensor> m1, m2, m2_max;
  };
  Moments moments(const std::vector<std::string>& names, const std::vector<Tensor>& params);
  AdamOptions options_;
};

/// AdamW: decoupled weight decay (param *= 1 - lr * weight_decay, default 0.01), skipped for
/// parameters whose name apply_decay_param_fun rejects (e.g. biases and norms).
class AdamW : public Adam {
 public:
  AdamW(LearningRate learning_rate, NamedParams parameters, AdamOptions options = {},
        double weight_decay = 0.01,
        std::function<bool(const std::string&)> apply_decay_param_fun = nullptr,
        std::shared_ptr<GradClip> grad_clip = nullptr);
  AdamW(LearningRate learning_rate, std::vector<ParamGroup> groups, AdamOptions options = {},
        double weight_decay = 0.01,
        std::function<bool(const std::string&)> apply_decay_param_fun = nullptr,
        std::shared_ptr<GradClip> grad_clip = nullptr);

 protected:
  void update(const std::vector<std::string>& names, const std::vector<Tensor>& params,
              const std::vector<Tensor>& grads, const Tensor& lr, double weight_decay) override;

 private:
  std::function<bool(const std::string&)> apply_decay_;
};

/// Names unnamed parameters "param_0", "param_1", ...
NamedParams name_params(const std::vector<Tensor>& params);

}  // namespace skiff::optimizer
