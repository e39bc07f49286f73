#include "skiff/nn/layer.h"

#include <algorithm>

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/tensor_util.h"

namespace skiff::nn {

namespace {

std::string join_name(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

}  // namespace

Tensor Layer::forward(const Tensor&) {
  SKIFF_THROW(kUnimplemented, "Layer::forward", "x", "a layer with a single-input forward",
              "a layer that does not define one");
}

Tensor Layer::create_parameter(const std::vector<int64_t>& shape, const Initializer* init,
                               std::optional<DType> dtype, bool is_bias) const {
  static const XavierUniform kWeightInit;
  static const Constant kBiasInit(0.0);
  const Initializer& i = init      ? *init
                         : is_bias ? static_cast<const Initializer&>(kBiasInit)
                                   : static_cast<const Initializer&>(kWeightInit);
  autograd::NoGradGuard no_grad;
  Tensor p = i.generate(shape, dtype.value_or(dtype_));
  autograd::set_stop_gradient(p, false);
  return p;
}

void Layer::check_new_name(const std::string& name) const {
  SKIFF_ENFORCE(!name.empty() && name.find('.') == std::string::npos, kInvalidArgument, "Layer",
                "name", "a non-empty name without '.'", str("'", name, "'"));
  auto taken = [&](const auto& v) {
    return std::any_of(v.begin(), v.end(), [&](const auto& p) { return p.first == name; });
  };
  SKIFF_ENFORCE(!taken(params_) && !taken(buffers_) && !taken(sublayers_), kInvalidArgument,
                "Layer", "name", "a name not yet used in this layer",
                str("'", name, "', already registered"));
}

Tensor Layer::add_parameter(const std::string& name, Tensor param) {
  check_new_name(name);
  SKIFF_ENFORCE(param.defined(), kInvalidArgument, "Layer::add_parameter", name, "a defined tensor",
                "an undefined tensor");
  autograd::set_stop_gradient(param, false);
  params_.emplace_back(name, param);
  return param;
}

Tensor Layer::register_buffer(const std::string& name, Tensor buffer, bool persistable) {
  check_new_name(name);
  buffers_.emplace_back(name, buffer);
  if (!persistable) non_persistable_.push_back(name);
  return buffer;
}

void Layer::add_sublayer_impl(const std::string& name, std::shared_ptr<Layer> layer) {
  check_new_name(name);
  SKIFF_ENFORCE(layer != nullptr, kInvalidArgument, "Layer::add_sublayer", name, "a layer",
                "a null pointer");
  sublayers_.emplace_back(name, std::move(layer));
}

template <typename F>
void Layer::walk(const F& f) const {
  // Iterative depth first (deep models must not recurse on the stack).
  std::vector<std::pair<std::string, const Layer*>> stack{{"", this}};
  while (!stack.empty()) {
    auto [prefix, layer] = stack.back();
    stack.pop_back();
    f(prefix, *layer);
    for (auto it = layer->sublayers_.rbegin(); it != layer->sublayers_.rend(); ++it) {
      stack.emplace_back(join_name(prefix, it->first), it->second.get());
    }
  }
}

std::vector<std::pair<std::string, std::shared_ptr<Layer>>> Layer::named_sublayers() const {
  std::vector<std::pair<std::string, std::shared_ptr<Layer>>> out;
  std::vector<std::pair<std::string, std::shared_ptr<Layer>>> stack(sublayers_.rbegin(),
                                                                    sublayers_.rend());
  while (!stack.empty()) {
    auto item = std::move(stack.back());
    stack.pop_back();
    const auto& subs = item.second->sublayers_;
    for (auto it = subs.rbegin(); it != subs.rend(); ++it) {
      stack.emplace_back(join_name(item.first, it->first), it->second);
    }
    out.push_back(std::move(item));
  }
  return out;
}

std::vector<std::shared_ptr<Layer>> Layer::sublayers() const {
  std::vector<std::shared_ptr<Layer>> out;
  for (auto& [n, l] : named_sublayers()) out.push_back(l);
  return out;
}

std::vector<std::pair<std::string, Tensor>> Layer::named_parameters(bool include_sublayers) const {
  std::vector<std::pair<std::string, Tensor>> out;
  walk([&](const std::string& prefix, const Layer& layer) {
    if (!include_sublayers && &layer != this) return;
    for (const auto& [name, t] : layer.params_) out.emplace_back(join_name(prefix, name), t);
  });
  return out;
}

std::vector<Tensor> Layer::parameters(bool include_sublayers) const {
  std::vector<Tensor> out;
  for (auto& [n, t] : named_parameters(include_sublayers)) out.push_back(t);
  return out;
}

std::vector<std::pair<std::string, Tensor>> Layer::named_buffers(bool include_sublayers) const {
  std::vector<std::pair<std::string, Tensor>> out;
  walk([&](const std::string& prefix, const Layer& layer) {
    if (!include_sublayers && &layer != this) return;
    for (const auto& [name, t] : layer.buffers_) out.emplace_back(join_name(prefix, name), t);
  });
  return out;
}

std::vector<Tensor> Layer::buffers(bool include_sublayers) const {
  std::vector<Tensor> out;
  for (auto& [n, t] : named_buffers(include_sublayers)) out.push_back(t);
  return out;
}

StateDict Layer::state_dict() const {
  StateDict out;
  walk([&](const std::string& prefix, const Layer& layer) {
    for (const auto& [name, t] : layer.params_) out.set(join_name(prefix, name), t);
    for (const auto& [name, t] : layer.buffers_) {
      const auto& np = layer.non_persistable_;
      if (std::find(np.begin(), np.end(), name) == np.end() && t.defined()) {
        out.set(join_name(prefix, name), t);
      }
    }
  });
  return out;
}

Layer::LoadResult Layer::set_state_dict(const StateDict& state, bool strict) {
  LoadResult r;
  const StateDict mine = state_dict();
  for (const auto& [name, t] : mine) {
    if (!state.contains(name)) r.missing_keys.push_back(name);
  }
  for (const auto& [name, t] : state) {
    if (!mine.contains(name)) r.unexpected_keys.push_back(name);
  }
  if (strict) {
    SKIFF_ENFORCE(r.missing_keys.empty() && r.unexpected_keys.empty(), kInvalidArgument,
                  "set_state_dict", "state", "exactly the keys of the layer's state dict",
                  str("missing keys [", join(r.missing_keys, ", "), "], unexpected keys [",
                      join(r.unexpected_keys, ", "), "]"));
  }
  for (const auto& [name, dst] : mine) {
    const Tensor* src = state.find(name);
    if (src == nullptr) continue;
    SKIFF_ENFORCE(src->dims() == dst.dims(), kInvalidArgument, "set_state_dict", name,
                  str("a tensor of dims ", dst.dims()), src->dims());
    copy_into(dst, src->place() == dst.place() ? *src : Tensor(src->dense().copy_to(dst.place())));
  }
  return r;
}

void Layer::train() {
  walk([](const std::string&, const Layer& l) { const_cast<Layer&>(l).training_ = true; });
}

void Layer::eval() {
  walk([](const std::string&, const Layer& l) { const_cast<Layer&>(l).training_ = false; });
}

void Layer::to(DType dtype) {
  SKIFF_ENFORCE(is_floating(dtype), kTypeError, "Layer::to", "dtype", "a floating dtype", dtype);
  autograd::NoGradGuard no_grad;
  walk([&](const std::string&, const Layer& cl) {
    Layer& l = const_cast<Layer&>(cl);
    l.dtype_ = dtype;
    auto convert = [&](const Tensor& t) {
      if (!t.defined() || !is_floating(t.dtype()) || t.dtype() == dtype) return;
      // Replace the body inside the same TensorImpl: every handle sees the new dtype, and the
      // autograd state (stop_gradient) stays.
      Tensor handle = t;
      handle.mutable_dense() = cast(t, dtype).dense();
      set_grad(t, Tensor());
    };
    for (auto& [n, t] : l.params_) convert(t);
    for (auto& [n, t] : l.buffers_) convert(t);
  });
}

void Layer::clear_gradients(bool set_to_zero) {
  autograd::NoGradGuard no_grad;
  for (const Tensor& p : parameters()) {
    const Tensor g = grad_of(p);
    if (!g.defined()) continue;
    set_grad(p, set_to_zero ? zeros_like(g) : Tensor());
  }
}

}  // namespace skiff::nn
