#include "skiff/runtime/eager/grad_node.h"

#include <atomic>

#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/detach_hook.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/inplace.h"
#include "skiff/runtime/jit/capture_state.h"

namespace skiff::autograd {

namespace {
std::atomic<uint64_t> g_next_sequence_nr{0};

// Destroying a long chain of nodes recursively would overflow the stack (graphs of 100k ops);
// nodes whose last owner is a dying node are released from this list in a loop instead.
thread_local std::vector<std::shared_ptr<GradNode>> t_pending_release;
thread_local bool t_releasing = false;
}  // namespace

GradNode::GradNode() : sequence_nr_(g_next_sequence_nr.fetch_add(1)) {}

GradNode::~GradNode() {
  for (Edge& e : next_edges_) {
    if (e.node) t_pending_release.push_back(std::move(e.node));
  }
  if (t_releasing) return;
  t_releasing = true;
  while (!t_pending_release.empty()) {
    std::shared_ptr<GradNode> n = std::move(t_pending_release.back());
    t_pending_release.pop_back();
    n.reset();  // may push more nodes
  }
  t_releasing = false;
}

void GradNode::add_pre_hook(uint32_t output_nr, TensorHook hook) {
  pre_hooks_[output_nr].push_back(std::move(hook));
}

AccumulateGrad::AccumulateGrad(std::shared_ptr<TensorImpl> leaf) : leaf_(std::move(leaf)) {}

std::vector<Tensor> AccumulateGrad::apply(std::vector<Tensor>& grads) {
  if (!grads[0].defined()) return {};
  std::shared_ptr<TensorImpl> impl = leaf_.lock();
  if (!impl) return {};  // nobody can read this leaf's gradient any more
  Tensor leaf(impl);
  const Tensor g = leaf_grad(leaf, grads[0]);
  AutogradMeta& m = ensure_autograd_meta(leaf);
  // Dense or distributed (a dist leaf's Partial gradient then stays Partial for the bucketed
  // reduction: Note [Leaf gradients are reduced in buckets]).
  const bool still_zero = m.grad.defined() && m.grad.impl() == m.zeroed_grad.lock().get() &&
                          m.grad.kind() == g.kind() &&
                          data_version(m.grad) == std::optional(m.zeroed_grad_version) &&
                          m.grad.dtype() == g.dtype() && m.grad.dims() == g.dims();
  m.zeroed_grad.reset();
  if (!m.grad.defined() || still_zero) {
    // Keep the graph of the gradient only when it is being built (create_graph).
    m.grad = grad_enabled() ? g : detach(g);
  } else {
    m.grad = grad_enabled() ? skiff::add(m.grad, g) : detach(skiff::add(m.grad, g));
  }
  return {};
}

void set_history(const std::shared_ptr<GradNode>& node, const std::vector<const Tensor*>& inputs,
                 const std::vector<Tensor*>& outputs) {
  auto& edges = node->next_edges();
  edges.reserve(inputs.size());
  node->input_metas().reserve(inputs.size());
  node->output_metas().reserve(outputs.size());
  for (const Tensor* in : inputs) {
    if (in && in->defined()) {
      const AutogradMeta* m = autograd_meta(*in);
      if (m != nullptr && m->is_view) check_view_current(*in, node->name().c_str());
      edges.push_back(gradient_edge(*in));
      node->input_metas().push_back({in->dtype(), in->dims()});
    } else {
      edges.push_back({});
      node->input_metas().push_back({});
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor* out = outputs[i];
    node->output_metas().push_back({out->dtype(), out->dims()});
    if (i == 0) node->set_place(out->place());
    if (!is_differentiable(out->dtype())) continue;  // integer outputs (indices) carry no gradient
    AutogradMeta& m = ensure_autograd_meta(*out);
    m.stop_gradient = false;
    m.grad_node = node;
    m.output_nr = static_cast<uint32_t>(i);
  }
  if (jit::capturing()) jit::remember_outputs(node, outputs);
}

bool should_record(std::initializer_list<const Tensor*> inputs) {
  if (!grad_enabled()) return false;
  for (const Tensor* t : inputs) {
    if (t && requires_grad(*t)) return true;
  }
  return false;
}

bool should_record(const std::vector<Tensor>& inputs) {
  if (!grad_enabled()) return false;
  for (const Tensor& t : inputs) {
    if (requires_grad(t)) return true;
  }
  return false;
}

void register_hook(const Tensor& t, TensorHook hook) {
  Edge e = gradient_edge(t);
  SKIFF_ENFORCE(e.valid(), kPrecondition, "register_hook", "tensor",
                "a tensor that requires grad (stop_gradient=False)", "stop_gradient=True");
  e.node->add_pre_hook(e.input_nr, std::move(hook));
  // A leaf's accumulator is otherwise held only by the graphs using it: keep it (and the hook).
  AutogradMeta* m = autograd_meta(t);
  if (m != nullptr && m->grad_node == nullptr) m->hooked_accumulator = e.node;
}

void retain_grads(const Tensor& t) {
  AutogradMeta* m = autograd_meta(t);
  if (m == nullptr || m->grad_node == nullptr || m->retain_grads) return;  // leaves keep grads
  m->retain_grads = true;
  std::weak_ptr<TensorImpl> weak = t.impl_ptr();
  m->grad_node->add_pre_hook(m->output_nr, [weak](const Tensor& g) {
    if (auto impl = weak.lock()) {
      AutogradMeta& meta = ensure_autograd_meta(Tensor(impl));
      meta.grad = meta.grad.defined() ? skiff::add(meta.grad, detach(g)) : detach(g);
    }
    return Tensor();
  });
}

void throw_no_vjp_rule(const char* op) {
  SKIFF_THROW(kUnimplemented, op, "", "a VJP rule (an input requires a gradient)",
              "no rule is defined for this op yet; set stop_gradient=True on its inputs or "
              "run it under no_grad");
}

}  // namespace skiff::autograd
