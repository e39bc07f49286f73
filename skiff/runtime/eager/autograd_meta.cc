#include "skiff/runtime/eager/autograd_meta.h"

#include <atomic>

#include "skiff/runtime/eager/detach_hook.h"
#include "skiff/runtime/eager/grad_node.h"
#include "skiff/runtime/jit/symbolic_tensor.h"

namespace skiff::autograd {

AutogradMeta* autograd_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.autograd_meta());
}

AutogradMeta& ensure_autograd_meta(const Tensor& t) {
  SKIFF_ENFORCE(t.defined(), kPrecondition, "autograd", "tensor", "an initialized tensor",
                "an undefined tensor");
  if (auto* m = autograd_meta(t)) return *m;
  auto meta = std::make_shared<AutogradMeta>();
  AutogradMeta& ref = *meta;
  t.set_autograd_meta(std::move(meta));
  return ref;
}

bool requires_grad(const Tensor& t) {
  const AutogradMeta* m = t.defined() ? autograd_meta(t) : nullptr;
  return m != nullptr && !m->stop_gradient;
}

void set_stop_gradient(const Tensor& t, bool stop_gradient) {
  if (!stop_gradient) {
    SKIFF_ENFORCE(is_differentiable(t.dtype()), kTypeError, "stop_gradient", "tensor",
                  "a floating point tensor to require gradients", t.dtype());
  }
  ensure_autograd_meta(t).stop_gradient = stop_gradient;
}

bool is_leaf(const Tensor& t) {
  const AutogradMeta* m = autograd_meta(t);
  return m == nullptr || m->grad_node == nullptr;
}

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* m = autograd_meta(t);
  if (m == nullptr || m->stop_gradient) return {};
  if (m->grad_node) return {m->grad_node, m->output_nr};
  std::shared_ptr<GradNode> acc = m->accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t.impl_ptr());
    acc->input_metas().push_back({t.dtype(), t.dims()});
    acc->output_metas().push_back({t.dtype(), t.dims()});
    acc->set_place(t.place());
    m->accumulator = acc;
  }
  return {acc, 0};
}

namespace {
std::atomic<DetachFn> g_detach_dist{nullptr};
std::atomic<LeafGradFn> g_leaf_grad_dist{nullptr};
std::atomic<DataVersionFn> g_data_version_dist{nullptr};
}  // namespace

void set_data_version_for_kind(TensorKind kind, DataVersionFn fn) {
  SKIFF_ENFORCE(kind == TensorKind::kDist, kInvalidArgument, "set_data_version_for_kind", "kind",
                "TensorKind::kDist", static_cast<int>(kind));
  g_data_version_dist.store(fn);
}

std::optional<uint32_t> data_version(const Tensor& t) {
  if (!t.defined()) return std::nullopt;
  if (t.is_dense()) {
    const auto& storage = t.dense().storage();
    return storage ? std::optional<uint32_t>(storage->version()) : std::nullopt;
  }
  DataVersionFn fn = t.kind() == TensorKind::kDist ? g_data_version_dist.load() : nullptr;
  return fn != nullptr ? std::optional<uint32_t>(fn(t)) : std::nullopt;
}

void set_leaf_grad_for_kind(TensorKind kind, LeafGradFn fn) {
  SKIFF_ENFORCE(kind == TensorKind::kDist, kInvalidArgument, "set_leaf_grad_for_kind", "kind",
                "TensorKind::kDist", static_cast<int>(kind));
  g_leaf_grad_dist.store(fn);
}

Tensor leaf_grad(const Tensor& leaf, const Tensor& grad) {
  if (!leaf.defined() || leaf.kind() != TensorKind::kDist || !grad.defined()) return grad;
  LeafGradFn fn = g_leaf_grad_dist.load();
  return fn != nullptr ? fn(leaf, grad) : grad;
}

void set_detach_for_kind(TensorKind kind, DetachFn fn) {
  SKIFF_ENFORCE(kind == TensorKind::kDist, kInvalidArgument, "set_detach_for_kind", "kind",
                "TensorKind::kDist", static_cast<int>(kind));
  g_detach_dist.store(fn);
}

Tensor detach(const Tensor& t) {
  // A new impl sharing the data (storage, or the IR value of a captured tensor), no autograd state.
  if (const jit::SymbolicTensor* s = jit::as_symbolic(t)) return jit::symbolic_copy(*s);
  if (t.defined() && t.kind() == TensorKind::kDist) {
    DetachFn fn = g_detach_dist.load();
    if (fn != nullptr) return fn(t);
  }
  SKIFF_ENFORCE(t.is_dense(), kUnimplemented, "detach", "tensor", "a dense or symbolic tensor",
                "another kind");
  return Tensor(t.dense());
}

}  // namespace skiff::autograd
