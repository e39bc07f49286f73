// skiff._C.jit: the capture machinery of skiff/runtime/jit for the Python layer
// (python/skiff/jit builds to_static, jit.save/load on it; python/skiff/static the static API).
//   Capture       a program under construction; activate()/deactivate() make it the thread's
//                 current capture, so every op called meanwhile appends to it
//   Program       a finished program: text, inputs/outputs, split into forward and backward
//   CompiledProgram  a program lowered to kernels with its executor: run(list of Tensors)
// paddle.static adds: Capture.snapshot (Executor.run compiles a copy of a program still being
// built, with the fetch list as outputs), Capture.owns/num_ops, Program.prune.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/passes/pass.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/python/bind.h"
#include "skiff/python/convert.h"
#include "skiff/python/result.h"
#include "skiff/runtime/jit/capture.h"
#include "skiff/runtime/jit/partition.h"
#include "skiff/runtime/jit/static_function.h"
#include "skiff/runtime/jit/symbolic_tensor.h"

namespace skiff::python {

namespace {

using jit::CapturedProgram;

struct PyProgram {
  std::shared_ptr<CapturedProgram> p;
  const CapturedProgram& get() const { return *p; }
};

py::list params_of(const std::vector<std::pair<std::string, Tensor>>& params) {
  py::list out;
  for (const auto& [name, t] : params) out.append(py::make_tuple(name, t));
  return out;
}

// The Python Capture object; finish() hands the program over and leaves it empty.
struct PyCapture {
  std::unique_ptr<jit::CaptureScope> s;
};

jit::CaptureScope& scope_of(PyCapture& c) {
  std::unique_ptr<jit::CaptureScope>& s = c.s;
  SKIFF_ENFORCE(s != nullptr, kPrecondition, "capture", "self", "an unfinished capture",
                "a finished one");
  return *s;
}

// `with _C.jit.suspend():` (explicit enter/exit: Python may keep the object alive longer).
struct Suspend {
  std::optional<jit::CaptureSuspension> on;
};

/// A Tensor, or a list of them (symbolic ones included: tensor_arg refuses those outside a
/// capture, as ops must, while the program API takes them at any time).
std::vector<Tensor> any_tensors(py::handle h, const char* op, const char* arg) {
  std::vector<Tensor> out;
  auto one = [&](py::handle x) {
    const Tensor* t = as_tensor_ptr(x);
    if (t == nullptr) throw py::type_error(str(op, ": argument '", arg, "' expected Tensors"));
    out.push_back(*t);
  };
  if (as_tensor_ptr(h) != nullptr) {
    one(h);
  } else {
    for (py::handle x : h) one(x);
  }
  return out;
}

/// A copy of `p` without what no output or update needs; inputs too, so a run is fed only what
/// the fetched values depend on (Paddle's pruning of a program to its fetch list).
CapturedProgram pruned(const CapturedProgram& p) {
  CapturedProgram r = jit::clone_program(p);
  ir::PassManager pm(r.context.get());
  pm.add_pass(ir::create_dce_pass());
  pm.run(*r.program);
  r.inputs.clear();
  std::vector<std::pair<std::string, Tensor>> params;
  for (ir::Operation* op = r.program->block()->front(); op;) {
    ir::Operation* next = op->next();
    if (op->name() == ir::op::DataOp::kName && op->use_empty()) {
      op->erase();  // nothing below may touch `op`
    } else if (op->name() == ir::op::DataOp::kName) {
      r.inputs.push_back(ir::op::DataOp(op).name());
    } else if (op->name() == ir::ParameterOp::kName) {  // only the parameters still used
      const std::string& name = ir::ParameterOp(op).param_name();
      for (const auto& p : r.params) {
        if (p.first == name) params.push_back(p);
      }
    }
    op = next;
  }
  r.params = std::move(params);
  return r;
}

/// The top-level ops of `p` in program order (Paddle's block.ops types).
std::vector<std::string> op_names(const ir::Program& p) {
  std::vector<std::string> out;
  for (ir::Operation* op = p.block()->front(); op; op = op->next()) out.emplace_back(op->name());
  return out;
}

/// The names of what CompiledProgram.run returns: the outputs that are not parameter updates.
std::vector<std::string> returned_outputs(const jit::CompiledProgram& c) {
  std::vector<std::string> out;
  for (const std::string& name : c.program().outputs) {
    bool update = false;
    for (const auto& u : c.program().updates) update = update || u.first == name;
    if (!update) out.push_back(name);
  }
  return out;
}

}  // namespace

void bind_jit(py::module_& m) {
  py::class_<PyCapture>(m, "Capture")
      .def(py::init([] {
        return PyCapture{std::make_unique<jit::CaptureScope>(
            jit::default_context(), jit::CaptureScope::Activation::kLater)};
      }))
      .def("activate", [](PyCapture& s) { scope_of(s).activate(); })
      .def("deactivate", [](PyCapture& s) { scope_of(s).deactivate(); })
      .def_property_readonly("active",
                             [](const PyCapture& c) { return c.s != nullptr && c.s->active(); })
      .def(
          "input",
          [](PyCapture& s, const std::vector<int64_t>& shape, py::handle dtype,
             const std::string& name) {
            jit::InputSpec spec{shape, dtype_arg(dtype, "capture.input", "dtype"), name};
            return scope_of(s).input(spec);
          },
          py::arg("shape"), py::arg("dtype"), py::arg("name") = "")
      .def(
          "output",
          [](PyCapture& s, const Tensor& t, const std::string& name) {
            scope_of(s).output(t, name);
          },
          py::arg("tensor"), py::arg("name"))
      .def(
          "update",
          [](PyCapture& s, const Tensor& param, const Tensor& value) {
            scope_of(s).update(param, value);
          },
          py::arg("param"), py::arg("value"))
      .def("text", [](PyCapture& s) { return scope_of(s).program()->print(); })
      .def(
          "snapshot",
          [](PyCapture& s, py::handle fetch, const std::vector<std::string>& names,
             bool with_updates, py::handle max_ops, bool for_test) {
            return PyProgram{std::make_shared<CapturedProgram>(scope_of(s).snapshot(
                any_tensors(fetch, "Capture.snapshot", "fetch"), names, with_updates,
                max_ops.is_none() ? SIZE_MAX : max_ops.cast<size_t>(), for_test))};
          },
          py::arg("fetch"), py::arg("names"), py::arg("with_updates") = true,
          py::arg("max_ops") = py::none(), py::arg("for_test") = false,
          "A finished copy of the program so far with `fetch` as extra outputs (the capture "
          "goes on)")
      .def(
          "owns",
          [](PyCapture& s, py::handle t) {
            const Tensor* p = as_tensor_ptr(t);
            return p != nullptr && scope_of(s).owns(*p);
          },
          py::arg("tensor"))
      .def_property_readonly("num_ops", [](PyCapture& s) { return scope_of(s).num_ops(); })
      .def_property_readonly("op_names",
                             [](PyCapture& s) { return op_names(*scope_of(s).program()); })
      .def_property_readonly("params", [](PyCapture& s) { return params_of(scope_of(s).params()); })
      .def_property_readonly("written", [](PyCapture& s) { return scope_of(s).written(); })
      .def(
          "set_locator",
          [](PyCapture& s, py::object fn) {
            // Dropped with the capture, possibly by C++: release the callable under the GIL.
            auto f = std::shared_ptr<py::object>(new py::object(std::move(fn)), [](py::object* o) {
              py::gil_scoped_acquire gil;
              delete o;
            });
            scope_of(s).set_locator([f]() -> std::pair<std::string, int64_t> {
              py::gil_scoped_acquire gil;
              py::object r = (*f)();
              if (r.is_none()) return {"", 0};
              auto t = r.cast<py::tuple>();
              return {t[0].cast<std::string>(), t[1].cast<int64_t>()};
            });
          },
          py::arg("locator"),
          "fn() -> (file, line) or None: the user code each captured op comes from")
      .def("finish", [](PyCapture& s) {
        auto p = std::make_shared<CapturedProgram>(scope_of(s).finish());
        s.s.reset();
        return PyProgram{std::move(p)};
      });

  py::class_<PyProgram>(m, "Program")
      .def("text", [](const PyProgram& p) { return p.get().program->print(); })
      .def("__str__", [](const PyProgram& p) { return p.get().program->print(); })
      .def_property_readonly("inputs", [](const PyProgram& p) { return p.get().inputs; })
      .def_property_readonly("outputs", [](const PyProgram& p) { return p.get().outputs; })
      .def_property_readonly("params", [](const PyProgram& p) { return params_of(p.get().params); })
      .def_property_readonly("updates",
                             [](const PyProgram& p) { return params_of(p.get().updates); })
      .def_property_readonly("num_ops",
                             [](const PyProgram& p) { return p.get().program->num_ops(); })
      .def(
          "prune",
          [](const PyProgram& p) {
            return PyProgram{std::make_shared<CapturedProgram>(pruned(p.get()))};
          },
          "A copy without the ops and inputs no output or update needs")
      .def(
          "split",
          [](const PyProgram& p, const std::vector<std::string>& forward_outputs) {
            jit::SplitProgram r = jit::split_forward_backward(p.get(), forward_outputs);
            return py::make_tuple(
                PyProgram{std::make_shared<CapturedProgram>(std::move(r.forward))},
                PyProgram{std::make_shared<CapturedProgram>(std::move(r.backward))}, r.num_saved);
          },
          py::arg("forward_outputs"),
          "Forward and backward programs (Paddle's split for to_static training)")
      .def(
          "compile",
          [](const PyProgram& p, bool parallel, int num_threads, bool in_place_updates) {
            executor::ExecutorOptions options;
            options.parallel = parallel;
            options.num_threads = num_threads;
            return std::make_shared<jit::CompiledProgram>(jit::clone_program(p.get()), options,
                                                          in_place_updates);
          },
          py::arg("parallel") = false, py::arg("num_threads") = 2,
          py::arg("in_place_updates") = true)
      .def_static(
          "parse",
          [](const std::string& text, const std::vector<std::pair<std::string, Tensor>>& params) {
            return PyProgram{std::make_shared<CapturedProgram>(jit::parse_program(text, params))};
          },
          py::arg("text"), py::arg("params"));

  py::class_<jit::CompiledProgram, std::shared_ptr<jit::CompiledProgram>>(m, "CompiledProgram")
      .def(
          "run",
          [](jit::CompiledProgram& c, const std::vector<Tensor>& inputs) {
            std::vector<Tensor> out;
            {
              py::gil_scoped_release release;
              out = c.run(inputs);
            }
            return out;
          },
          py::arg("inputs"))
      .def(
          "run_guarded",
          [](jit::CompiledProgram& c, const std::vector<Tensor>& inputs,
             const std::vector<std::pair<size_t, double>>& guards) -> py::object {
            std::optional<std::vector<Tensor>> out;
            {
              py::gil_scoped_release release;
              out = c.run_guarded(inputs, guards);
            }
            return out ? py::cast(std::move(*out)) : py::none();
          },
          py::arg("inputs"), py::arg("guards"),
          "The outputs, or None when a guard (output index, value) fails (nothing written)")
      .def("text", [](const jit::CompiledProgram& c) { return c.program().program->print(); })
      .def_property_readonly("inputs",
                             [](const jit::CompiledProgram& c) { return c.program().inputs; })
      .def_property_readonly("outputs", &returned_outputs)
      .def_property_readonly(
          "num_instructions",
          [](const jit::CompiledProgram& c) { return c.executor().num_instructions(); })
      .def_property_readonly(
          "planned_peak_bytes",
          [](const jit::CompiledProgram& c) { return c.executor().planned_peak_bytes(); })
      .def_property_readonly("measured_peak_bytes", [](const jit::CompiledProgram& c) {
        return c.executor().measured_peak_bytes();
      });

  m.def("is_capturing", &jit::capturing, "True while a capture is active on this thread");
  // `with _C.jit.suspend():` runs ops eagerly inside a capture.
  py::class_<Suspend>(m, "suspend")
      .def(py::init<>())
      .def("__enter__", [](Suspend& s) { s.on.emplace(); })
      .def("__exit__", [](Suspend& s, py::args) { s.on.reset(); });
  m.def(
      "gradients",
      [](const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
         py::handle grad_outputs) {
        return to_python_or_none(jit::gradients(
            outputs, inputs, tensors_or_none_arg(grad_outputs, "gradients", "grad_outputs")));
      },
      py::arg("outputs"), py::arg("inputs"), py::arg("grad_outputs") = py::none(),
      "Appends the gradients of outputs w.r.t. inputs to the program being captured");
  m.def("update_parameter", &jit::update_parameter, py::arg("param"), py::arg("value"));
}

}  // namespace skiff::python
