// The autograd API the Python layer builds on: grad mode, backward, grad, tensor hooks.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/python/bind.h"
#include "skiff/python/convert.h"
#include "skiff/python/result.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/grad_node.h"

namespace skiff::python {

namespace {

/// A Python hook owned by a tensor's grad node; remove() disables it (Paddle's handle API).
struct HookHandle {
  std::shared_ptr<py::object> fn;
  std::shared_ptr<bool> active = std::make_shared<bool>(true);
  void remove() { *active = false; }
};

}  // namespace

void bind_autograd(py::module_& m) {
  m.def("is_grad_enabled", &autograd::grad_enabled);
  m.def("set_grad_enabled", &autograd::set_grad_enabled, py::arg("mode"));
  m.def(
      "backward",
      [](py::handle tensors, py::handle grad_tensors, bool retain_graph) {
        autograd::backward(tensors_or_none_arg(tensors, "backward", "tensors"),
                           tensors_or_none_arg(grad_tensors, "backward", "grad_tensors"),
                           retain_graph);
      },
      py::arg("tensors"), py::arg("grad_tensors") = py::none(), py::arg("retain_graph") = false);
  m.def(
      "grad",
      [](py::handle outputs, py::handle inputs, py::handle grad_outputs, py::handle retain_graph,
         bool create_graph, bool allow_unused, py::handle no_grad_vars) {
        autograd::GradOptions opt;
        if (!retain_graph.is_none()) opt.retain_graph = retain_graph.cast<bool>();
        opt.create_graph = create_graph;
        opt.allow_unused = allow_unused;
        opt.no_grad_vars = tensors_or_none_arg(no_grad_vars, "grad", "no_grad_vars");
        auto r = autograd::grad(tensors_or_none_arg(outputs, "grad", "outputs"),
                                tensors_or_none_arg(inputs, "grad", "inputs"),
                                tensors_or_none_arg(grad_outputs, "grad", "grad_outputs"), opt);
        return to_python_or_none(std::move(r));
      },
      py::arg("outputs"), py::arg("inputs"), py::arg("grad_outputs") = py::none(),
      py::arg("retain_graph") = py::none(), py::arg("create_graph") = false,
      py::arg("allow_unused") = false, py::arg("no_grad_vars") = py::none());

  m.def(
      "_queue_backward_callback",
      [](py::object fn) {
        auto f = std::shared_ptr<py::object>(new py::object(std::move(fn)), [](py::object* o) {
          py::gil_scoped_acquire gil;
          delete o;
        });
        autograd::queue_callback([f] {
          py::gil_scoped_acquire gil;
          (*f)();
        });
      },
      py::arg("fn"), "Runs fn() once the running backward() has accumulated every gradient");

  py::class_<HookHandle>(m, "HookRemoveHelper").def("remove", &HookHandle::remove);
  m.def(
      "register_hook",
      [](const Tensor& t, py::object fn) {
        SKIFF_ENFORCE(autograd::requires_grad(t), kPrecondition, "register_hook", "self",
                      "a tensor that requires gradients (stop_gradient=False)",
                      "stop_gradient=True");
        HookHandle h;
        // The node may outlive the interpreter's hold on fn: drop it under the GIL.
        h.fn = std::shared_ptr<py::object>(new py::object(std::move(fn)), [](py::object* o) {
          py::gil_scoped_acquire gil;
          delete o;
        });
        autograd::register_hook(t, [fn = h.fn, active = h.active](const Tensor& g) -> Tensor {
          if (!*active) return Tensor();
          py::gil_scoped_acquire gil;
          py::object r = (*fn)(py::cast(g));
          return r.is_none() ? Tensor() : tensor_arg(r, "register_hook", "hook result");
        });
        return h;
      },
      py::arg("tensor"), py::arg("hook"));
}

}  // namespace skiff::python
