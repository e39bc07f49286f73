#include "skiff/optimizer/optimizer.h"

#include <algorithm>

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/tensor_util.h"

namespace skiff::optimizer {

namespace {

std::vector<ParamGroup> one_group(NamedParams params) {
  return {ParamGroup{std::move(params), std::nullopt, std::nullopt}};
}

}  // namespace

NamedParams name_params(const std::vector<Tensor>& params) {
  NamedParams out;
  for (size_t i = 0; i < params.size(); ++i) out.emplace_back(str("param_", i), params[i]);
  return out;
}

Optimizer::Optimizer(std::vector<ParamGroup> groups, LearningRate learning_rate,
                     double weight_decay, std::shared_ptr<GradClip> grad_clip, const char* name)
    : groups_(std::move(groups)),
      weight_decay_(weight_decay),
      grad_clip_(std::move(grad_clip)),
      name_(name) {
  if (auto* s = std::get_if<std::shared_ptr<lr::LRScheduler>>(&learning_rate)) {
    SKIFF_ENFORCE(*s != nullptr, kInvalidArgument, name, "learning_rate", "a float or a scheduler",
                  "a null scheduler");
    scheduler_ = *s;
  } else {
    lr_ = std::get<double>(learning_rate);
  }
  for (const ParamGroup& g : groups_) {
    for (const auto& [pname, p] : g.params) {
      SKIFF_ENFORCE(p.defined() && is_floating(p.dtype()), kTypeError, name, pname,
                    "a floating-point parameter", p.defined() ? str(p.dtype()) : "undefined");
      SKIFF_ENFORCE(param_by_name_.emplace(pname, p).second, kInvalidArgument, name, "parameters",
                    "unique parameter names", str("'", pname, "' twice"));
    }
  }
}

std::vector<Tensor> Optimizer::parameters() const {
  std::vector<Tensor> out;
  for (const ParamGroup& g : groups_) {
    for (const auto& [n, p] : g.params) out.push_back(p);
  }
  return out;
}

double Optimizer::get_lr() const { return scheduler_ ? scheduler_->get_lr() : lr_; }

void Optimizer::set_lr(double lr) {
  SKIFF_ENFORCE(scheduler_ == nullptr, kPrecondition, name_, "learning_rate",
                "a constant learning rate to set", "a scheduler drives it");
  lr_ = lr;
}

Tensor Optimizer::step_tensor() const {
  return full({}, Scalar(static_cast<double>(step_count_)), DType::kFloat32);
}

Tensor& Optimizer::state(const std::string& kind, const std::string& name, const Tensor& param) {
  auto [it, added] = state_.try_emplace(name + "." + kind);
  if (added) {
    const DType d = param.dtype() == DType::kFloat64 ? DType::kFloat64 : DType::kFloat32;
    it->second = Tensor(zeros(param.shape(), d).dense().copy_to(param.place()));
  }
  return it->second;
}

void Optimizer::step() {
  autograd::NoGradGuard no_grad;
  ++step_count_;
  if (grad_clip_) (*grad_clip_)(parameters());
  const double base_lr = get_lr();
  for (const ParamGroup& g : groups_) {
    // One fused call per dtype present in the group (usually one).
    std::map<DType, std::tuple<std::vector<std::string>, std::vector<Tensor>, std::vector<Tensor>>>
        parts;
    for (const auto& [pname, p] : g.params) {
      Tensor grad = grad_of(p);
      if (!grad.defined() || !autograd::requires_grad(p)) continue;
      if (grad.dtype() != p.dtype()) grad = cast(grad, p.dtype());
      auto& [names, params, grads] = parts[p.dtype()];
      names.push_back(pname);
      params.push_back(p);
      grads.push_back(grad);
    }
    const double lr = base_lr * g.learning_rate_scale.value_or(1.0);
    const Tensor lr_t = full({}, Scalar(lr), DType::kFloat32);
    for (const auto& [dtype, part] : parts) {
      const auto& [names, params, grads] = part;
      update(names, params, grads, lr_t, g.weight_decay.value_or(weight_decay_));
    }
  }
}

void Optimizer::clear_grad(bool set_to_zero) {
  autograd::NoGradGuard no_grad;
  for (const Tensor& p : parameters()) {
    const Tensor g = grad_of(p);
    if (g.defined()) set_grad(p, set_to_zero ? zeros_like(g) : Tensor());
  }
}

StateDict Optimizer::state_dict() const {
  StateDict out;
  for (const auto& [key, t] : state_) out.set(key, t);
  out.set("step", full({}, Scalar(static_cast<double>(step_count_)), DType::kFloat64));
  if (scheduler_) out.merge(scheduler_->state_dict(), "LR_Scheduler.");
  return out;
}

void Optimizer::set_state_dict(const StateDict& state) {
  const std::vector<std::string> kinds = state_kinds();
  for (const auto& [key, t] : state) {
    if (key == "step") {
      step_count_ = static_cast<int64_t>(cast(t, DType::kFloat64).item<double>());
      continue;
    }
    if (key.rfind("LR_Scheduler.", 0) == 0) {
      SKIFF_ENFORCE(scheduler_ != nullptr, kInvalidArgument, name_, "state",
                    "no LR_Scheduler entries (the optimizer has a constant learning rate)", key);
      continue;
    }
    const size_t dot = key.rfind('.');
    const std::string pname = dot == std::string::npos ? key : key.substr(0, dot);
    const std::string kind = dot == std::string::npos ? "" : key.substr(dot + 1);
    auto p = param_by_name_.find(pname);
    SKIFF_ENFORCE(
        p != param_by_name_.end() && std::find(kinds.begin(), kinds.end(), kind) != kinds.end(),
        kInvalidArgument, name_, "state",
        str("'<parameter>.<", join(kinds, "|"), ">', 'step' or 'LR_Scheduler.*' keys"),
        str("'", key, "'"));
    SKIFF_ENFORCE(t.dims() == p->second.dims(), kInvalidArgument, name_, key,
                  str("dims ", p->second.dims(), " (those of the parameter)"), t.dims());
    Tensor& dst = this->state(kind, pname, p->second);
    copy_into(dst, Tensor(t.dense().copy_to(dst.place())));
  }
  if (scheduler_) {
    const StateDict s = state.with_prefix("LR_Scheduler.");
    if (!s.empty()) scheduler_->set_state_dict(s);
  }
}

// SGD ---------------------------------------------------------------------------------------

SGD::SGD(LearningRate learning_rate, NamedParams parameters, double weight_decay,
         std::shared_ptr<GradClip> grad_clip)
    : SGD(std::move(learning_rate), one_group(std::move(parameters)), weight_decay,
          std::move(grad_clip)) {}

SGD::SGD(LearningRate learning_rate, std::vector<ParamGroup> groups, double weight_decay,
         std::shared_ptr<GradClip> grad_clip)
    : Optimizer(std::move(groups), std::move(learning_rate), weight_decay, std::move(grad_clip),
                "SGD") {}

void SGD::update(const std::vector<std::string>&, const std::vector<Tensor>& params,
                 const std::vector<Tensor>& grads, const Tensor& lr, double weight_decay) {
  fused_sgd_(params, grads, lr, static_cast<float>(weight_decay));
}

// Momentum ----------------------------------------------------------------------------------

Momentum::Momentum(LearningRate learning_rate, NamedParams parameters, double momentum,
                   bool use_nesterov, double weight_decay, std::shared_ptr<GradClip> grad_clip)
    : Momentum(std::move(learning_rate), one_group(std::move(parameters)), momentum, use_nesterov,
               weight_decay, std::move(grad_clip)) {}

Momentum::Momentum(LearningRate learning_rate, std::vector<ParamGroup> groups, double momentum,
                   bool use_nesterov, double weight_decay, std::shared_ptr<GradClip> grad_clip)
    : Optimizer(std::move(groups), std::move(learning_rate), weight_decay, std::move(grad_clip),
                "Momentum"),
      momentum_(momentum),
      use_nesterov_(use_nesterov) {}

void Momentum::update(const std::vector<std::string>& names, const std::vector<Tensor>& params,
                      const std::vector<Tensor>& grads, const Tensor& lr, double weight_decay) {
  std::vector<Tensor> velocity;
  for (size_t i = 0; i < params.size(); ++i)
    velocity.push_back(state("velocity", names[i], params[i]));
  fused_momentum_(params, grads, velocity, lr, static_cast<float>(momentum_), use_nesterov_,
                  static_cast<float>(weight_decay));
}

// Adam, AdamW -------------------------------------------------------------------------------

Adam::Adam(LearningRate learning_rate, NamedParams parameters, AdamOptions options,
           double weight_decay, std::shared_ptr<GradClip> grad_clip)
    : Adam(one_group(std::move(parameters)), std::move(learning_rate), options, weight_decay,
           std::move(grad_clip), "Adam") {}

Adam::Adam(LearningRate learning_rate, std::vector<ParamGroup> groups, AdamOptions options,
           double weight_decay, std::shared_ptr<GradClip> grad_clip)
    : Adam(std::move(groups), std::move(learning_rate), options, weight_decay, std::move(grad_clip),
           "Adam") {}

Adam::Adam(std::vector<ParamGroup> groups, LearningRate learning_rate, AdamOptions options,
           double weight_decay, std::shared_ptr<GradClip> grad_clip, const char* name)
    : Optimizer(std::move(groups), std::move(learning_rate), weight_decay, std::move(grad_clip),
                name),
      options_(options) {
  SKIFF_ENFORCE(options.beta1 >= 0 && options.beta1 < 1, kInvalidArgument, name, "beta1",
                "a value in [0, 1)", options.beta1);
  SKIFF_ENFORCE(options.beta2 >= 0 && options.beta2 < 1, kInvalidArgument, name, "beta2",
                "a value in [0, 1)", options.beta2);
  SKIFF_ENFORCE(options.epsilon >= 0, kInvalidArgument, name, "epsilon", "a value >= 0",
                options.epsilon);
}

std::vector<std::string> Adam::state_kinds() const {
  if (options_.amsgrad) return {"moment1", "moment2", "moment2_max"};
  return {"moment1", "moment2"};
}

Adam::Moments Adam::moments(const std::vector<std::string>& names,
                            const std::vector<Tensor>& params) {
  Moments m;
  for (size_t i = 0; i < params.size(); ++i) {
    m.m1.push_back(state("moment1", names[i], params[i]));
    m.m2.push_back(state("moment2", names[i], params[i]));
    if (options_.amsgrad) m.m2_max.push_back(state("moment2_max", names[i], params[i]));
  }
  return m;
}

void Adam::update(const std::vector<std::string>& names, const std::vector<Tensor>& params,
                  const std::vector<Tensor>& grads, const Tensor& lr, double weight_decay) {
  const Moments m = moments(names, params);
  fused_adam_(params, grads, m.m1, m.m2, m.m2_max, lr, step_tensor(),
              static_cast<float>(options_.beta1), static_cast<float>(options_.beta2),
              static_cast<float>(options_.epsilon), static_cast<float>(weight_decay),
              options_.amsgrad);
}

AdamW::AdamW(LearningRate learning_rate, NamedParams parameters, AdamOptions options,
             double weight_decay, std::function<bool(const std::string&)> apply_decay_param_fun,
             std::shared_ptr<GradClip> grad_clip)
    : AdamW(std::move(learning_rate), one_group(std::move(parameters)), options, weight_decay,
            std::move(apply_decay_param_fun), std::move(grad_clip)) {}

AdamW::AdamW(LearningRate learning_rate, std::vector<ParamGroup> groups, AdamOptions options,
             double weight_decay, std::function<bool(const std::string&)> apply_decay_param_fun,
             std::shared_ptr<GradClip> grad_clip)
    : Adam(std::move(groups), std::move(learning_rate), options, weight_decay, std::move(grad_clip),
           "AdamW"),
      apply_decay_(std::move(apply_decay_param_fun)) {}

void AdamW::update(const std::vector<std::string>& names, const std::vector<Tensor>& params,
                   const std::vector<Tensor>& grads, const Tensor& lr, double weight_decay) {
  // Parameters the predicate excludes get a second fused call with no decay.
  std::vector<size_t> decay, plain;
  for (size_t i = 0; i < params.size(); ++i) {
    (!apply_decay_ || apply_decay_(names[i]) ? decay : plain).push_back(i);
  }
  for (const auto* idx : {&decay, &plain}) {
    if (idx->empty()) continue;
    std::vector<std::string> n;
    std::vector<Tensor> p, g;
    for (size_t i : *idx) {
      n.push_back(names[i]);
      p.push_back(params[i]);
      g.push_back(grads[i]);
    }
    const Moments m = moments(n, p);
    fused_adamw_(p, g, m.m1, m.m2, m.m2_max, lr, step_tensor(), static_cast<float>(options_.beta1),
                 static_cast<float>(options_.beta2), static_cast<float>(options_.epsilon),
                 idx == &decay ? static_cast<float>(weight_decay) : 0.0f, options_.amsgrad);
  }
}

}  // namespace skiff::optimizer
