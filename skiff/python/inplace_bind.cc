// Paddle's in-place variants that Python composes from out-of-place ops (python/skiff/tensor/
// inplace_functions.py: cumsum_, lgamma_, index_put_, reshape_, cast_, equal_, ...). The generated
// in-place ops (add_, exp_) run their kernel into x; a composition computes `out` first and then
// hands it to one of these, which give it the same semantics (skiff/runtime/eager/inplace.h):
// - `_inplace_assign(op, x, out)`: out's values are written into x's memory (views of x see
//   them), x's version is bumped, and out's history becomes x's (the "rebase"), or x's history is
//   cut when out records none. x keeps its dtype and shape, as in the generated ops.
// - `_inplace_rebind(op, x, fn, copy)`: for the variants whose result has another shape or
//   dtype (reshape_, squeeze_, t_, cast_, equal_: Paddle reallocates or reshapes x's holder).
//   The Python object x becomes a handle to fn(x)'s result, its version one past x's; a view
//   result (reshape_) keeps sharing x's memory unless autograd records it (then it is copied).
//   Versions are set before fn runs (Note [view version]). Under no_grad, x's stop_gradient carries
//   over.
// Both refuse, in grad mode, a leaf that requires grad and a view of a tensor that requires grad,
// with the generated ops' messages.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>

#include "skiff/ops/generated/api.h"
#include "skiff/python/bind.h"
#include "skiff/python/convert.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/inplace.h"
#include "skiff/runtime/jit/capture_state.h"

namespace skiff::python {

namespace {

Tensor* target_of(py::handle x, const char* op) {
  Tensor* t = const_cast<Tensor*>(as_tensor_ptr(x));
  SKIFF_ENFORCE(t != nullptr && t->defined(), kTypeError, op, "x", "an initialized Tensor",
                Py_TYPE(x.ptr())->tp_name);
  return t;
}

uint32_t version_of(const Tensor& t) {
  return t.is_dense() && t.dense().storage() ? t.dense().storage()->version() : 0;
}

void check_distinct_memory(const char* op, const Tensor& x) {
  const DenseTensor& d = x.dense();
  for (int i = 0; i < d.rank(); ++i) {
    SKIFF_ENFORCE(d.strides()[i] != 0 || d.dims()[i] <= 1, kInvalidArgument, op, "x",
                  "a tensor whose elements have distinct memory (not an expanded view)",
                  str("dims ", d.dims(), " with strides ", d.strides()));
  }
}

/// x takes out's history (out recorded a grad node), or loses its own (out recorded none).
void take_history(const Tensor& x, const Tensor& out) {
  const autograd::AutogradMeta* om = autograd::autograd_meta(out);
  if (!autograd::grad_enabled() || om == nullptr || om->grad_node == nullptr) {
    autograd::cut_history(x);
    return;
  }
  autograd::AutogradMeta& m = autograd::ensure_autograd_meta(x);
  m.stop_gradient = false;
  m.grad_node = om->grad_node;
  m.output_nr = om->output_nr;
  m.is_view = false;
}

Tensor inplace_assign(const char* op, py::handle xh, const Tensor& out) {
  Tensor& x = *target_of(xh, op);
  SKIFF_ENFORCE(out.defined(), kPrecondition, op, "out", "an initialized tensor", "none");
  if (!jit::capturing()) autograd::check_inplace(op, "x", x);
  SKIFF_ENFORCE(out.dims() == x.dims(), kInvalidArgument, op, "x",
                str("the result's shape ", out.dims(), " (in place, broadcasting cannot grow x)"),
                x.dims());
  SKIFF_ENFORCE(out.dtype() == x.dtype(), kTypeError, op, "x",
                str("the result's dtype ", out.dtype(), " (in place, the dtype cannot change)"),
                x.dtype());
  if (jit::capturing()) {
    jit::rebind_inplace(op, "x", x, out);
    return x;
  }
  check_distinct_memory(op, x);
  DenseTensor s = out.dense();
  if (s.place() != x.dense().place() || s.shares_storage_with(x.dense())) {
    s = s.copy_to(x.dense().place());
  }
  DenseTensor d = x.dense();
  d.copy_from(s);
  d.storage()->bump_version();
  take_history(x, out);
  return x;
}

// Note [view version]: a recorded view remembers its storage's version when it is made, and an
// op that later uses it checks the version is unchanged (its base was not written since); a
// saved tensor is checked the same way. So the versions are set before fn runs and records.
py::object inplace_rebind(const char* op, py::handle xh, const py::function& fn, bool copy) {
  Tensor& x = *target_of(xh, op);
  if (jit::capturing()) {
    Tensor out = fn(x).cast<Tensor>();
    if (x.is_dense()) {
      jit::rebind_inplace(op, "x", x, out);  // a parameter cannot change its shape or dtype
    } else {
      x = out;
    }
    return py::reinterpret_borrow<py::object>(xh);
  }
  autograd::check_inplace(op, "x", x);
  const bool required_grad = autograd::requires_grad(x);
  const uint32_t want = version_of(x) + 1;
  auto raise_to_want = [want](const Tensor& t) {
    if (!t.is_dense() || !t.dense().storage()) return;
    while (version_of(t) < want) t.dense().storage()->bump_version();
  };
  raise_to_want(x);
  Tensor out = fn(x).cast<Tensor>();
  SKIFF_ENFORCE(out.defined(), kPrecondition, op, "out", "an initialized tensor", "none");
  bool fresh = !(out.is_dense() && x.is_dense() && out.dense().shares_storage_with(x.dense()));
  if (copy && !fresh) {
    // autograd recorded the view op, whose rule saved x: a later in-place write through the
    // result must not change that memory, so the result is a copy of the view.
    out = skiff::assign(out);
    fresh = true;
  }
  if (fresh) raise_to_want(out);  // cast_, equal_: a new buffer no rule saved
  if (!autograd::grad_enabled()) {
    if (required_grad && is_differentiable(out.dtype())) autograd::set_stop_gradient(out, false);
  } else if (autograd::AutogradMeta* m = autograd::autograd_meta(out)) {
    // x is gone as a separate handle: writing into the result in place rebases its history
    // like any non-view's (views made of x earlier still check their version).
    m->is_view = false;
  }
  x = out;
  return py::reinterpret_borrow<py::object>(xh);
}

}  // namespace

void bind_inplace(py::module_& m) {
  m.def(
      "_inplace_assign",
      [](const std::string& op, py::handle x, const Tensor& out) {
        inplace_assign(op.c_str(), x, out);
        return py::reinterpret_borrow<py::object>(x);
      },
      py::arg("op"), py::arg("x"), py::arg("out"),
      "Writes out into x's memory as the in-place op `op` would (version, history); returns x.");
  m.def(
      "_inplace_rebind",
      [](const std::string& op, py::handle x, const py::function& fn, bool copy) {
        return inplace_rebind(op.c_str(), x, fn, copy);
      },
      py::arg("op"), py::arg("x"), py::arg("fn"), py::arg("copy"),
      "x becomes fn(x)'s result (another shape or dtype) as the in-place op `op`.");
}

}  // namespace skiff::python
