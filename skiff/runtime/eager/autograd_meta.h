// Per-tensor autograd state (Paddle semantics): stop_gradient (true for data, false for
// parameters), the accumulated gradient of a leaf, and for a computed tensor the grad node
// that produced it and which of that node's outputs it is.
#pragma once

#include <memory>

#include "skiff/core/tensor.h"

namespace skiff::autograd {

class GradNode;

/// Where a gradient flows: input `input_nr` of `node` (an op's forward output index).
struct Edge {
  std::shared_ptr<GradNode> node;
  uint32_t input_nr = 0;
  bool valid() const { return node != nullptr; }
};

class AutogradMeta final : public AutogradMetaBase {
 public:
  bool stop_gradient = true;
  /// Keep the gradient of a non-leaf tensor in `grad` (Tensor.retain_grads()).
  bool retain_grads = false;
  /// The accumulated gradient (leaves; non-leaves with retain_grads).
  Tensor grad;
  /// clear_gradient(set_to_zero=True) zeroed `grad`: which tensor, at which storage version.
  /// While both still match, the next accumulation takes the incoming gradient as it is instead
  /// of adding it to zeros (a pass over every parameter saved per step).
  std::weak_ptr<TensorImpl> zeroed_grad;
  uint32_t zeroed_grad_version = 0;
  /// The op that produced this tensor; null for leaves.
  std::shared_ptr<GradNode> grad_node;
  uint32_t output_nr = 0;
  /// A leaf's gradient accumulator, created when first needed.
  std::weak_ptr<GradNode> accumulator;
  /// Set by register_hook on a leaf: keeps the accumulator holding the hooks alive.
  std::shared_ptr<GradNode> hooked_accumulator;
  /// A recorded view op's output sharing its base's storage, and the storage version then
  /// (in-place writes through it are refused; see inplace.h).
  bool is_view = false;
  uint32_t view_version = 0;
};

/// The tensor's autograd state, or null if it never had any.
AutogradMeta* autograd_meta(const Tensor& t);
/// The tensor's autograd state, created (stop_gradient = true) if missing.
AutogradMeta& ensure_autograd_meta(const Tensor& t);

/// True when gradients flow into `t` (stop_gradient is false).
bool requires_grad(const Tensor& t);
void set_stop_gradient(const Tensor& t, bool stop_gradient);
bool is_leaf(const Tensor& t);
/// The edge a gradient for `t` enters the graph by: its producer, or a leaf's accumulator.
/// Invalid when `t` does not require grad.
Edge gradient_edge(const Tensor& t);
/// A new tensor sharing `t`'s data with no autograd history (Tensor.detach()).
Tensor detach(const Tensor& t);

}  // namespace skiff::autograd
