// A node of the backward graph: one recorded op. It receives the gradients of the op's forward
// outputs and returns the gradients of its forward inputs, computed by the op's VJP rule with
// the public op API (so with create_graph the rule itself is recorded: higher-order gradients).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/runtime/eager/autograd_meta.h"

namespace skiff::autograd {

/// Returns a replacement gradient, or an undefined tensor to keep the gradient as it is.
using TensorHook = std::function<Tensor(const Tensor&)>;

class GradNode;

/// The gradient of output `i` of `node` that no gradient reached: zeros of the output's shape
/// (what the engine passes unless the node handles undefined gradients).
Tensor zero_grad(GradNode* node, size_t i);

class GradNode : public std::enable_shared_from_this<GradNode> {
 public:
  GradNode();
  virtual ~GradNode();
  GradNode(const GradNode&) = delete;
  GradNode& operator=(const GradNode&) = delete;

  virtual std::string name() const = 0;
  /// grads[i] is the gradient of forward output i (undefined: no gradient reached it; the
  /// engine materializes zeros unless the node says it handles undefined gradients). Returns
  /// one gradient per forward input (undefined where none is needed).
  virtual std::vector<Tensor> apply(std::vector<Tensor>& grads) = 0;
  /// Frees saved tensors after a backward pass without retain_graph.
  virtual void release_saved() {}
  virtual bool handles_undefined_grads() const { return false; }

  /// One edge per forward input; invalid for inputs that need no gradient.
  std::vector<Edge>& next_edges() { return next_edges_; }
  const std::vector<Edge>& next_edges() const { return next_edges_; }
  bool needs_input_grad(size_t i) const { return i < next_edges_.size() && next_edges_[i].valid(); }
  /// Metadata of the forward inputs (to check gradient shapes) and outputs (to make zeros).
  std::vector<TensorMeta>& input_metas() { return input_metas_; }
  std::vector<TensorMeta>& output_metas() { return output_metas_; }
  Place place() const { return place_; }
  void set_place(const Place& place) { place_ = place; }
  /// Creation order: later nodes run first when several are ready, which keeps a
  /// deterministic, depth-first-friendly order.
  uint64_t sequence_nr() const { return sequence_nr_; }

  /// Hooks run on the gradient of forward output `output_nr` before apply().
  void add_pre_hook(uint32_t output_nr, TensorHook hook);
  const std::map<uint32_t, std::vector<TensorHook>>& pre_hooks() const { return pre_hooks_; }

 private:
  std::vector<Edge> next_edges_;
  std::vector<TensorMeta> input_metas_;
  std::vector<TensorMeta> output_metas_;
  Place place_;
  uint64_t sequence_nr_;
  std::map<uint32_t, std::vector<TensorHook>> pre_hooks_;
};

/// Accumulates the gradient of a leaf tensor into its `grad`. It holds the leaf weakly: a leaf
/// with hooks holds its accumulator (AutogradMeta::hooked_accumulator), so the hooks outlive
/// the graphs that use the leaf, without a reference cycle.
class AccumulateGrad final : public GradNode {
 public:
  explicit AccumulateGrad(std::shared_ptr<TensorImpl> leaf);
  std::string name() const override { return "accumulate_grad"; }
  std::vector<Tensor> apply(std::vector<Tensor>& grads) override;
  std::shared_ptr<TensorImpl> leaf() const { return leaf_.lock(); }

 private:
  std::weak_ptr<TensorImpl> leaf_;
};

/// Links a new grad node into the graph: one edge per input (in the order given, optional and
/// non-differentiable inputs passed as null), and marks the outputs as produced by it.
void set_history(const std::shared_ptr<GradNode>& node, const std::vector<const Tensor*>& inputs,
                 const std::vector<Tensor*>& outputs);

/// True if grad mode is on and any of the inputs requires grad.
bool should_record(std::initializer_list<const Tensor*> inputs);
bool should_record(const std::vector<Tensor>& inputs);

/// Tensor.register_hook: `hook` sees (and may replace) the gradient of `t` during backward.
void register_hook(const Tensor& t, TensorHook hook);
/// Tensor.retain_grads: keep the gradient of a non-leaf tensor in its `grad`.
void retain_grads(const Tensor& t);

/// Throws Unimplemented: `op` is differentiable but has no VJP rule yet.
[[noreturn]] void throw_no_vjp_rule(const char* op);

}  // namespace skiff::autograd
