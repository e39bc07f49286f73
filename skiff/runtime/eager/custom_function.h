// Custom autograd functions: the C++ form of Paddle's PyLayer (PyTorch's autograd.Function).
//
//   struct Cube : autograd::Function<Cube> {
//     static Tensor forward(autograd::FunctionContext& ctx, const Tensor& x) {
//       ctx.save_for_backward({x});
//       return multiply(multiply(x, x), x);
//     }
//     static std::vector<Tensor> backward(autograd::FunctionContext& ctx,
//                                         const std::vector<Tensor>& grads) {
//       const Tensor x = ctx.saved_tensors()[0];
//       return {multiply(grads[0], scale(multiply(x, x), 3.0))};
//     }
//   };
//   Tensor y = Cube::apply(x);
//
// forward runs under no_grad; its tensor arguments (Tensor, std::vector<Tensor>,
// std::optional<Tensor>) are the function's inputs, in order, flattened. backward receives one
// gradient per output (zeros where none arrived) and returns one per input (undefined: none).
// backward calls the op API, so with create_graph it is recorded: double backward works when
// the saved tensors carry their history (inputs do; saved outputs are re-attached).
//
// The type-erased core, which the Python binding reuses for paddle.autograd.PyLayer, is
// CustomFunctionNode (a GradNode around a std::function) plus apply_custom_function (links it
// to inputs and outputs).
#pragma once

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/grad_node.h"
#include "skiff/runtime/eager/saved_tensor.h"

namespace skiff::autograd {

using CustomBackward = std::function<std::vector<Tensor>(const std::vector<Tensor>& grad_outputs)>;

/// The grad node of a custom function. apply() checks what `backward` returns: one gradient
/// per forward input, each with that input's shape (dtype is cast to the input's).
class CustomFunctionNode final : public GradNode {
 public:
  /// With `handles_undefined`, backward receives undefined tensors for outputs no gradient
  /// reached (instead of zeros: the zeros of a dynamic shape cannot be made while capturing).
  CustomFunctionNode(std::string name, CustomBackward backward, bool handles_undefined = false);
  std::string name() const override { return name_; }
  bool handles_undefined_grads() const override { return handles_undefined_; }
  std::vector<Tensor> apply(std::vector<Tensor>& grads) override;
  void release_saved() override;

  /// Tensors for backward, checked against in-place changes when unpacked. `outputs` are the
  /// function's outputs after apply_custom_function (saved outputs keep only their data and are
  /// re-attached to this node when unpacked, avoiding a reference cycle).
  void save(const std::vector<Tensor>& tensors, const std::vector<Tensor>& outputs);
  /// The saved tensors; a clear error after a backward without retain_graph freed them.
  std::vector<Tensor> saved_tensors();

 private:
  std::string name_;
  CustomBackward backward_;
  std::vector<SavedTensor> saved_;
  bool released_ = false;
  bool handles_undefined_ = false;
};

/// Links `node` into the graph when grad mode is on and an input requires grad (else returns
/// false and changes nothing): an edge per input (none for undefined inputs or those that do
/// not require grad), and the node as history of each floating-point output except those
/// flagged in `non_differentiable`. An output that is one of the inputs (same tensor) is first
/// replaced by a new handle on the same data, so the input keeps its own history.
bool apply_custom_function(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                           const std::shared_ptr<CustomFunctionNode>& node,
                           const std::vector<bool>& non_differentiable = {});

/// What forward and backward of a Function<...> share.
class FunctionContext {
 public:
  /// During forward: tensors backward needs (inputs or outputs).
  void save_for_backward(std::vector<Tensor> tensors) { to_save_ = std::move(tensors); }
  /// During backward: the saved tensors, checked for in-place changes since forward.
  std::vector<Tensor> saved_tensors() const;
  /// During forward: outputs that get no gradient (indices, masks).
  void mark_non_differentiable(const std::vector<Tensor>& outputs);
  /// Whether the i-th (flattened) tensor input requires a gradient.
  bool needs_input_grad(size_t i) const {
    return i < needs_input_grad_.size() && needs_input_grad_[i];
  }
  /// Free-form values forward leaves for backward (shapes, attributes).
  std::map<std::string, std::any> data;

 private:
  template <class Derived>
  friend struct Function;
  std::vector<Tensor> to_save_;
  std::vector<const TensorImpl*> non_differentiable_;
  std::vector<bool> needs_input_grad_;
  std::weak_ptr<CustomFunctionNode> node_;
};

namespace detail {
inline void collect(std::vector<Tensor>& out, const Tensor& t) { out.push_back(t); }
inline void collect(std::vector<Tensor>& out, const std::vector<Tensor>& ts) {
  out.insert(out.end(), ts.begin(), ts.end());
}
inline void collect(std::vector<Tensor>& out, const std::optional<Tensor>& t) {
  out.push_back(t ? *t : Tensor());
}
template <class T>
void collect(std::vector<Tensor>&, const T&) {}  // attributes

inline std::vector<Tensor> as_list(const Tensor& t) { return {t}; }
inline std::vector<Tensor> as_list(const std::vector<Tensor>& ts) { return ts; }
inline Tensor from_list(std::vector<Tensor>& ts, const Tensor*) { return ts[0]; }
inline std::vector<Tensor> from_list(std::vector<Tensor>& ts, const std::vector<Tensor>*) {
  return ts;
}

void prepare_context(FunctionContext& ctx, const std::vector<Tensor>& inputs,
                     std::vector<bool>& needs_input_grad);
}  // namespace detail

/// CRTP base of a custom function: Derived defines static forward(FunctionContext&, ...)
/// returning Tensor or std::vector<Tensor>, and static backward(FunctionContext&,
/// const std::vector<Tensor>&) returning std::vector<Tensor>. Optionally `static std::string
/// name()` names the grad node (default: the C++ type name).
template <class Derived>
struct Function {
  template <class... Args>
  static auto apply(Args&&... args) {
    std::vector<Tensor> inputs;
    (detail::collect(inputs, args), ...);
    auto ctx = std::make_shared<FunctionContext>();
    detail::prepare_context(*ctx, inputs, ctx->needs_input_grad_);
    auto result = [&] {
      NoGradGuard no_grad;
      return Derived::forward(*ctx, std::forward<Args>(args)...);
    }();
    using Result = decltype(result);
    static_assert(std::is_same_v<Result, Tensor> || std::is_same_v<Result, std::vector<Tensor>>,
                  "forward must return Tensor or std::vector<Tensor>");
    std::vector<Tensor> outputs = detail::as_list(result);
    std::vector<bool> non_diff(outputs.size(), false);
    for (size_t i = 0; i < outputs.size(); ++i) {
      for (const TensorImpl* p : ctx->non_differentiable_)
        non_diff[i] = non_diff[i] || p == outputs[i].impl();
    }
    auto node = std::make_shared<CustomFunctionNode>(
        node_name(),
        [ctx](const std::vector<Tensor>& grads) { return Derived::backward(*ctx, grads); });
    if (apply_custom_function(inputs, outputs, node, non_diff)) {
      node->save(ctx->to_save_, outputs);
      ctx->node_ = node;
    }
    ctx->to_save_.clear();
    return detail::from_list(outputs, static_cast<const Result*>(nullptr));
  }

 private:
  static std::string node_name() {
    if constexpr (requires { Derived::name(); }) {
      return Derived::name();
    } else {
      return typeid(Derived).name();
    }
  }
};

}  // namespace skiff::autograd
