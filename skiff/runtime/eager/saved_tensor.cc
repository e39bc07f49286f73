#include "skiff/runtime/eager/saved_tensor.h"

#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/grad_node.h"

namespace skiff::autograd {

namespace {
uint32_t version_of(const Tensor& t) {
  return t.is_dense() && t.dense().storage() ? t.dense().storage()->version() : 0;
}
}  // namespace

SavedTensor::SavedTensor(const Tensor& t, int output_nr)
    : output_nr_(output_nr), saved_(true), was_defined_(t.defined()) {
  if (!t.defined()) return;
  version_ = version_of(t);
  if (output_nr < 0) {
    tensor_ = t;
  } else {
    data_ = detach(t);
  }
}

Tensor SavedTensor::unpack(const std::shared_ptr<GradNode>& owner, const char* node_name) const {
  SKIFF_ENFORCE(saved_, kPrecondition, node_name, "saved tensors",
                "tensors that are still saved; a second backward through the same graph needs "
                "retain_graph=True in the first",
                "tensors freed by an earlier backward");
  if (!was_defined_) return Tensor();
  Tensor t = output_nr_ < 0 ? tensor_ : detach(data_);
  const uint32_t now = version_of(t);
  SKIFF_ENFORCE(now == version_, kPrecondition, node_name, "saved tensor",
                str("data unchanged since it was saved for the gradient (version ", version_, ")"),
                str("version ", now, ": it was modified by an in-place operation"));
  if (output_nr_ >= 0 && owner) {
    // Re-attach a saved output to the node that produced it, so a VJP rule that uses the
    // output (exp, tanh, ...) is itself differentiable.
    AutogradMeta& m = ensure_autograd_meta(t);
    m.stop_gradient = false;
    m.grad_node = owner;
    m.output_nr = static_cast<uint32_t>(output_nr_);
  }
  return t;
}

void SavedTensor::reset() {
  tensor_ = Tensor();
  data_ = Tensor();
  saved_ = false;
}

}  // namespace skiff::autograd
