// skiff._C.jit.cond / while_loop / switch_case: skiff/runtime/jit/control_flow with Python
// callables as branches and loop bodies (python/skiff/static/nn/control_flow.py holds Paddle's
// signatures). A branch may return a Tensor, a list or tuple of Tensors, or None; the result has
// the structure of the first branch that ran. Callables are called and released under the GIL:
// the backward of a captured cond runs its branches again, possibly from the autograd engine.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "skiff/python/bind.h"
#include "skiff/python/convert.h"
#include "skiff/runtime/jit/control_flow.h"

namespace skiff::python {

namespace {

enum class Shape { kNone, kTensor, kList, kTuple };

// A Python callable kept alive by C++ closures; dropped under the GIL from any thread.
std::shared_ptr<py::object> hold(py::object fn) {
  return std::shared_ptr<py::object>(new py::object(std::move(fn)), [](py::object* o) {
    py::gil_scoped_acquire gil;
    delete o;
  });
}

// The tensors of a branch result, and its shape.
std::vector<Tensor> tensors_of(py::handle r, const char* op, const char* arg, Shape* shape) {
  if (r.is_none()) {
    *shape = Shape::kNone;
    return {};
  }
  if (is_tensor(r)) {
    *shape = Shape::kTensor;
    return {*as_tensor_ptr(r)};
  }
  if (!PyList_Check(r.ptr()) && !PyTuple_Check(r.ptr())) {
    throw py::type_error(str(op, ": argument '", arg,
                             "' expected to return a Tensor, a list or tuple of Tensors, or "
                             "None, got ",
                             Py_TYPE(r.ptr())->tp_name));
  }
  *shape = PyList_Check(r.ptr()) ? Shape::kList : Shape::kTuple;
  std::vector<Tensor> out;
  for (py::handle h : r) {
    if (!is_tensor(h)) {
      throw py::type_error(str(op, ": argument '", arg,
                               "' expected to return Tensors (a flat list or tuple), got an "
                               "element of type ",
                               Py_TYPE(h.ptr())->tp_name));
    }
    out.push_back(*as_tensor_ptr(h));
  }
  return out;
}

py::object structured(std::vector<Tensor> ts, Shape shape) {
  switch (shape) {
    case Shape::kNone:
      return py::none();
    case Shape::kTensor:
      return py::cast(std::move(ts.at(0)));
    case Shape::kList:
      return py::cast(std::move(ts));
    case Shape::kTuple:
      return py::tuple(py::cast(std::move(ts)));
  }
  return py::none();
}

// The shape of the first result a set of branches produced (the result takes it).
using FirstShape = std::shared_ptr<std::optional<Shape>>;

jit::Branch branch_of(py::object fn, const char* op, const char* arg, FirstShape first) {
  if (fn.is_none()) {
    return [first] {
      if (!*first) *first = Shape::kNone;
      return std::vector<Tensor>{};
    };
  }
  if (!PyCallable_Check(fn.ptr())) {
    throw py::type_error(str(op, ": argument '", arg, "' expected a callable or None, got ",
                             Py_TYPE(fn.ptr())->tp_name));
  }
  auto f = hold(std::move(fn));
  return [f, op, arg, first] {
    py::gil_scoped_acquire gil;
    Shape shape;
    std::vector<Tensor> ts = tensors_of((*f)(), op, arg, &shape);
    if (!*first) *first = shape;
    return ts;
  };
}

py::object cond(const Tensor& pred, py::object true_fn, py::object false_fn) {
  FirstShape first = std::make_shared<std::optional<Shape>>();
  jit::Branch t = branch_of(std::move(true_fn), "cond", "true_fn", first);
  jit::Branch f = branch_of(std::move(false_fn), "cond", "false_fn", first);
  std::vector<Tensor> out = jit::cond(pred, t, f);
  return structured(std::move(out), first->value_or(Shape::kNone));
}

// Paddle calls cond(*loop_vars) and body(*loop_vars); body returns the new loop vars.
py::list while_loop(py::object cond_fn, py::object body_fn, const std::vector<Tensor>& vars) {
  for (auto [fn, arg] : {std::pair{&cond_fn, "cond"}, std::pair{&body_fn, "body"}}) {
    if (!PyCallable_Check(fn->ptr())) {
      throw py::type_error(str("while_loop: argument '", arg, "' expected a callable, got ",
                               Py_TYPE(fn->ptr())->tp_name));
    }
  }
  auto c = hold(std::move(cond_fn));
  auto b = hold(std::move(body_fn));
  jit::LoopCond loop_cond = [c](const std::vector<Tensor>& v) {
    py::gil_scoped_acquire gil;
    py::object r = (*c)(*py::tuple(py::cast(v)));
    if (!is_tensor(r)) {
      throw py::type_error(
          str("while_loop: argument 'cond' expected to return a bool Tensor, "
              "got ",
              Py_TYPE(r.ptr())->tp_name));
    }
    return *as_tensor_ptr(r);
  };
  jit::LoopBody loop_body = [b](const std::vector<Tensor>& v) {
    py::gil_scoped_acquire gil;
    Shape shape;
    return tensors_of((*b)(*py::tuple(py::cast(v))), "while_loop", "body", &shape);
  };
  return py::cast(jit::while_loop(loop_cond, loop_body, vars));
}

py::object switch_case(const Tensor& index, const std::vector<std::pair<int64_t, py::object>>& fns,
                       py::object default_fn) {
  FirstShape first = std::make_shared<std::optional<Shape>>();
  std::vector<std::pair<int64_t, jit::Branch>> branches;
  for (const auto& [k, fn] : fns) {
    if (fn.is_none()) {
      throw py::type_error(str("switch_case: argument 'branch_fns' expected a callable for index ",
                               k, ", got None"));
    }
    branches.emplace_back(k, branch_of(fn, "switch_case", "branch_fns", first));
  }
  jit::Branch d = default_fn.is_none()
                      ? jit::Branch()
                      : branch_of(std::move(default_fn), "switch_case", "default", first);
  std::vector<Tensor> out = jit::switch_case(index, branches, d);
  return structured(std::move(out), first->value_or(Shape::kNone));
}

}  // namespace

void bind_control_flow(py::module_& m) {
  m.def("cond", &cond, py::arg("pred"), py::arg("true_fn"), py::arg("false_fn"),
        "Runs true_fn or false_fn on a bool scalar (captured: a cf.if op)");
  m.def("while_loop", &while_loop, py::arg("cond"), py::arg("body"), py::arg("loop_vars"),
        "While cond(*vars): vars = body(*vars) (captured: a cf.while op)");
  m.def("switch_case", &switch_case, py::arg("branch_index"), py::arg("branch_fns"),
        py::arg("default"), "Runs the branch of an integer scalar index (nested cf.if ops)");
}

}  // namespace skiff::python
