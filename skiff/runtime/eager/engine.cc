#include "skiff/runtime/eager/engine.h"

#include <cstring>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "skiff/ops/generated/api.h"
#include "skiff/profiler/record_event.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/grad_node.h"
#include "skiff/runtime/jit/capture_state.h"

namespace skiff::autograd {

namespace {

// A tensor of `meta` filled with `value` on `place` (seed gradients and zeros for outputs no
// gradient reached). Filled on the host, then copied to the device if needed.
Tensor filled_like(const TensorMeta& meta, const Place& place, double value) {
  // While a function is captured (static autodiff) the fill is an op of the program.
  if (jit::capturing()) return skiff::full(meta.dims.to_vector(), value, meta.dtype);
  DenseTensor d = DenseTensor::empty(meta.dims, meta.dtype, Place::cpu());
  if (value == 0.0) {
    std::memset(d.raw_data(), 0, static_cast<size_t>(d.nbytes()));
  } else {
    visit_dtype_complex(meta.dtype, [&](auto tag) {
      using T = decltype(tag);
      T* p = static_cast<T*>(d.raw_data());
      for (int64_t i = 0; i < d.numel(); ++i) p[i] = static_cast<T>(value);
    });
  }
  return Tensor(place.is_cpu() ? std::move(d) : d.copy_to(place));
}

bool has_dynamic_dim(const Dims& dims) {
  for (int i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) return true;
  }
  return false;
}

struct NodeState {
  std::vector<Tensor> grads;  // summed gradient per forward output of the node
  int dependencies = 0;
  bool needed = false;
};

struct ReadyOrder {
  bool operator()(GradNode* a, GradNode* b) const { return a->sequence_nr() < b->sequence_nr(); }
};

void accumulate(std::vector<Tensor>& slots, uint32_t index, const Tensor& g) {
  if (!g.defined()) return;
  if (slots.size() <= index) slots.resize(index + 1);
  Tensor& slot = slots[index];
  slot = slot.defined() ? skiff::add(slot, g) : g;
}

thread_local int t_running_rules = 0;

// Marks this thread as running gradient rules while alive (AMP leaves their ops alone).
struct RunningRules {
  RunningRules() { ++t_running_rules; }
  ~RunningRules() { --t_running_rules; }
};

class GraphTask {
 public:
  GraphTask(bool keep_graph, bool create_graph, bool stop_at_targets = false)
      : keep_graph_(keep_graph), create_graph_(create_graph), stop_at_targets_(stop_at_targets) {}

  // Targets whose incoming gradient grad() returns: (node, forward output index).
  void add_capture(const Edge& e) { captures_.push_back(e); }
  // Edges no gradient flows through (grad's no_grad_vars): as if the tensor were a constant.
  void add_block(const Edge& e) { blocked_.push_back(e); }
  std::vector<Tensor> captured() const { return captured_; }

  void run(const std::vector<Edge>& roots, const std::vector<Tensor>& root_grads) {
    RunningRules running;
    discover(roots);
    for (size_t i = 0; i < roots.size(); ++i) {
      if (!open(roots[i])) continue;  // an output that is itself a no_grad_var
      accumulate(states_[roots[i].node.get()].grads, roots[i].input_nr, root_grads[i]);
    }
    captured_.assign(captures_.size(), Tensor());
    std::priority_queue<GradNode*, std::vector<GradNode*>, ReadyOrder> ready;
    for (auto& [node, st] : states_) {
      if (st.needed && st.dependencies == 0) ready.push(node);
    }
    while (!ready.empty()) {
      GradNode* node = ready.top();
      ready.pop();
      execute(node, ready);
    }
  }

 private:
  // Finds every node reachable from the roots (iteratively), counts each node's incoming
  // edges, and, when capturing, marks only nodes that lead to a capture target as needed.
  void discover(const std::vector<Edge>& roots) {
    std::unordered_set<GradNode*> targets;
    for (const Edge& c : captures_) targets.insert(c.node.get());
    std::vector<GradNode*> stack;
    std::vector<GradNode*> order;  // discovery order, reversed later for post-order
    for (const Edge& r : roots) {
      keep_alive_.push_back(r.node);
      if (states_.emplace(r.node.get(), NodeState{}).second) stack.push_back(r.node.get());
    }
    while (!stack.empty()) {
      GradNode* n = stack.back();
      stack.pop_back();
      order.push_back(n);
      if (stop_at_targets_ && targets.count(n)) continue;  // nothing behind a target runs
      for (const Edge& e : n->next_edges()) {
        if (!open(e)) continue;
        if (states_.emplace(e.node.get(), NodeState{}).second) stack.push_back(e.node.get());
      }
    }
    if (captures_.empty()) {
      for (auto& [n, st] : states_) st.needed = true;
    } else {
      // A node is needed if it is a target or an edge leads to a needed node. Nodes are
      // processed until nothing changes (the graph is a DAG; this converges quickly).
      bool changed = true;
      while (changed) {
        changed = false;
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
          NodeState& st = states_[*it];
          if (st.needed) continue;
          bool needed = targets.count(*it) > 0;
          for (const Edge& e : (*it)->next_edges()) {
            if (needed) break;
            needed = open(e) && states_[e.node.get()].needed;
          }
          if (needed) st.needed = changed = true;
        }
      }
    }
    for (auto& [n, st] : states_) {
      if (!st.needed || (stop_at_targets_ && targets.count(n))) continue;  // a target never runs
      for (const Edge& e : n->next_edges()) {
        if (open(e) && states_[e.node.get()].needed) ++states_[e.node.get()].dependencies;
      }
    }
  }

  void execute(GradNode* node,
               std::priority_queue<GradNode*, std::vector<GradNode*>, ReadyOrder>& ready) {
    NodeState& st = states_[node];
    std::vector<Tensor> grads = std::move(st.grads);
    grads.resize(node->output_metas().size());
    for (const auto& [output_nr, hooks] : node->pre_hooks()) {
      if (output_nr >= grads.size() || !grads[output_nr].defined()) continue;
      for (const auto& hook : hooks) {
        Tensor replaced = hook(grads[output_nr]);
        if (replaced.defined()) grads[output_nr] = replaced;
      }
    }
    bool is_target = false;
    for (size_t i = 0; i < captures_.size(); ++i) {
      if (captures_[i].node.get() != node) continue;
      is_target = true;
      const uint32_t k = captures_[i].input_nr;
      if (k < grads.size()) captured_[i] = grads[k];
    }
    // In grad() mode a target runs only if it leads to another target; leaves never accumulate.
    bool run_node = captures_.empty();
    if (!run_node && !(is_target && stop_at_targets_)) {
      for (const Edge& e : node->next_edges()) {
        run_node = run_node || (open(e) && states_[e.node.get()].needed);
      }
    }
    if (!run_node) {
      (void)is_target;
      return;
    }
    if (!node->handles_undefined_grads()) {
      for (size_t i = 0; i < grads.size(); ++i) {
        if (!grads[i].defined()) grads[i] = zero_grad(node, i);
      }
    }
    std::vector<Tensor> input_grads;
    {
      GradModeGuard mode(create_graph_);
      profiler::RecordEvent ev;  // each node is an Operator event, as Paddle's grad nodes are
      if (profiler::is_enabled()) [[unlikely]]
        ev.begin(node->name(), profiler::EventType::kOperator);
      input_grads = node->apply(grads);
    }
    if (!keep_graph_) node->release_saved();
    const auto& edges = node->next_edges();
    for (size_t i = 0; i < edges.size() && i < input_grads.size(); ++i) {
      const Edge& e = edges[i];
      if (!open(e)) continue;
      NodeState& next = states_[e.node.get()];
      if (!next.needed) continue;
      Tensor g = input_grads[i];
      if (g.defined()) {
        const TensorMeta& want = node->input_metas()[i];
        SKIFF_ENFORCE(g.dims() == want.dims, kInternal, node->name(), str("grad of input ", i),
                      str("shape ", want.dims), g.dims());
        // Promotion made the op compute in a wider dtype; the input's gradient has its dtype.
        if (g.dtype() != want.dtype) {
          GradModeGuard mode(create_graph_);
          g = skiff::cast(g, want.dtype);
        }
        accumulate(next.grads, e.input_nr, g);
      }
      if (--next.dependencies == 0) ready.push(e.node.get());
    }
  }

  bool open(const Edge& e) const {
    if (!e.valid()) return false;
    for (const Edge& b : blocked_) {
      if (b.node == e.node && b.input_nr == e.input_nr) return false;
    }
    return true;
  }

  bool keep_graph_;
  bool create_graph_;
  bool stop_at_targets_;
  std::vector<Edge> blocked_;
  std::unordered_map<GradNode*, NodeState> states_;
  std::vector<std::shared_ptr<GradNode>> keep_alive_;
  std::vector<Edge> captures_;
  std::vector<Tensor> captured_;
};

std::vector<Tensor> seed_grads(const std::vector<Tensor>& outputs,
                               const std::vector<Tensor>& grad_outputs, const char* op) {
  SKIFF_ENFORCE(grad_outputs.empty() || grad_outputs.size() == outputs.size(), kInvalidArgument, op,
                "grad_outputs", str(outputs.size(), " tensors (one per output) or none"),
                grad_outputs.size());
  std::vector<Tensor> seeds;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    if (i < grad_outputs.size() && grad_outputs[i].defined()) {
      SKIFF_ENFORCE(grad_outputs[i].dims() == out.dims(), kInvalidArgument, op,
                    str("grad_outputs[", i, "]"), str("shape ", out.dims()),
                    grad_outputs[i].dims());
      seeds.push_back(grad_outputs[i]);
    } else {
      // Captured with run-time sizes, the seed takes the output's run-time shape.
      seeds.push_back(jit::capturing() && has_dynamic_dim(out.dims())
                          ? skiff::full_like(out, Scalar(1.0))
                          : filled_like({out.dtype(), out.dims()}, out.place(), 1.0));
    }
  }
  return seeds;
}

std::vector<Edge> root_edges(const std::vector<Tensor>& outputs, const char* op) {
  std::vector<Edge> roots;
  for (size_t i = 0; i < outputs.size(); ++i) {
    SKIFF_ENFORCE(outputs[i].defined(), kInvalidArgument, op, str("outputs[", i, "]"),
                  "an initialized tensor", "an undefined tensor");
    Edge e = gradient_edge(outputs[i]);
    SKIFF_ENFORCE(e.valid(), kPrecondition, op, str("outputs[", i, "]"),
                  "a tensor that requires grad (stop_gradient=False somewhere upstream)",
                  "a tensor with stop_gradient=True");
    roots.push_back(std::move(e));
  }
  return roots;
}

}  // namespace

// Captured with sizes known only at run time, the zeros take the output's run-time shape.
Tensor zero_grad(GradNode* node, size_t i) {
  const TensorMeta& meta = node->output_metas()[i];
  if (jit::capturing() && has_dynamic_dim(meta.dims)) {
    Tensor out = jit::remembered_output(node, i);
    if (out.defined()) return skiff::zeros_like(out);
  }
  return filled_like(meta, node->place(), 0);
}

namespace {
thread_local int backward_depth = 0;
thread_local std::vector<std::function<void()>> backward_callbacks;
}  // namespace

bool running_rules() { return t_running_rules > 0; }

bool in_backward() { return backward_depth > 0; }

void queue_callback(std::function<void()> fn) {
  if (backward_depth == 0) return fn();
  backward_callbacks.push_back(std::move(fn));
}

void backward(const std::vector<Tensor>& outputs, const std::vector<Tensor>& grad_outputs,
              bool retain_graph) {
  const auto roots = root_edges(outputs, "backward");
  // A captured graph holds symbolic tensors, nothing to free; to_static appends its own
  // gradients to it afterwards.
  GraphTask task(retain_graph || jit::capturing(), /*create_graph=*/false);
  profiler::RecordEvent ev("backward", profiler::EventType::kBackward);
  ++backward_depth;
  try {
    task.run(roots, seed_grads(outputs, grad_outputs, "backward"));
  } catch (...) {
    if (--backward_depth == 0) backward_callbacks.clear();
    throw;
  }
  if (--backward_depth > 0) return;
  // Callbacks may queue more; each runs once, in order.
  for (size_t i = 0; i < backward_callbacks.size(); ++i) {
    auto fn = std::move(backward_callbacks[i]);
    try {
      fn();
    } catch (...) {
      backward_callbacks.clear();
      throw;
    }
  }
  backward_callbacks.clear();
}

std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& grad_outputs, GradOptions options) {
  const auto roots = root_edges(outputs, "grad");
  const bool retain = options.retain_graph.value_or(options.create_graph) || jit::capturing();
  GraphTask task(retain, options.create_graph, options.stop_at_inputs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    Edge e = gradient_edge(inputs[i]);
    SKIFF_ENFORCE(e.valid(), kPrecondition, "grad", str("inputs[", i, "]"),
                  "a tensor with stop_gradient=False", "a tensor with stop_gradient=True");
    task.add_capture(e);
  }
  for (const Tensor& t : options.no_grad_vars) {
    if (!t.defined()) continue;
    Edge e = gradient_edge(t);
    if (e.valid()) task.add_block(e);
  }
  profiler::RecordEvent ev("grad", profiler::EventType::kBackward);
  task.run(roots, seed_grads(outputs, grad_outputs, "grad"));
  std::vector<Tensor> result = task.captured();
  for (size_t i = 0; i < result.size(); ++i) {
    SKIFF_ENFORCE(result[i].defined() || options.allow_unused, kInvalidArgument, "grad",
                  str("inputs[", i, "]"), "an input the outputs depend on",
                  "an unused input (pass allow_unused=True to get None for it)");
    if (result[i].defined() && !options.create_graph) result[i] = detach(result[i]);
  }
  return result;
}

}  // namespace skiff::autograd
