// skiff._C: the pybind11 extension. Python-facing code lives in python/skiff; this module holds
// the Tensor type, the generated op functions (skiff._C.ops) and the autograd/framework hooks.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/ops/op_schema.h"
#include "skiff/python/bind.h"

PYBIND11_MODULE(_C, m) {
  namespace sp = skiff::python;
  m.doc() = "Skiff's C++ core: Tensor, ops (generated from the op records), autograd";
  sp::bind_errors(m);
  sp::bind_framework(m);
  sp::bind_tensor(m);
  sp::bind_autograd(m);
  sp::bind_py_layer(m);
  sp::bind_inplace(m);
  sp::bind_checkpoint(m);
  auto device =
      m.def_submodule("device", "Device plugins and the CPU fallback (skiff/device/plugin)");
  sp::bind_device(device);
  auto jit = m.def_submodule("jit", "Captures into IR programs and their executor (to_static)");
  sp::bind_jit(jit);
  sp::bind_control_flow(jit);
  auto profiler = m.def_submodule("profiler", "Profiler sessions, RecordEvent, results");
  sp::bind_profiler(profiler);
  auto comm = m.def_submodule("comm", "Process groups and the TCP store (skiff/comm)");
  sp::bind_comm(comm);
  auto dist = m.def_submodule("dist", "Distributed tensors and reshard (skiff/dist)");
  sp::bind_dist(dist);
  auto inference = m.def_submodule("inference", "The C++ predictor (include/skiff/inference.h)");
  sp::bind_inference(inference);
  auto ops = m.def_submodule("ops", "Every op record, with the record's argument names");
  sp::bind_ops(ops);
  m.def("op_names", &sp::op_names, "Names of every bound op record");
  m.def("inplace_names", &sp::inplace_names, "The bound in-place variants (add_, exp_, ...)");
  m.def(
      "op_schema",
      [](const std::string& name) {
        const auto& s = skiff::ops::op_schema(name);
        pybind11::list args, outputs, grads;
        for (const auto& a : s.args) {
          args.append(pybind11::make_tuple(
              a.name, std::string(skiff::ops::arg_kind_name(a.kind)),
              a.default_value ? pybind11::cast(skiff::ops::attr_to_string(*a.default_value))
                              : pybind11::object(pybind11::none())));
        }
        for (const auto& o : s.outputs) outputs.append(pybind11::make_tuple(o.name, o.is_list));
        for (const auto& g : s.grad_inputs) grads.append(g);
        pybind11::dict d;
        d["name"] = s.name;
        d["args"] = args;
        d["outputs"] = outputs;
        d["differentiable"] = s.differentiable;
        d["is_view"] = s.is_view;
        d["is_random"] = s.is_random;
        d["grad_inputs"] = grads;
        d["signature"] = s.signature;
        return d;
      },
      pybind11::arg("name"), "The op record's run-time schema as a dict");
}
