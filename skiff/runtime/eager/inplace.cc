#include "skiff/runtime/eager/inplace.h"

#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/grad_mode.h"

namespace skiff::autograd {

namespace {
uint32_t version_of(const Tensor& t) {
  return t.is_dense() && t.dense().storage() ? t.dense().storage()->version() : 0;
}
}  // namespace

void check_inplace(const char* op, const char* arg, const Tensor& t) {
  if (!grad_enabled()) return;
  const AutogradMeta* m = t.defined() ? autograd_meta(t) : nullptr;
  if (m == nullptr || m->stop_gradient) return;
  SKIFF_ENFORCE(m->grad_node != nullptr, kPrecondition, op, arg,
                "a tensor that is not a leaf requiring grad (write it under no_grad, or "
                "set stop_gradient=True first)",
                "a leaf tensor with stop_gradient=False used in an in-place operation");
  SKIFF_ENFORCE(!m->is_view, kPrecondition, op, arg,
                "a tensor that is not a view of a tensor requiring grad (in-place writes "
                "through views are not differentiable: use the out-of-place op, or no_grad)",
                str("a view (of dims ", t.dims(), ") of a tensor with stop_gradient=False"));
}

void check_inplace(const char* op, const char* arg, const std::vector<Tensor>& ts) {
  if (!grad_enabled()) return;
  for (size_t i = 0; i < ts.size(); ++i) check_inplace(op, str(arg, "[", i, "]").c_str(), ts[i]);
}

void cut_history(const Tensor& t) {
  if (!grad_enabled() || !t.defined()) return;
  AutogradMeta* m = autograd_meta(t);
  if (m == nullptr || m->stop_gradient) return;
  m->grad_node = nullptr;
  m->output_nr = 0;
  m->is_view = false;
  m->stop_gradient = true;
}

void cut_history(const std::vector<Tensor>& ts) {
  for (const Tensor& t : ts) cut_history(t);
}

void mark_view(const Tensor& view, const Tensor& base) {
  AutogradMeta* m = view.defined() ? autograd_meta(view) : nullptr;
  if (m == nullptr || m->grad_node == nullptr || !view.is_dense() || !base.is_dense()) return;
  if (!view.dense().shares_storage_with(base.dense())) return;  // the op had to copy
  m->is_view = true;
  m->view_version = version_of(view);
}

void mark_view(const std::vector<Tensor>& views, const Tensor& base) {
  for (const Tensor& v : views) mark_view(v, base);
}

Tensor meta_only(const Tensor& t) {
  if (!t.defined()) return Tensor();
  const DenseTensor& d = t.dense();
  return Tensor(DenseTensor(nullptr, d.dtype(), d.dims(), d.strides(), 0));
}

void check_view_current(const Tensor& t, const char* node_name) {
  const AutogradMeta* m = autograd_meta(t);
  if (m == nullptr || !m->is_view) return;
  const uint32_t now = version_of(t);
  SKIFF_ENFORCE(
      now == m->view_version, kPrecondition, node_name, "input",
      str("a view whose data is unchanged since it was made (version ", m->view_version, ")"),
      str("version ", now, ": its base was modified in place afterwards; make the view again"));
}

}  // namespace skiff::autograd
