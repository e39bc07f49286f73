#include "skiff/runtime/eager/custom_function.h"

#include "skiff/ops/generated/api.h"

namespace skiff::autograd {

CustomFunctionNode::CustomFunctionNode(std::string name, CustomBackward backward,
                                       bool handles_undefined)
    : name_(std::move(name)),
      backward_(std::move(backward)),
      handles_undefined_(handles_undefined) {}

std::vector<Tensor> CustomFunctionNode::apply(std::vector<Tensor>& grads) {
  SKIFF_ENFORCE(!released_, kPrecondition, name_, "saved state",
                "state kept for backward; a second backward through the same graph needs "
                "retain_graph=True in the first",
                "state freed by an earlier backward");
  std::vector<Tensor> result = backward_(grads);
  const size_t n = next_edges().size();
  SKIFF_ENFORCE(result.size() == n, kInvalidArgument, name_, "backward",
                str(n, " gradients (one per forward input)"), str(result.size(), " gradients"));
  for (size_t i = 0; i < n; ++i) {
    if (!result[i].defined() || !needs_input_grad(i)) {
      result[i] = Tensor();
      continue;
    }
    const TensorMeta& want = input_metas()[i];
    SKIFF_ENFORCE(result[i].dims() == want.dims, kInvalidArgument, name_,
                  str("gradient ", i, " returned by backward"),
                  str("the shape of forward input ", i, " ", want.dims), result[i].dims());
    if (result[i].dtype() != want.dtype) result[i] = cast(result[i], want.dtype);
  }
  return result;
}

void CustomFunctionNode::release_saved() {
  saved_.clear();
  backward_ = nullptr;  // the closure may hold tensors too
  released_ = true;
}

void CustomFunctionNode::save(const std::vector<Tensor>& tensors,
                              const std::vector<Tensor>& outputs) {
  saved_.clear();
  for (const Tensor& t : tensors) {
    int output_nr = -1;
    for (size_t i = 0; i < outputs.size() && t.defined(); ++i) {
      if (outputs[i].impl() == t.impl()) output_nr = static_cast<int>(i);
    }
    saved_.emplace_back(t, output_nr);
  }
}

std::vector<Tensor> CustomFunctionNode::saved_tensors() {
  std::vector<Tensor> out;
  out.reserve(saved_.size());
  const auto self = shared_from_this();
  for (const SavedTensor& s : saved_) out.push_back(s.unpack(self, name_.c_str()));
  return out;
}

bool apply_custom_function(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                           const std::shared_ptr<CustomFunctionNode>& node,
                           const std::vector<bool>& non_differentiable) {
  if (!should_record(inputs)) return false;
  SKIFF_ENFORCE(non_differentiable.empty() || non_differentiable.size() == outputs.size(),
                kInvalidArgument, node->name(), "non_differentiable",
                str(outputs.size(), " flags (one per output) or none"), non_differentiable.size());
  std::vector<const Tensor*> in_ptrs;
  for (const Tensor& t : inputs) in_ptrs.push_back(t.defined() ? &t : nullptr);
  std::vector<Tensor*> out_ptrs;
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor& out = outputs[i];
    SKIFF_ENFORCE(out.defined(), kInvalidArgument, node->name(), str("output ", i),
                  "an initialized tensor returned by forward", "an undefined tensor");
    for (const Tensor& in : inputs) {
      if (in.defined() && in.impl() == out.impl()) {
        out = Tensor(out.dense());  // same data, own history
        break;
      }
    }
    out_ptrs.push_back(&out);
  }
  set_history(node, in_ptrs, out_ptrs);
  for (size_t i = 0; i < non_differentiable.size(); ++i) {
    if (!non_differentiable[i]) continue;
    AutogradMeta& m = ensure_autograd_meta(outputs[i]);
    m.grad_node = nullptr;
    m.stop_gradient = true;
  }
  return true;
}

std::vector<Tensor> FunctionContext::saved_tensors() const {
  auto node = node_.lock();
  SKIFF_ENFORCE(node != nullptr, kPrecondition, "FunctionContext::saved_tensors", "context",
                "a function recorded for backward", "a context with no recorded node");
  return node->saved_tensors();
}

void FunctionContext::mark_non_differentiable(const std::vector<Tensor>& outputs) {
  for (const Tensor& t : outputs) non_differentiable_.push_back(t.impl());
}

namespace detail {
void prepare_context(FunctionContext&, const std::vector<Tensor>& inputs,
                     std::vector<bool>& needs_input_grad) {
  const bool on = grad_enabled();
  needs_input_grad.clear();
  for (const Tensor& t : inputs) needs_input_grad.push_back(on && t.defined() && requires_grad(t));
}
}  // namespace detail

}  // namespace skiff::autograd
