// skiff._C.jit: the capture machinery (skiff/runtime/jit) and the executor for Python, the layer
// under paddle.static (python/skiff/static) and paddle.jit.to_static.
//   Capture          a program under construction; activate()/deactivate() make it the thread's
//                    current capture (stack order: program_guard nests); ops on its symbolic
//                    tensors append IR ops; snapshot(fetch) copies it, finished, with extra outputs
//   Program          a finished program: text, inputs, outputs; compile() -> CompiledProgram
//   CompiledProgram  the program after DCE and lower-to-kernel, with its executor: run(feeds)
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/passes/pass.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/ops/ir/lower_to_kernel.h"
#include "skiff/python/bind.h"
#include "skiff/python/convert.h"
#include "skiff/runtime/executor/executor.h"
#include "skiff/runtime/jit/capture.h"

namespace skiff::python {

namespace {

using ProgramPtr = std::shared_ptr<jit::CapturedProgram>;

/// A program compiled for the executor. The executor keeps references into the program, so both
/// live here together.
struct CompiledProgram {
  ProgramPtr program;
  std::unique_ptr<executor::Executor> exec;
};

/// The names of the op.data ops of `p`, in program order (what a run must be fed).
std::vector<std::string> data_names(const ir::Program& p) {
  std::vector<std::string> out;
  for (ir::Operation* op = p.block()->front(); op; op = op->next()) {
    if (op->name() == ir::op::DataOp::kName) out.push_back(ir::op::DataOp(op).name());
  }
  return out;
}

/// Copies `src`, prunes what no output or update needs (inputs included: a run is fed only what
/// the fetched values depend on), lowers it to the kernel dialect and builds its executor.
std::shared_ptr<CompiledProgram> compile(const jit::CapturedProgram& src, bool parallel) {
  auto p = std::make_shared<jit::CapturedProgram>();
  p->context = src.context;
  p->program = src.program->clone();
  p->params = src.params;
  p->outputs = src.outputs;
  p->updates = src.updates;
  ir::PassManager pm(p->context.get());
  pm.add_pass(ir::create_dce_pass());
  pm.run(*p->program);
  for (ir::Operation* op = p->program->block()->front(); op;) {
    ir::Operation* next = op->next();
    if (op->name() == ir::op::DataOp::kName && op->use_empty()) op->erase();
    op = next;
  }
  p->inputs = data_names(*p->program);
  ir::PassManager lower(p->context.get());
  lower.add_pass(ops::ir_bridge::create_lower_to_kernel_pass());
  lower.run(*p->program);
  auto c = std::make_shared<CompiledProgram>();
  c->program = p;
  executor::ExecutorOptions options;
  options.parallel = parallel;
  c->exec = std::make_unique<executor::Executor>(*p, options);
  return c;
}

/// A Tensor handle, symbolic ones included (tensor_arg refuses those outside a capture, as ops
/// must; the program API takes them at any time).
Tensor any_tensor(py::handle h, const char* op, const char* arg) {
  const Tensor* t = as_tensor_ptr(h);
  if (t == nullptr) throw py::type_error(str(op, ": argument '", arg, "' expected a Tensor"));
  return *t;
}

/// A Tensor, or a list of Tensors where None stands for an undefined one (a default seed).
std::vector<Tensor> tensors(py::handle h, const char* op, const char* arg) {
  if (h.is_none()) return {};
  if (is_tensor(h)) return {any_tensor(h, op, arg)};
  std::vector<Tensor> out;
  for (py::handle item : h) out.push_back(item.is_none() ? Tensor() : any_tensor(item, op, arg));
  return out;
}

py::list to_list(std::vector<Tensor> ts) {
  py::list out;
  for (auto& t : ts) out.append(t.defined() ? py::cast(std::move(t)) : py::none());
  return out;
}

}  // namespace

void bind_jit(py::module_& m) {
  py::class_<jit::CapturedProgram, ProgramPtr>(m, "Program", "A finished captured program")
      .def("text", [](const jit::CapturedProgram& p) { return p.program->print(); })
      .def("__str__", [](const jit::CapturedProgram& p) { return p.program->print(); })
      .def_property_readonly("inputs", [](const jit::CapturedProgram& p) { return p.inputs; })
      .def_property_readonly("outputs", [](const jit::CapturedProgram& p) { return p.outputs; })
      .def_property_readonly("num_updates",
                             [](const jit::CapturedProgram& p) { return p.updates.size(); })
      .def(
          "compile",
          [](const jit::CapturedProgram& p, bool parallel) { return compile(p, parallel); },
          py::arg("parallel") = false);

  py::class_<CompiledProgram, std::shared_ptr<CompiledProgram>>(m, "CompiledProgram")
      .def_property_readonly("inputs",
                             [](const CompiledProgram& c) { return c.program->inputs; })
      .def_property_readonly("outputs",
                             [](const CompiledProgram& c) { return c.program->outputs; })
      .def("text", [](const CompiledProgram& c) { return c.program->program->print(); })
      .def(
          "run",
          [](CompiledProgram& c, py::handle feeds) {
            std::vector<DenseTensor> dense;
            for (const Tensor& t : tensors(feeds, "CompiledProgram.run", "feeds")) {
              dense.push_back(t.dense());
            }
            std::vector<DenseTensor> out;
            {
              py::gil_scoped_release release;
              out = c.exec->run(dense);
            }
            py::list result;
            for (auto& d : out) result.append(py::cast(Tensor(std::move(d))));
            return result;
          },
          py::arg("feeds"))
      .def_property_readonly("planned_peak_bytes",
                             [](const CompiledProgram& c) { return c.exec->planned_peak_bytes(); })
      .def_property_readonly("measured_peak_bytes", [](const CompiledProgram& c) {
        return c.exec->measured_peak_bytes();
      });

  py::class_<jit::CaptureScope>(m, "Capture", "A program under construction")
      .def(py::init([] {
        return std::make_unique<jit::CaptureScope>(jit::default_context(),
                                                   jit::CaptureScope::Activation::kLater);
      }))
      .def("activate", &jit::CaptureScope::activate)
      .def("deactivate", &jit::CaptureScope::deactivate)
      .def_property_readonly("active", &jit::CaptureScope::active)
      .def(
          "input",
          [](jit::CaptureScope& c, std::vector<int64_t> shape, py::handle dtype,
             std::string name) {
            return c.input({std::move(shape), dtype_arg(dtype, "data", "dtype"), std::move(name)});
          },
          py::arg("shape"), py::arg("dtype"), py::arg("name"))
      .def(
          "output",
          [](jit::CaptureScope& c, py::handle t, const std::string& name) {
            c.output(any_tensor(t, "Capture.output", "t"), name);
          },
          py::arg("t"), py::arg("name"))
      .def(
          "update",
          [](jit::CaptureScope& c, py::handle param, py::handle value) {
            c.update(any_tensor(param, "Capture.update", "param"),
                     any_tensor(value, "Capture.update", "value"));
          },
          py::arg("param"), py::arg("value"))
      .def("text",
           [](const jit::CaptureScope& c) {
             SKIFF_ENFORCE(c.program() != nullptr, kPrecondition, "Capture", "text",
                           "an unfinished capture", "a finished one");
             return c.program()->print();
           })
      .def("owns", [](const jit::CaptureScope& c, py::handle t) {
        return is_tensor(t) && c.owns(*as_tensor_ptr(t));
      })
      .def_property_readonly("num_ops", &jit::CaptureScope::num_ops)
      .def(
          "snapshot",
          [](const jit::CaptureScope& c, py::handle fetch, const std::vector<std::string>& names,
             bool with_updates, py::handle max_ops) {
            auto p = std::make_shared<jit::CapturedProgram>(
                c.snapshot(tensors(fetch, "Capture.snapshot", "fetch"), names, with_updates,
                           max_ops.is_none() ? SIZE_MAX : max_ops.cast<size_t>()));
            return p;
          },
          py::arg("fetch"), py::arg("names"), py::arg("with_updates") = true,
          py::arg("max_ops") = py::none())
      .def("finish", [](jit::CaptureScope& c) {
        return std::make_shared<jit::CapturedProgram>(c.finish());
      });

  m.def("is_capturing", &jit::capturing);
  m.def(
      "gradients",
      [](py::handle outputs, py::handle inputs, py::handle grad_outputs) {
        return to_list(jit::gradients(tensors(outputs, "gradients", "outputs"),
                                      tensors(inputs, "gradients", "inputs"),
                                      tensors(grad_outputs, "gradients", "grad_outputs")));
      },
      py::arg("outputs"), py::arg("inputs"), py::arg("grad_outputs") = py::none());
  m.def(
      "update_parameter",
      [](py::handle param, py::handle value) {
        jit::update_parameter(any_tensor(param, "update_parameter", "param"),
                              any_tensor(value, "update_parameter", "value"));
      },
      py::arg("param"), py::arg("value"));
}

}  // namespace skiff::python
