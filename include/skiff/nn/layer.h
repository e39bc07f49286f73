// nn::Layer, the base of every model part (paddle.nn.Layer): named parameters, buffers and
// sublayers in registration order, state_dict / set_state_dict, train / eval, to(dtype).
//
// A layer keeps Tensor handles to its parameters (e.g. Linear::weight) and registers the same
// handles by name; both share one TensorImpl, so in-place changes (loading a state dict,
// to(dtype), optimizer steps) are seen through either.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/nn/initializer.h"
#include "skiff/state_dict.h"

namespace skiff::nn {

class Layer {
 public:
  Layer() = default;
  virtual ~Layer() = default;
  Layer(const Layer&) = delete;
  Layer& operator=(const Layer&) = delete;

  /// The single-input forward pass; layers with other signatures add their own `forward`.
  virtual Tensor forward(const Tensor& x);
  Tensor operator()(const Tensor& x) { return forward(x); }

  /// A new parameter (stop_gradient = false) of `shape`, filled by `init` (default: Xavier
  /// uniform for weights, zeros for biases, as Paddle's create_parameter), in the layer's
  /// dtype unless given. Not registered: pass it to add_parameter.
  Tensor create_parameter(const std::vector<int64_t>& shape, const Initializer* init = nullptr,
                          std::optional<DType> dtype = std::nullopt, bool is_bias = false) const;
  /// Registers `param` under `name` (it becomes trainable: stop_gradient = false).
  Tensor add_parameter(const std::string& name, Tensor param);
  /// Registers a buffer (e.g. running statistics); persistable ones are in the state dict.
  Tensor register_buffer(const std::string& name, Tensor buffer, bool persistable = true);
  template <typename L>
  std::shared_ptr<L> add_sublayer(const std::string& name, std::shared_ptr<L> layer) {
    add_sublayer_impl(name, layer);
    return layer;
  }

  /// Parameters of this layer and (recursively) its sublayers, named "sub.name".
  std::vector<std::pair<std::string, Tensor>> named_parameters(bool include_sublayers = true) const;
  std::vector<Tensor> parameters(bool include_sublayers = true) const;
  std::vector<std::pair<std::string, Tensor>> named_buffers(bool include_sublayers = true) const;
  std::vector<Tensor> buffers(bool include_sublayers = true) const;
  /// Sublayers (depth first, in registration order), named "a.b".
  std::vector<std::pair<std::string, std::shared_ptr<Layer>>> named_sublayers() const;
  std::vector<std::shared_ptr<Layer>> sublayers() const;
  /// The direct children.
  const std::vector<std::pair<std::string, std::shared_ptr<Layer>>>& children() const {
    return sublayers_;
  }

  /// Parameters and persistable buffers by structured name (the tensors themselves, not copies).
  StateDict state_dict() const;
  struct LoadResult {
    std::vector<std::string> missing_keys;
    std::vector<std::string> unexpected_keys;
  };
  /// Copies values into the registered tensors (shapes must match; dtypes are cast). With
  /// `strict`, missing or unexpected keys are an error listing them.
  LoadResult set_state_dict(const StateDict& state, bool strict = true);

  void train();
  void eval();
  bool training() const { return training_; }
  /// Casts every floating parameter and buffer to `dtype` in place (handles stay valid).
  void to(DType dtype);
  /// The dtype new parameters are created in (Paddle's default float32).
  DType dtype() const { return dtype_; }
  /// Drops (or, with set_to_zero, zeroes) the gradients of all parameters.
  void clear_gradients(bool set_to_zero = false);

 protected:
  bool training_ = true;
  DType dtype_ = DType::kFloat32;

 private:
  void add_sublayer_impl(const std::string& name, std::shared_ptr<Layer> layer);
  /// Calls f(prefix, layer) for this layer ("") and every sublayer, depth first.
  template <typename F>
  void walk(const F& f) const;
  void check_new_name(const std::string& name) const;

  std::vector<std::pair<std::string, Tensor>> params_;
  std::vector<std::pair<std::string, Tensor>> buffers_;
  std::vector<std::string> non_persistable_;
  std::vector<std::pair<std::string, std::shared_ptr<Layer>>> sublayers_;
};

}  // namespace skiff::nn
