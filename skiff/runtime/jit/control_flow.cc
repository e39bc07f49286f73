#include "skiff/runtime/jit/control_flow.h"

#include <string>

#include "skiff/base/error.h"
#include "skiff/ir/dialects/cf.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/custom_function.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/jit/capture.h"
#include "skiff/runtime/jit/region_replay.h"

namespace skiff::jit {

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
std::vector<CaptureScope::FreeVariable> in_region(CaptureScope& scope, ir::Block* block,
                                                  ir::Operation* op, Fn&& fn) {
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

using FreeVariables = std::vector<CaptureScope::FreeVariable>;

void add_unique(FreeVariables& all, const FreeVariables& more) {
  for (const auto& f : more) {
    bool seen = false;
    for (const auto& a : all) seen = seen || a.tensor.impl() == f.tensor.impl();
    if (!seen) all.push_back(f);
  }
}

std::vector<Tensor> tensors_of(const FreeVariables& fs) {
  std::vector<Tensor> out;
  for (const auto& f : fs) out.push_back(f.tensor);
  return out;
}

bool any_requires_grad(const std::vector<Tensor>& ts) {
  for (const Tensor& t : ts) {
    if (t.defined() && autograd::requires_grad(t)) return true;
  }
  return false;
}

// The backward replays the region: a random op there would draw other values than the forward.
void refuse_random(const RegionRecipe& r, const char* op, const char* where) {
  const std::string& random = random_op_in(r);
  SKIFF_ENFORCE(random.empty(), kUnimplemented, op, "gradients",
                str(where,
                    " without random ops when differentiated (compute the random tensor "
                    "outside and pass it in)"),
                str(where, " calling ", random));
}

// Note [Autodiff through cf.if]
// The backward of a captured cond is a cond on the same predicate. Each backward branch replays
// its forward branch (region_replay.h: the recorded ops, not the user's function) inside the
// backward region with grad mode on, and applies the eager VJP rules with respect to the free
// variables, treated as independent inputs (stop_at_inputs: a free variable computed from
// another one does not pass its gradient on inside the branch; the outer graph does that). Since
// the backward is built by cond() itself, it records the same kind of node when differentiated
// again: higher orders need no more code.
std::vector<Tensor> branch_vjp(const RecipePtr& branch, const std::vector<Tensor>& xs,
                               const std::vector<Tensor>& grads) {
  refuse_random(*branch, "cond", "a branch");
  autograd::GradModeGuard recording(true);
  std::vector<Tensor> outs = replay(branch);
  std::vector<Tensor> ys, gys;
  for (size_t k = 0; k < outs.size() && k < grads.size(); ++k) {
    if (!grads[k].defined() || !autograd::requires_grad(outs[k])) continue;
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

void record_cond_grad(const Tensor& pred, ir::Operation* op, const FreeVariables& free,
                      std::vector<Tensor>& outputs) {
  RecipePtr then_r = record_region(op->region(0).front(), free);
  RecipePtr else_r = record_region(op->region(1).front(), free);
  const std::vector<Tensor> inputs = tensors_of(free);
  auto backward = [pred, then_r, else_r, inputs](const std::vector<Tensor>& grads) {
    std::vector<size_t> want;
    std::vector<Tensor> xs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!autograd::requires_grad(inputs[i]) || !is_floating(inputs[i].dtype())) continue;
      want.push_back(i);
      xs.push_back(inputs[i]);
    }
    std::vector<Tensor> result(inputs.size());
    if (xs.empty()) return result;
    auto vjp = [&](const RecipePtr& branch) -> Branch {
      return [branch, xs, grads] { return branch_vjp(branch, xs, grads); };
    };
    std::vector<Tensor> g = cond(pred, vjp(then_r), vjp(else_r));
    for (size_t j = 0; j < want.size(); ++j) result[want[j]] = g[j];
    return result;
  };
  auto node = std::make_shared<autograd::CustomFunctionNode>("cond", std::move(backward));
  std::vector<bool> non_differentiable;
  for (const Tensor& t : outputs) non_differentiable.push_back(!is_floating(t.dtype()));
  autograd::apply_custom_function(inputs, outputs, node, non_differentiable);
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
  FreeVariables free;
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
  if (autograd::grad_enabled() && any_requires_grad(tensors_of(free))) {
    record_cond_grad(pred, op, free, result);
  }
  return result;
}

struct CapturedWhile {
  ir::Operation* op;
  std::vector<Tensor> results;
  FreeVariables free;  // outer tensors the body (with the condition) reads
};

// Captures `step` into a cf.while. The block arguments start with the loop vars' types; when
// the body yields other shapes, those dims become dynamic and the body is captured again.
// `loop_vars` >= 0 marks a loop carrying history after its first `loop_vars` vars (the attribute
// tells region replay which vars are the user's).
CapturedWhile capture_while_op(const Tensor& first_cond, const detail::LoopStep& step,
                               const std::vector<Tensor>& vars, int64_t loop_vars = -1) {
  CaptureScope& scope = *CaptureScope::current();
  ir::Builder& b = scope.builder();
  std::vector<ir::Value> operands{scope.value_of(first_cond)};
  std::vector<ir::Type> types;
  for (const Tensor& v : vars) {
    operands.push_back(scope.value_of(v));
    types.push_back(operands.back().type());
  }
  while (true) {
    std::vector<ir::NamedAttribute> attrs;
    if (loop_vars >= 0) attrs.push_back(b.named("loop_vars", b.int_attr(loop_vars)));
    ir::Operation* op = b.create(ir::WhileOp::kName, operands, types, std::move(attrs), 1);
    ir::Block* body = op->region(0).add_block();
    for (ir::Type t : types) body->add_arg(t);
    std::vector<ir::Type> yielded;
    FreeVariables free = in_region(scope, body, op, [&] {
      std::vector<Tensor> args;
      for (ir::Value a : body->args()) args.push_back(scope.wrap(a));
      auto [c, next] = step(args);
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
    CapturedWhile w{op, {}, std::move(free)};
    for (ir::Value v : op->results()) w.results.push_back(scope.wrap(v));
    return w;
  }
}

// A grad node that refuses backward with `why` (what is not differentiable yet).
void refuse_grad(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs, std::string why) {
  auto node = std::make_shared<autograd::CustomFunctionNode>(
      "while_loop", [why](const std::vector<Tensor>&) -> std::vector<Tensor> {
        SKIFF_THROW(kUnimplemented, "while_loop", "gradients", why,
                    "a backward through a captured while_loop");
      });
  std::vector<Tensor> defined;  // undefined outputs (no gradient for that input) stay so
  std::vector<bool> non_differentiable;
  for (const Tensor& t : outputs) {
    if (!t.defined()) continue;
    defined.push_back(t);
    non_differentiable.push_back(!is_floating(t.dtype()));
  }
  autograd::apply_custom_function(inputs, defined, node, non_differentiable);
  size_t k = 0;
  for (Tensor& t : outputs) {
    if (t.defined()) t = defined[k++];
  }
}

size_t index_of(const std::vector<Tensor>& ts, const Tensor& t) {
  for (size_t i = 0; i < ts.size(); ++i) {
    if (ts[i].impl() == t.impl()) return i;
  }
  return ts.size();
}

Tensor int64_scalar(int64_t v) { return full({}, v, DType::kInt64); }

// Note [Autodiff through cf.while]
// A differentiable loop is captured again with extra loop vars: a trip counter and, per loop
// var, its history (the state entering each iteration, stacked along a new leading dim of
// dynamic size); the body is replayed from its recording (region_replay.h). The backward is a
// cf.while running the counter down: it gathers the state of iteration j, replays the body on it
// (as fresh leaves) and applies the eager VJP rules (autograd::grad with stop_at_inputs) to carry
// the loop vars' gradients one iteration back and add the free variables' gradients to
// accumulators. O(trip count) memory, one body replay per iteration. The grad node covers the
// histories too (a gradient reaching a history adds to that iteration's state gradient), and the
// backward loop is built by captured_while itself, so it is differentiable the same way: second
// and higher orders. A loop recorded with history (the `loop_vars` attribute) is replayed with
// history, because its backward loop, recorded after it, reads the counter and the histories.
struct WhileBackward {
  RecipePtr body;
  std::vector<Tensor> vars, free, inputs;
  Tensor trips;
  std::vector<Tensor> history;  // set from the node's saved tensors for one backward

  // `grads`: one per loop var, then one per history (undefined where none arrived).
  std::vector<Tensor> operator()(const std::vector<Tensor>& grads) const {
    refuse_random(*body, "while_loop", "a loop body");
    const size_t m = vars.size();
    std::vector<size_t> dv;  // differentiable loop vars
    for (size_t k = 0; k < vars.size(); ++k) {
      if (is_floating(vars[k].dtype())) dv.push_back(k);
    }
    std::vector<Tensor> fx;  // free variables that get a gradient
    for (const Tensor& f : free) {
      if (autograd::requires_grad(f) && is_floating(f.dtype())) fx.push_back(f);
    }
    std::vector<Tensor> init{subtract(trips, int64_scalar(1))};
    for (size_t k : dv) init.push_back(grads[k].defined() ? grads[k] : zeros_like(vars[k]));
    for (const Tensor& f : fx) init.push_back(zeros_like(f));
    std::vector<Tensor> grad_history(m);  // a gradient of history k adds to state k's
    for (size_t k = 0; k < m && m + k < grads.size(); ++k) grad_history[k] = grads[m + k];
    detail::LoopStep step = [this, dv, fx, grad_history](const std::vector<Tensor>& v) {
      std::vector<Tensor> next = back_step(v, dv, fx, grad_history);
      return std::make_pair(greater_equal(next[0], int64_scalar(0)), next);
    };
    // A while_loop itself: when this backward is recorded (create_graph), it is differentiable
    // the same way, which gives second order.
    std::vector<Tensor> r =
        detail::captured_while(greater_equal(init[0], int64_scalar(0)), step, init);
    std::vector<Tensor> result(inputs.size());
    auto add_to = [&](const Tensor& input, const Tensor& g) {
      Tensor& slot = result[index_of(inputs, input)];
      slot = slot.defined() ? add(slot, g) : g;
    };
    for (size_t j = 0; j < dv.size(); ++j) add_to(vars[dv[j]], r[1 + j]);
    for (size_t i = 0; i < fx.size(); ++i) add_to(fx[i], r[1 + dv.size() + i]);
    return result;
  }

  // One backward iteration: v = (j, grads of the differentiable loop vars, accumulators).
  std::vector<Tensor> back_step(const std::vector<Tensor>& v, const std::vector<size_t>& dv,
                                const std::vector<Tensor>& fx,
                                const std::vector<Tensor>& grad_history) const {
    autograd::GradModeGuard recording(true);
    const Tensor at = reshape(v[0], {1});
    std::vector<Tensor> state(vars.size()), xs;
    for (size_t k = 0; k < vars.size(); ++k) {
      state[k] = reshape(gather(history[k], at, 0), vars[k].shape());
      if (is_floating(vars[k].dtype())) autograd::set_stop_gradient(state[k], false);
    }
    for (size_t k : dv) xs.push_back(state[k]);
    xs.insert(xs.end(), fx.begin(), fx.end());
    std::vector<Tensor> outs = replay(body, state);  // (condition, next vars)
    std::vector<Tensor> ys, gys;
    for (size_t j = 0; j < dv.size(); ++j) {
      if (!autograd::requires_grad(outs[1 + dv[j]])) continue;
      ys.push_back(outs[1 + dv[j]]);
      gys.push_back(v[1 + j]);
    }
    std::vector<Tensor> g(xs.size());
    if (!ys.empty()) {
      autograd::GradOptions options;
      options.allow_unused = true;
      options.stop_at_inputs = true;
      g = autograd::grad(ys, xs, gys, options);
    }
    std::vector<Tensor> next{subtract(v[0], int64_scalar(1))};
    for (size_t j = 0; j < dv.size(); ++j) {
      Tensor gj = g[j].defined() ? g[j] : zeros_like(state[dv[j]]);
      if (const Tensor& gh = grad_history[dv[j]]; gh.defined()) {
        gj = add(gj, reshape(gather(gh, at, 0), vars[dv[j]].shape()));
      }
      next.push_back(gj);
    }
    for (size_t i = 0; i < fx.size(); ++i) {
      const Tensor& acc = v[1 + dv.size() + i];
      const Tensor& gi = g[dv.size() + i];
      next.push_back(gi.defined() ? add(acc, gi) : acc);
    }
    return next;
  }
};

// The loop again, carrying a trip counter and the history of every loop var (see the note).
// `history`, when given, receives the trip counter and the histories.
std::vector<Tensor> differentiable_while(const Tensor& first_cond, const RecipePtr& body,
                                         const std::vector<Tensor>& vars,
                                         const std::vector<Tensor>& free,
                                         std::vector<Tensor>* history) {
  const size_t m = vars.size();
  std::vector<Tensor> aug = vars;
  aug.push_back(int64_scalar(0));
  for (const Tensor& v : vars) {
    std::vector<int64_t> shape = v.shape();
    shape.insert(shape.begin(), 0);
    aug.push_back(full(shape, 0, v.dtype()));
  }
  detail::LoopStep step = [body, m](const std::vector<Tensor>& v) {
    std::vector<Tensor> cur(v.begin(), v.begin() + m);
    std::vector<Tensor> y = replay(body, cur);  // (condition, next vars)
    std::vector<Tensor> next(y.begin() + 1, y.end());
    next.push_back(add(v[m], int64_scalar(1)));
    for (size_t k = 0; k < m; ++k) next.push_back(concat({v[m + 1 + k], unsqueeze(cur[k], {0})}));
    return std::make_pair(y[0], next);
  };
  CapturedWhile w;
  {
    autograd::GradModeGuard off(false);
    w = capture_while_op(first_cond, step, aug, static_cast<int64_t>(m));
  }
  // The node's outputs: the loop vars, then their histories (the backward of a backward
  // reaches the forward through them). The histories are saved on the node, which re-attaches
  // them on use, so node -> closure -> history -> node is no reference cycle.
  std::vector<Tensor> outputs(w.results.begin(), w.results.begin() + m);
  outputs.insert(outputs.end(), w.results.begin() + m + 1, w.results.end());
  auto back = std::make_shared<WhileBackward>();
  back->body = body;
  back->vars = vars;
  back->free = free;
  back->inputs = vars;
  add_unique(back->inputs, free);
  back->trips = w.results[m];
  auto self = std::make_shared<std::weak_ptr<autograd::CustomFunctionNode>>();
  auto node = std::make_shared<autograd::CustomFunctionNode>(
      "while_loop",
      [back, self](const std::vector<Tensor>& grads) {
        WhileBackward b = *back;
        b.history = self->lock()->saved_tensors();
        return b(grads);
      },
      /*handles_undefined=*/true);
  *self = node;
  std::vector<bool> non_differentiable;
  for (const Tensor& t : outputs) non_differentiable.push_back(!is_floating(t.dtype()));
  if (autograd::apply_custom_function(back->inputs, outputs, node, non_differentiable)) {
    node->save(std::vector<Tensor>(outputs.begin() + m, outputs.end()), outputs);
  }
  if (history) {
    history->assign({w.results[m]});
    history->insert(history->end(), outputs.begin() + m, outputs.end());
  }
  outputs.resize(m);
  return outputs;
}

}  // namespace

std::vector<Tensor> cond(const Tensor& pred, const Branch& then_fn, const Branch& else_fn) {
  check_pred("cond", "pred", pred);
  SKIFF_ENFORCE(then_fn && else_fn, kInvalidArgument, "cond", then_fn ? "false_fn" : "true_fn",
                "a function", "none");
  if (capturing()) return captured_cond(pred, then_fn, else_fn);
  return pred.item<bool>() ? then_fn() : else_fn();
}

namespace detail {

std::vector<Tensor> captured_while(const Tensor& first_cond, const LoopStep& step,
                                   const std::vector<Tensor>& vars, std::vector<Tensor>* history) {
  check_pred("while_loop", "cond", first_cond);
  CapturedWhile w = capture_while_op(first_cond, step, vars);
  const std::vector<Tensor> free = tensors_of(w.free);
  const bool differentiable =
      autograd::grad_enabled() && (any_requires_grad(vars) || any_requires_grad(free));
  if (!differentiable && history == nullptr) return w.results;
  bool static_shapes = true;
  for (size_t k = 0; k < vars.size(); ++k) {
    static_shapes = static_shapes && w.results[k].dims() == vars[k].dims();
    for (int d = 0; d < vars[k].rank(); ++d)
      static_shapes = static_shapes && vars[k].dims()[d] >= 0;
  }
  if (!static_shapes) {
    std::vector<Tensor> inputs = vars;
    add_unique(inputs, free);
    refuse_grad(inputs, w.results,
                "loop vars of static shapes that the body keeps (a captured loop whose vars "
                "change shape is not differentiable yet)");
    return w.results;
  }
  // Differentiable: capture again from the recording, carrying what the backward loop needs.
  RecipePtr body = record_region(w.op->region(0).front(), w.free);
  w.results.clear();
  w.op->erase();
  return differentiable_while(first_cond, body, vars, free, history);
}

}  // namespace detail

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
  // One iteration: the body, then the condition on its result (both checked).
  auto step = [&](const std::vector<Tensor>& vars) {
    std::vector<Tensor> next = body_fn(vars);
    check_same_kinds("while_loop", "body", loop_vars, next, "loop_vars");
    Tensor c = cond_fn(next);
    check_pred("while_loop", "cond", c);
    return std::make_pair(c, next);
  };
  Tensor c = cond_fn(loop_vars);
  check_pred("while_loop", "cond", c);
  if (capturing()) return detail::captured_while(c, step, loop_vars);
  while (c.item<bool>()) std::tie(c, loop_vars) = step(loop_vars);
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
