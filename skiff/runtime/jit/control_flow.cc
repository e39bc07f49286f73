#include "skiff/runtime/jit/control_flow.h"

#include <string>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/dialects/cf.h"
#include "skiff/ops/generated/api.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/custom_function.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/jit/capture.h"
#include "skiff/runtime/jit/symbolic_tensor.h"

namespace skiff::jit {

namespace br = ops::ir_bridge;

namespace {

void check_pred(const char* op, const char* arg, const Tensor& pred) {
  const char* want = "a bool tensor with one element (shape [] or [1])";
  SKIFF_ENFORCE(pred.defined(), kInvalidArgument, op, arg, want, "an undefined tensor");
  SKIFF_ENFORCE(pred.dtype() == DType::kBool, kTypeError, op, arg, want,
                str("a ", dtype_name(pred.dtype()), " tensor"));
  bool one = true;
  for (int i = 0; i < pred.rank(); ++i) one = one && pred.dims()[i] == 1;
  SKIFF_ENFORCE(one, kInvalidArgument, op, arg, want, str("shape ", pred.dims()));
}

// `got` must match `want` in count, dtype and rank (shapes may differ: dynamic dims).
void check_same_kinds(const char* op, const char* arg, const std::vector<Tensor>& want,
                      const std::vector<Tensor>& got, const char* what) {
  SKIFF_ENFORCE(want.size() == got.size(), kInvalidArgument, op, arg,
                str(want.size(), " tensors (as ", what, ")"), str(got.size(), " tensors"));
  for (size_t i = 0; i < got.size(); ++i) {
    SKIFF_ENFORCE(got[i].defined(), kInvalidArgument, op, str(arg, " output ", i),
                  "an initialized tensor", "an undefined tensor");
    SKIFF_ENFORCE(want[i].dtype() == got[i].dtype(), kTypeError, op, str(arg, " output ", i),
                  str(dtype_name(want[i].dtype()), " (as ", what, ")"), dtype_name(got[i].dtype()));
    SKIFF_ENFORCE(want[i].rank() == got[i].rank(), kInvalidArgument, op, str(arg, " output ", i),
                  str("a shape of rank ", want[i].rank(), " (as ", what, ": ", want[i].dims(), ")"),
                  str("shape ", got[i].dims()));
  }
}

// The type both `a` and `b` flow into: dims that differ become dynamic.
ir::Type widen(ir::IrContext* ctx, ir::Type a, ir::Type b) {
  if (ir::flows_into(b, a)) return a;
  auto ta = a.cast<ir::TensorType>(), tb = b.cast<ir::TensorType>();
  std::vector<int64_t> shape(ta.shape().begin(), ta.shape().end());
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != tb.shape()[i]) shape[i] = ir::kDynamic;
  }
  return ir::TensorType::get(ctx, ta.dtype(), shape);
}

void add_unique(std::vector<Tensor>& all, const std::vector<Tensor>& more) {
  for (const Tensor& t : more) {
    bool seen = false;
    for (const Tensor& a : all) seen = seen || a.impl() == t.impl();
    if (!seen) all.push_back(t);
  }
}

// Runs `fn` with the capture's insertion point inside `block`; on an error the region is closed
// and `op` (the op being built) erased before the error goes on.
template <class Fn>
std::vector<Tensor> in_region(CaptureScope& scope, ir::Block* block, ir::Operation* op, Fn&& fn) {
  scope.push_region(block);
  try {
    fn();
  } catch (...) {
    scope.pop_region();
    op->erase();
    throw;
  }
  return scope.pop_region();
}

// Note [Autodiff through cf.if]
// The backward of a captured cond is a cond on the same predicate. Each backward branch runs
// its forward branch again (inside the backward region, with grad mode on) and applies the
// eager VJP rules with respect to the free variables, treated as independent inputs
// (stop_at_inputs: a free variable computed from another one does not pass its gradient on
// inside the branch; the outer graph does that). Since the backward is built by cond() itself,
// it records the same kind of node when differentiated again: higher orders need no more code.
std::vector<Tensor> branch_vjp(const Branch& fn, const std::vector<Tensor>& xs,
                               const std::vector<Tensor>& grads) {
  autograd::GradModeGuard recording(true);
  std::vector<Tensor> outs = fn();
  std::vector<Tensor> ys, gys;
  for (size_t k = 0; k < outs.size() && k < grads.size(); ++k) {
    if (!outs[k].defined() || !grads[k].defined() || !autograd::requires_grad(outs[k])) continue;
    Tensor g = grads[k];
    // The cond's output may have dynamic dims where this branch's is static.
    if (g.dims() != outs[k].dims()) g = reshape(g, outs[k].shape());
    ys.push_back(outs[k]);
    gys.push_back(g);
  }
  std::vector<Tensor> gx(xs.size());
  if (!ys.empty()) {
    autograd::GradOptions options;
    options.create_graph = true;
    options.retain_graph = true;
    options.allow_unused = true;
    options.stop_at_inputs = true;
    gx = autograd::grad(ys, xs, gys, options);
  }
  for (size_t j = 0; j < xs.size(); ++j) {
    if (!gx[j].defined()) gx[j] = zeros_like(xs[j]);
  }
  return gx;
}

void record_cond_grad(const Tensor& pred, const Branch& then_fn, const Branch& else_fn,
                      const std::vector<Tensor>& free, std::vector<Tensor>& outputs) {
  auto backward = [pred, then_fn, else_fn, free](const std::vector<Tensor>& grads) {
    std::vector<size_t> want;
    std::vector<Tensor> xs;
    for (size_t i = 0; i < free.size(); ++i) {
      if (!autograd::requires_grad(free[i]) || !is_floating(free[i].dtype())) continue;
      want.push_back(i);
      xs.push_back(free[i]);
    }
    std::vector<Tensor> result(free.size());
    if (xs.empty()) return result;
    auto vjp = [&](const Branch& fn) -> Branch {
      return [fn, xs, grads] { return branch_vjp(fn, xs, grads); };
    };
    std::vector<Tensor> g = cond(pred, vjp(then_fn), vjp(else_fn));
    for (size_t j = 0; j < want.size(); ++j) result[want[j]] = g[j];
    return result;
  };
  auto node = std::make_shared<autograd::CustomFunctionNode>("cond", std::move(backward));
  std::vector<bool> non_differentiable;
  for (const Tensor& t : outputs) non_differentiable.push_back(!is_floating(t.dtype()));
  autograd::apply_custom_function(free, outputs, node, non_differentiable);
}

bool any_requires_grad(const std::vector<Tensor>& ts) {
  for (const Tensor& t : ts) {
    if (t.defined() && autograd::requires_grad(t)) return true;
  }
  return false;
}

std::vector<Tensor> captured_cond(const Tensor& pred, const Branch& then_fn,
                                  const Branch& else_fn) {
  CaptureScope& scope = *CaptureScope::current();
  ir::Builder& b = scope.builder();
  ir::Value p = scope.value_of(pred);
  // The result types are known only after both branches: capture into a scratch op, then move
  // its regions into the real one.
  ir::Operation* scratch = ir::IfOp::build(b, p, {}).operation();
  std::vector<Tensor> outs[2];
  std::vector<Tensor> free;
  for (int r = 0; r < 2; ++r) {
    add_unique(free, in_region(scope, scratch->region(r).front(), scratch, [&] {
                 outs[r] = r == 0 ? then_fn() : else_fn();
                 std::vector<ir::Value> vals;
                 for (size_t i = 0; i < outs[r].size(); ++i) {
                   SKIFF_ENFORCE(outs[r][i].defined(), kInvalidArgument, "cond",
                                 str(r == 0 ? "true_fn" : "false_fn", " output ", i),
                                 "an initialized tensor", "an undefined tensor");
                   vals.push_back(scope.value_of(outs[r][i]));
                 }
                 ir::YieldOp::build(b, vals);
               }));
  }
  std::vector<ir::Type> types;
  try {
    check_same_kinds("cond", "false_fn", outs[0], outs[1], "true_fn");
    ir::Block* then_block = scratch->region(0).front();
    ir::Block* else_block = scratch->region(1).front();
    for (uint32_t i = 0; i < outs[0].size(); ++i) {
      types.push_back(widen(scope.context(), then_block->back()->operand(i).type(),
                            else_block->back()->operand(i).type()));
    }
  } catch (...) {
    scratch->erase();
    throw;
  }
  ir::Operation* op = b.create(ir::IfOp::kName, {&p, 1}, types, {}, 2);
  op->region(0).take_body(scratch->region(0));
  op->region(1).take_body(scratch->region(1));
  scratch->erase();
  std::vector<Tensor> result;
  for (ir::Value v : op->results()) result.push_back(scope.wrap(v));
  if (autograd::grad_enabled() && any_requires_grad(free)) {
    record_cond_grad(pred, then_fn, else_fn, free, result);
  }
  return result;
}

// Note [Autodiff through cf.while]
// Not implemented yet: a captured while_loop whose loop vars or free variables require grad
// gets a grad node that refuses backward with a clear error (eager loops differentiate as
// usual). The planned design carries the history of each differentiable loop var as an extra
// loop output and walks it in reverse in a backward cf.while.
void record_while_grad(std::vector<Tensor>& outputs, const std::vector<Tensor>& vars,
                       const std::vector<Tensor>& free) {
  std::vector<Tensor> inputs = vars;
  add_unique(inputs, free);
  auto node = std::make_shared<autograd::CustomFunctionNode>(
      "while_loop", [](const std::vector<Tensor>&) -> std::vector<Tensor> {
        SKIFF_THROW(kUnimplemented, "while_loop", "gradients",
                    "gradients through a while_loop in eager mode (a captured cf.while is not "
                    "differentiable yet)",
                    "a backward through a captured while_loop");
      });
  std::vector<bool> non_differentiable;
  for (const Tensor& t : outputs) non_differentiable.push_back(!is_floating(t.dtype()));
  autograd::apply_custom_function(inputs, outputs, node, non_differentiable);
}

// Captures `body` into a cf.while. The block arguments start with the loop vars' types; when
// the body yields other shapes, those dims become dynamic and the body is captured again.
std::vector<Tensor> captured_while(const LoopCond& cond_fn, const LoopBody& body_fn,
                                   const std::vector<Tensor>& vars) {
  CaptureScope& scope = *CaptureScope::current();
  ir::Builder& b = scope.builder();
  Tensor c0 = cond_fn(vars);
  check_pred("while_loop", "cond", c0);
  std::vector<ir::Value> operands{scope.value_of(c0)};
  std::vector<ir::Type> types;
  for (const Tensor& v : vars) {
    operands.push_back(scope.value_of(v));
    types.push_back(operands.back().type());
  }
  while (true) {
    ir::Operation* op = b.create(ir::WhileOp::kName, operands, types, {}, 1);
    ir::Block* body = op->region(0).add_block();
    for (ir::Type t : types) body->add_arg(t);
    std::vector<ir::Type> yielded;
    std::vector<Tensor> free = in_region(scope, body, op, [&] {
      std::vector<Tensor> args;
      for (ir::Value a : body->args()) args.push_back(scope.wrap(a));
      std::vector<Tensor> next = body_fn(args);
      check_same_kinds("while_loop", "body", vars, next, "loop_vars");
      Tensor c = cond_fn(next);
      check_pred("while_loop", "cond", c);
      std::vector<ir::Value> vals{scope.value_of(c)};
      for (const Tensor& t : next) {
        vals.push_back(scope.value_of(t));
        yielded.push_back(vals.back().type());
      }
      ir::YieldOp::build(b, vals);
    });
    bool widened = false;
    for (size_t i = 0; i < types.size(); ++i) {
      if (ir::flows_into(yielded[i], types[i])) continue;
      types[i] = widen(scope.context(), types[i], yielded[i]);
      widened = true;
    }
    if (widened) {
      op->erase();
      continue;
    }
    std::vector<Tensor> result;
    for (ir::Value v : op->results()) result.push_back(scope.wrap(v));
    if (autograd::grad_enabled() && (any_requires_grad(vars) || any_requires_grad(free))) {
      record_while_grad(result, vars, free);
    }
    return result;
  }
}

}  // namespace

std::vector<Tensor> cond(const Tensor& pred, const Branch& then_fn, const Branch& else_fn) {
  check_pred("cond", "pred", pred);
  SKIFF_ENFORCE(then_fn && else_fn, kInvalidArgument, "cond", then_fn ? "false_fn" : "true_fn",
                "a function", "none");
  if (capturing()) return captured_cond(pred, then_fn, else_fn);
  return pred.item<bool>() ? then_fn() : else_fn();
}

std::vector<Tensor> while_loop(const LoopCond& cond_fn, const LoopBody& body_fn,
                               std::vector<Tensor> loop_vars) {
  SKIFF_ENFORCE(cond_fn && body_fn, kInvalidArgument, "while_loop", cond_fn ? "body" : "cond",
                "a function", "none");
  SKIFF_ENFORCE(!loop_vars.empty(), kInvalidArgument, "while_loop", "loop_vars",
                "at least one tensor", "an empty list");
  for (size_t i = 0; i < loop_vars.size(); ++i) {
    SKIFF_ENFORCE(loop_vars[i].defined(), kInvalidArgument, "while_loop", str("loop_vars[", i, "]"),
                  "an initialized tensor", "an undefined tensor");
  }
  if (capturing()) return captured_while(cond_fn, body_fn, loop_vars);
  Tensor c = cond_fn(loop_vars);
  check_pred("while_loop", "cond", c);
  while (c.item<bool>()) {
    std::vector<Tensor> next = body_fn(loop_vars);
    check_same_kinds("while_loop", "body", loop_vars, next, "loop_vars");
    loop_vars = std::move(next);
    c = cond_fn(loop_vars);
    check_pred("while_loop", "cond", c);
  }
  return loop_vars;
}

std::vector<Tensor> switch_case(const Tensor& branch_index,
                                const std::vector<std::pair<int64_t, Branch>>& branches,
                                const Branch& default_fn) {
  const char* want = "an integer tensor with one element";
  SKIFF_ENFORCE(branch_index.defined(), kInvalidArgument, "switch_case", "branch_index", want,
                "an undefined tensor");
  const DType d = branch_index.dtype();
  SKIFF_ENFORCE(d == DType::kInt32 || d == DType::kInt64 || d == DType::kInt16 ||
                    d == DType::kInt8 || d == DType::kUInt8,
                kTypeError, "switch_case", "branch_index", want,
                str("a ", dtype_name(d), " tensor"));
  bool one = true;
  for (int i = 0; i < branch_index.rank(); ++i) one = one && branch_index.dims()[i] == 1;
  SKIFF_ENFORCE(one, kInvalidArgument, "switch_case", "branch_index", want,
                str("shape ", branch_index.dims()));
  SKIFF_ENFORCE(!branches.empty(), kInvalidArgument, "switch_case", "branch_fns",
                "at least one (index, function) pair", "none");
  std::vector<std::pair<int64_t, Branch>> sorted = branches;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < sorted.size(); ++i) {
    SKIFF_ENFORCE(sorted[i].second, kInvalidArgument, "switch_case",
                  str("branch_fns[", sorted[i].first, "]"), "a function", "none");
    SKIFF_ENFORCE(i == 0 || sorted[i].first != sorted[i - 1].first, kInvalidArgument, "switch_case",
                  "branch_fns", "distinct branch indices",
                  str("index ", sorted[i].first, " twice"));
  }
  // Paddle: without a default, the branch with the largest index is the default.
  Branch fallback = default_fn ? default_fn : sorted.back().second;
  if (!default_fn) sorted.pop_back();
  if (!capturing()) {
    const int64_t k = branch_index.item<int64_t>();
    for (const auto& [index, fn] : sorted) {
      if (index == k) return fn();
    }
    return fallback();
  }
  // Nested conds, built from the default up: index == k0 ? f0 : (index == k1 ? f1 : ...).
  // Every closure holds its pieces by value: cond keeps the branches for its backward.
  Branch chain = fallback;
  for (size_t i = sorted.size(); i-- > 0;) {
    const int64_t k = sorted[i].first;
    chain = [branch_index, k, d, fn = sorted[i].second, rest = chain] {
      Tensor is_k = equal(branch_index, full({}, k, d));
      if (is_k.rank() > 0) is_k = reshape(is_k, {});
      return cond(is_k, fn, rest);
    };
  }
  return chain();
}

}  // namespace skiff::jit
