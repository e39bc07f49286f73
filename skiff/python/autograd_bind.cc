// The autograd API the Python layer builds on: grad mode, backward, grad, tensor hooks.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/ops/amp_class.h"
#include "skiff/python/bind.h"
#include "skiff/python/convert.h"
#include "skiff/python/result.h"
#include "skiff/runtime/eager/amp_mode.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/grad_node.h"
#include "skiff/runtime/eager/saved_tensor_hooks.h"

namespace skiff::python {

namespace {

/// A Python hook owned by a tensor's grad node; remove() disables it (Paddle's handle API).
struct HookHandle {
  std::shared_ptr<py::object> fn;
  std::shared_ptr<bool> active = std::make_shared<bool>(true);
  void remove() { *active = false; }
};

/// A Python callable kept by C++ closures; dropped under the GIL from any thread.
std::shared_ptr<py::object> hold_callable(py::object fn) {
  return std::shared_ptr<py::object>(new py::object(std::move(fn)), [](py::object* o) {
    py::gil_scoped_acquire gil;
    delete o;
  });
}

constexpr const char* kLevels[] = {"O0", "OD", "O1", "O2"};

py::tuple amp_state_tuple(const amp::AmpState& s) {
  return py::make_tuple(kLevels[static_cast<int>(s.level)], std::string(dtype_name(s.dtype)),
                        s.use_promote, std::vector<std::string>(s.white.begin(), s.white.end()),
                        std::vector<std::string>(s.black.begin(), s.black.end()));
}

amp::Level parse_level(const std::string& level) {
  for (int i = 0; i < 4; ++i) {
    if (level == kLevels[i]) return static_cast<amp::Level>(i);
  }
  SKIFF_THROW(kInvalidArgument, "auto_cast", "level", "O0, OD, O1 or O2", level);
}

// paddle.amp's C side: the thread's auto_cast state and the records' lists.
void bind_amp(py::module_& m) {
  m.def(
      "set_state",
      [](const std::string& level, const std::string& dtype, bool use_promote,
         const std::vector<std::string>& white, const std::vector<std::string>& black) {
        amp::AmpState s;
        s.level = parse_level(level);
        s.dtype = parse_dtype(dtype);
        s.use_promote = use_promote;
        s.white.insert(white.begin(), white.end());
        s.black.insert(black.begin(), black.end());
        return amp_state_tuple(amp::set_thread_state(std::move(s)));
      },
      py::arg("level"), py::arg("dtype"), py::arg("use_promote"), py::arg("white"),
      py::arg("black"),
      "Installs this thread's auto_cast state; returns the previous one as (level, dtype, "
      "use_promote, white, black)");
  m.def("state", [] { return amp_state_tuple(amp::thread_state()); });
  m.def(
      "op_lists",
      [](const std::string& dtype) {
        const DType d = parse_dtype(dtype);
        std::vector<std::string> white, black;
        for (const ops::OpSchema& s : ops::all_op_schemas()) {
          const ops::AmpClass c = ops::amp_class(s.id, d);
          if (c == ops::AmpClass::kWhite) white.push_back(s.name);
          if (c == ops::AmpClass::kBlack) black.push_back(s.name);
        }
        return py::make_tuple(white, black);
      },
      py::arg("dtype"), "The records' (white, black) op names for an AMP dtype");
}

}  // namespace

void bind_autograd(py::module_& m) {
  auto amp_module = m.def_submodule("amp", "auto_cast state (skiff/runtime/eager/amp_mode.h)");
  bind_amp(amp_module);
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

  // Note [saved tensor hooks]: the packed form is a 0-element uint8 tensor whose storage "data"
  // is the object pack_hook returned (owned by the storage: released under the GIL with it).
  m.def(
      "_push_saved_tensors_hooks",
      [](py::object pack_hook, py::object unpack_hook) {
        auto pack_fn = hold_callable(std::move(pack_hook));
        auto unpack_fn = hold_callable(std::move(unpack_hook));
        auto hooks = std::make_shared<autograd::SavedTensorHooks>();
        hooks->pack = [pack_fn](const Tensor& t) -> Tensor {
          py::gil_scoped_acquire gil;
          py::object r = (*pack_fn)(py::cast(t));
          PyObject* raw = r.release().ptr();
          auto storage = std::make_shared<Storage>(raw, 0, Place::cpu(), [raw] {
            if (!Py_IsInitialized()) return;
            py::gil_scoped_acquire gil;
            Py_DECREF(raw);
          });
          return Tensor(DenseTensor(std::move(storage), DType::kUInt8, Dims({0}), Dims({1}), 0));
        };
        hooks->unpack = [unpack_fn](const Tensor& packed) -> Tensor {
          py::gil_scoped_acquire gil;
          auto* raw = static_cast<PyObject*>(packed.dense().storage()->data());
          py::object r = (*unpack_fn)(py::reinterpret_borrow<py::object>(raw));
          if (r.is_none()) return Tensor();
          return tensor_arg(r, "saved_tensors_hooks", "unpack_hook result");
        };
        autograd::push_saved_tensor_hooks(std::move(hooks));
      },
      py::arg("pack_hook"), py::arg("unpack_hook"));
  m.def("_pop_saved_tensors_hooks", &autograd::pop_saved_tensor_hooks);

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
