// Control flow for both modes (paddle.static.nn.cond / while_loop / switch_case).
//
//   std::vector<Tensor> r = jit::cond(less_than(x, y),
//                                     [&] { return std::vector<Tensor>{add(x, y)}; },
//                                     [&] { return std::vector<Tensor>{subtract(x, y)}; });
//
// Eager: the predicate is read and one branch runs (autograd records it as usual). While a
// function is captured: cf.if / cf.while ops whose regions hold the branches and the loop body,
// captured through the same op API with the builder's insertion point moved into the region.
// Outer tensors a region reads are its free variables (CaptureScope::push_region).
//
// Autodiff through cf.if: the outputs get a grad node whose backward is again a cond on the same
// predicate; each backward branch replays its forward branch from its recording (never the
// user's function again: region_replay.h) and takes the eager VJP (autograd::grad with
// stop_at_inputs) with respect to the free variables. Because the backward is a cond itself,
// second and higher orders come from the same rule.
// Autodiff through cf.while: see the note in control_flow.cc (the history of the loop state).
// Branches and bodies run only while cond / while_loop runs: they may capture locals by reference.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "skiff/core/tensor.h"

namespace skiff::jit {

using Branch = std::function<std::vector<Tensor>()>;
using LoopCond = std::function<Tensor(const std::vector<Tensor>&)>;
using LoopBody = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

/// Runs `then_fn` if the bool scalar `pred` is true, else `else_fn`. Both branches must return
/// the same number of tensors with the same dtypes and ranks; dims that differ become dynamic.
std::vector<Tensor> cond(const Tensor& pred, const Branch& then_fn, const Branch& else_fn);

/// Paddle's while_loop: while cond(vars) (a bool scalar) is true, vars = body(vars). The body
/// must keep the number and dtypes of the loop vars; dims that change become dynamic.
std::vector<Tensor> while_loop(const LoopCond& cond, const LoopBody& body,
                               std::vector<Tensor> loop_vars);

/// Paddle's switch_case: runs the branch whose index equals the integer scalar `branch_index`,
/// else `default_fn` (when empty: the branch with the largest index), as nested conds.
std::vector<Tensor> switch_case(const Tensor& branch_index,
                                const std::vector<std::pair<int64_t, Branch>>& branches,
                                const Branch& default_fn = nullptr);

namespace detail {
/// One loop iteration: the condition on the next loop vars, and those vars.
using LoopStep = std::function<std::pair<Tensor, std::vector<Tensor>>(const std::vector<Tensor>&)>;
/// A while_loop being captured, from its first condition and a step (while_loop and the replay
/// of recorded regions build on it). With `history`, the loop carries its trip counter and the
/// history of its vars (as a differentiable loop does) and `history` receives them.
std::vector<Tensor> captured_while(const Tensor& first_cond, const LoopStep& step,
                                   const std::vector<Tensor>& vars,
                                   std::vector<Tensor>* history = nullptr);
}  // namespace detail

}  // namespace skiff::jit
