// The backward engine: runs the recorded graph from the given outputs in dependency order with
// a ready queue (no recursion, so graphs of any depth work), sums gradients per node input,
// runs hooks, and either accumulates into leaves (backward) or returns the gradients of chosen
// inputs (grad).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "skiff/core/tensor.h"

namespace skiff::autograd {

/// Tensor.backward() / paddle.autograd.backward: accumulates d(outputs)/d(leaf) into every leaf
/// that requires grad. `grad_outputs` may be empty or hold undefined tensors: ones are used.
void backward(const std::vector<Tensor>& outputs, const std::vector<Tensor>& grad_outputs = {},
              bool retain_graph = false);

/// Runs `fn` once the outermost backward() running on this thread has finished (every leaf
/// accumulated); called outside a backward it runs at once. DataParallel waits for its gradient
/// all-reduces here (torch's queue_callback).
void queue_callback(std::function<void()> fn);

/// True while backward() runs on this thread (queue_callback then defers).
bool in_backward();

struct GradOptions {
  /// Default: same as create_graph.
  std::optional<bool> retain_graph = std::nullopt;
  /// Record the backward computation, so the result can be differentiated again.
  bool create_graph = false;
  /// Return undefined tensors for inputs the outputs do not depend on (else an error).
  bool allow_unused = false;
  /// Treat the inputs as independent variables: a gradient does not flow through one input
  /// into another that produced it, so each result counts only the paths that reach its input
  /// without passing another input (partial derivatives; autodiff through cf.if uses it).
  bool stop_at_inputs = false;
  /// Tensors no gradient flows through (Paddle's no_grad_vars): treated as constants.
  std::vector<Tensor> no_grad_vars = {};
};

/// paddle.grad: the gradients of `outputs` with respect to `inputs`, without touching `.grad`.
std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& grad_outputs = {}, GradOptions options = {});

/// True while backward() or grad() runs gradient rules on this thread (AMP does not cast the
/// ops of rules: their dtypes follow the forward's, as in Paddle).
bool running_rules();

}  // namespace skiff::autograd
