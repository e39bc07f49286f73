// paddle.autograd.PyLayer on the runtime's type-erased custom function node: the Python class
// runs forward under no_grad, then _apply_py_layer links a CustomFunctionNode whose backward
// calls the Python backward (under the GIL). The context reaches its saved tensors through a
// weak reference, so node -> backward closure -> ctx -> node is not a reference cycle.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/python/bind.h"
#include "skiff/python/convert.h"
#include "skiff/python/result.h"
#include "skiff/runtime/eager/custom_function.h"

namespace skiff::python {

namespace {

struct PyLayerNodeRef {
  std::weak_ptr<autograd::CustomFunctionNode> node;
  std::vector<Tensor> saved_tensors() const {
    auto n = node.lock();
    SKIFF_ENFORCE(n != nullptr, kPrecondition, "saved_tensor", "ctx",
                  "a context whose grad node is alive", "a released node");
    return n->saved_tensors();
  }
};

std::vector<Tensor> grads_from_python(py::handle r, const std::string& name) {
  std::vector<Tensor> out;
  if (r.is_none() || is_tensor(r)) {
    out.push_back(r.is_none() ? Tensor() : *as_tensor_ptr(r));
    return out;
  }
  if (!PyList_Check(r.ptr()) && !PyTuple_Check(r.ptr())) {
    throw py::type_error(str(name,
                             ".backward: expected to return Tensors or None (one per "
                             "tensor input of forward), got ",
                             Py_TYPE(r.ptr())->tp_name));
  }
  for (py::handle h : r) {
    out.push_back(h.is_none() ? Tensor() : tensor_arg(h, name.c_str(), "backward result"));
  }
  return out;
}

}  // namespace

void bind_py_layer(py::module_& m) {
  py::class_<PyLayerNodeRef>(m, "PyLayerNodeRef")
      .def("saved_tensors", &PyLayerNodeRef::saved_tensors);
  m.def(
      "_apply_py_layer",
      [](const std::vector<Tensor>& inputs, std::vector<Tensor> outputs, py::object backward,
         const std::string& name, const std::vector<bool>& non_differentiable,
         const std::vector<Tensor>& to_save) -> py::tuple {
        // The closure may be dropped from any thread that frees the graph: release under GIL.
        auto fn =
            std::shared_ptr<py::object>(new py::object(std::move(backward)), [](py::object* o) {
              py::gil_scoped_acquire gil;
              delete o;
            });
        auto node = std::make_shared<autograd::CustomFunctionNode>(
            name, [fn, name](const std::vector<Tensor>& grads) {
              py::gil_scoped_acquire gil;
              py::list g;
              for (const Tensor& t : grads) g.append(t.defined() ? py::cast(t) : py::none());
              py::object r = (*fn)(*g);
              return grads_from_python(r, name);
            });
        py::object ref = py::none();
        if (autograd::apply_custom_function(inputs, outputs, node, non_differentiable)) {
          node->save(to_save, outputs);
          ref = py::cast(PyLayerNodeRef{node});
        }
        return py::make_tuple(to_python(outputs), ref);
      },
      py::arg("inputs"), py::arg("outputs"), py::arg("backward"), py::arg("name"),
      py::arg("non_differentiable"), py::arg("to_save"));
}

}  // namespace skiff::python
