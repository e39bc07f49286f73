// skiff.Tensor: the C++ Tensor handle bound directly (no Python wrapper object in between), with
// a __dict__ so Python subclasses (nn parameters) keep their own attributes. Properties, numpy
// interop and the Python operators live here; methods that mirror functions are attached from
// Python (python/skiff/tensor/methods.py) as instance methods of the bound op functions.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <span>

#include "skiff/core/views.h"
#include "skiff/ops/dispatch.h"
#include "skiff/ops/generated/api.h"
#include "skiff/python/bind.h"
#include "skiff/python/convert.h"
#include "skiff/python/result.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/detach_hook.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/grad_node.h"
#include "skiff/runtime/jit/capture_state.h"
#include "skiff/runtime/jit/symbolic_tensor.h"

namespace skiff::python {

namespace {

const Tensor& defined(const Tensor& t, const char* what) {
  SKIFF_ENFORCE(t.defined(), kPrecondition, what, "self", "an initialized tensor",
                "an empty Tensor()");
  return t;
}

/// A numpy array over the tensor's memory (read-only: writes through it would bypass the
/// version counters autograd relies on), or over a contiguous/float32 copy when the tensor is
/// strided, bfloat16 or not on the CPU (then writable: nobody else sees it).
/// Reading the value of a symbolic tensor (a function being captured by to_static): the hook
/// python/skiff/jit/value_guard.py installs decides, speculating a guarded bool or int value, or
/// raising an error that names the user's line. Only a symbolic tensor pays for it.
// Note [stop_gradient on integer tensors]: Paddle lets code set stop_gradient = False on an
// integer tensor (it reads back False), and no gradient flows through it. The engine's state
// stays stop_gradient = true (autograd records nothing for it); the flag the user set lives in
// the Python object's attributes, which the getter reads only for a non-floating tensor.
constexpr const char* kIntRequiresGrad = "_skiff_int_requires_grad";

bool int_requires_grad_flag(py::handle self) {
  PyObject* d = PyObject_GenericGetDict(self.ptr(), nullptr);
  if (d == nullptr) {
    PyErr_Clear();
    return false;
  }
  PyObject* v = PyDict_GetItemString(d, kIntRequiresGrad);  // borrowed
  const bool set = v == Py_True;
  Py_DECREF(d);
  return set;
}

void set_int_requires_grad_flag(py::handle self, bool wants_grad) {
  if (wants_grad) {
    py::setattr(self, kIntRequiresGrad, py::bool_(true));
  } else if (py::hasattr(self, kIntRequiresGrad)) {
    py::delattr(self, kIntRequiresGrad);
  }
}

py::object& symbolic_read_hook() {
  static auto* hook = new py::object();
  return *hook;
}

py::object read_symbolic(const Tensor& t, const char* what) {
  SKIFF_ENFORCE(symbolic_read_hook(), kPrecondition, what, "self", "a tensor with data",
                "a symbolic tensor of a program being captured");
  return symbolic_read_hook()(t, what);
}

/// The tensor's values as a numpy array: a read-only view of its memory where it can be one
/// (`shared_view`: np.asarray(t) through __array__), else, and always for Tensor.numpy(), an
/// array of its own that may be written (Paddle's numpy() returns a copy).
py::array to_numpy(const Tensor& t, bool shared_view) {
  if (jit::as_symbolic(t) != nullptr) {
    // Arrays are never speculated: the hook raises.
    read_symbolic(t, shared_view ? "__array__" : "numpy");
    SKIFF_THROW(kInternal, "numpy", "self", "an error for a symbolic tensor", "none");
  }
  DenseTensor d = defined(t, "numpy").dense();
  if (!d.place().is_cpu()) d = d.copy_to(Place::cpu());
  if (d.dtype() == DType::kBFloat16) d = cast_data(d, DType::kFloat32);
  if (!d.is_contiguous()) d = d.contiguous();
  const bool shared = d.shares_storage_with(t.dense());
  std::vector<py::ssize_t> shape(d.dims().begin(), d.dims().end());
  if (d.numel() == 0) return py::array(numpy_dtype(d.dtype()), shape);
  std::vector<py::ssize_t> strides;
  for (int64_t s : d.strides()) strides.push_back(s * d.itemsize());
  py::capsule keep(new std::shared_ptr<Storage>(d.storage()),
                   [](void* p) { delete static_cast<std::shared_ptr<Storage>*>(p); });
  py::array a(numpy_dtype(d.dtype()), shape, strides, d.raw_data(), keep);
  if (!shared) return a;
  if (!shared_view) return a.attr("copy")();
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

using BinaryFn = Tensor (*)(const Tensor&, const Tensor&);

/// `self op other` (reflected: `other op self`). A value that cannot become a tensor returns
/// NotImplemented so Python tries the other operand (and `t == None` is False).
py::object binary(BinaryFn fn, const char* op, py::handle self, py::handle other, bool reflected) {
  const Tensor& a = defined(*as_tensor_ptr(self), op);
  if (other.is_none()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  Tensor b;
  try {
    b = operand_arg(other, &a, op, "y");
  } catch (const py::type_error&) {
    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  }
  return to_python(reflected ? fn(b, a) : fn(a, b));
}

template <BinaryFn Fn>
void def_binary(py::class_<Tensor>& cls, const char* name, const char* rname, const char* op) {
  cls.def(
      name, [op](py::handle s, py::handle o) { return binary(Fn, op, s, o, false); },
      py::is_operator());
  if (rname != nullptr) {
    cls.def(
        rname, [op](py::handle s, py::handle o) { return binary(Fn, op, s, o, true); },
        py::is_operator());
  }
}

template <BinaryFn Fn>
void def_inplace(py::class_<Tensor>& cls, const char* name, const char* op) {
  cls.def(
      name,
      [op](py::handle self, py::handle other) -> py::object {
        const Tensor& a = defined(*as_tensor_ptr(self), op);
        if (other.is_none()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        Fn(a, operand_arg(other, &a, op, "y"));
        return py::reinterpret_borrow<py::object>(self);
      },
      py::is_operator());
}

Tensor wrap_matmul(const Tensor& x, const Tensor& y) { return skiff::matmul(x, y); }
Tensor logical_or_bitwise_and(const Tensor& x, const Tensor& y) {
  return x.dtype() == DType::kBool ? skiff::logical_and(x, y) : skiff::bitwise_and(x, y);
}
Tensor logical_or_bitwise_or(const Tensor& x, const Tensor& y) {
  return x.dtype() == DType::kBool ? skiff::logical_or(x, y) : skiff::bitwise_or(x, y);
}
Tensor logical_or_bitwise_xor(const Tensor& x, const Tensor& y) {
  return x.dtype() == DType::kBool ? skiff::logical_xor(x, y) : skiff::bitwise_xor(x, y);
}

py::object power(py::handle self, py::handle other, bool reflected) {
  const Tensor& a = defined(*as_tensor_ptr(self), "pow");
  if (!reflected && !is_tensor(other)) {
    if (PyFloat_Check(other.ptr()) || PyLong_Check(other.ptr())) {
      // Paddle: an int tensor ** float promotes like any scalar operand.
      const Scalar s = scalar_arg(other, "pow", "y");
      const DType dt = promote_with_scalar(a.dtype(), s.kind(), default_dtype());
      return to_python(skiff::pow(dt == a.dtype() ? a : skiff::cast(a, dt), s));
    }
  }
  return binary(&skiff::elementwise_pow, "pow", self, other, reflected);
}

/// The single element as a Python number (the __float__/__int__/__bool__ protocols).
py::object single(const Tensor& t, const char* what) {
  if (jit::as_symbolic(t) != nullptr) return read_symbolic(t, what);
  SKIFF_ENFORCE(defined(t, what).numel() == 1, kInvalidArgument, what, "self",
                "a tensor with exactly one element", str("shape ", t.dims()));
  return to_numpy(t, /*shared_view=*/true).attr("item")();
}

/// Tensor.clear_gradient(set_to_zero): zero the gradient in place (Paddle's default) or drop it.
void clear_gradient(const Tensor& t, bool set_to_zero) {
  auto* m = autograd::autograd_meta(t);
  if (m == nullptr || !m->grad.defined()) return;
  // A gradient computed inside a capture is symbolic: dropping it is what zeroing means there.
  if (!set_to_zero || jit::as_symbolic(m->grad) != nullptr) {
    m->grad = Tensor();
    return;
  }
  if (!m->grad.is_dense()) {  // a distributed gradient: zeros in its layout
    m->grad = skiff::zeros_like(m->grad, m->grad.dtype());
  } else if (DenseTensor& g = m->grad.mutable_dense(); g.storage().use_count() > 1) {
    // The gradient shares its memory (another leaf's gradient, a tensor given to backward):
    // zeroing it in place would zero those too.
    m->grad = skiff::zeros_like(m->grad, g.dtype());
  } else if (g.is_contiguous() && g.place().is_cpu()) {
    std::memset(g.raw_data(), 0, static_cast<size_t>(g.nbytes()));
    g.storage()->bump_version();
  } else {
    g.copy_from(skiff::zeros_like(Tensor(g), g.dtype()).dense());
    g.storage()->bump_version();
  }
  m->zeroed_grad = m->grad.impl_ptr();
  m->zeroed_grad_version = autograd::data_version(m->grad).value_or(0);
}

/// x[index] for the common basic indices (ints, unit-step slices, None, Ellipsis) as one
/// unsqueeze + one slice view, without leaving C++. Anything else (steps, tensors, masks, errors
/// to report) returns null and the Python implementation (tensor/indexing.py) takes over.
py::object basic_getitem(const Tensor& x, py::handle index) {
  py::handle single[1] = {index};
  std::span<py::handle> items(single, 1);
  std::vector<py::handle> tuple_items;
  if (PyTuple_Check(index.ptr())) {
    for (py::handle h : py::reinterpret_borrow<py::tuple>(index)) tuple_items.push_back(h);
    items = tuple_items;
  }
  int consumed = 0, ellipses = 0;
  for (py::handle h : items) {
    if (h.ptr() == Py_Ellipsis) {
      ++ellipses;
    } else if ((PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) || PySlice_Check(h.ptr())) {
      ++consumed;
    } else if (!h.is_none()) {
      return py::object();
    }
  }
  const int rank = x.rank();
  if (ellipses > 1 || consumed > rank) return py::object();
  std::vector<int64_t> new_axes, axes, starts, ends, drop;
  int axis = 0;  // axis of the tensor after the None axes are inserted
  for (py::handle h : items) {
    if (h.ptr() == Py_Ellipsis) {
      axis += rank - consumed;
    } else if (h.is_none()) {
      new_axes.push_back(axis++);
    } else {
      // dims of the unsqueezed tensor: the original dim of this item
      const int64_t n = x.dims()[axis - static_cast<int>(new_axes.size())];
      // A dim known only at run time (a static program): the bounds cannot be resolved here;
      // indexing.py keeps them raw for the op to clamp per run.
      if (n == kDynamicDim) return py::object();
      if (PySlice_Check(h.ptr())) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(h.ptr(), &start, &stop, &step) < 0) throw py::error_already_set();
        PySlice_AdjustIndices(static_cast<Py_ssize_t>(n), &start, &stop, step);
        if (step != 1) return py::object();
        if (start != 0 || stop != n) {
          axes.push_back(axis);
          starts.push_back(start);
          ends.push_back(std::max(start, stop));
        }
      } else {
        int64_t i = PyLong_AsLongLong(h.ptr());
        if (i < -n || i >= n) return py::object();
        if (i < 0) i += n;
        axes.push_back(axis);
        starts.push_back(i);
        ends.push_back(i + 1);
        drop.push_back(axis);
      }
      ++axis;
    }
  }
  Tensor out = new_axes.empty() ? x : skiff::unsqueeze(x, new_axes);
  if (!axes.empty()) out = skiff::slice(out, axes, starts, ends, drop);
  return py::cast(std::move(out));
}

}  // namespace

void assign_into(const Tensor& dst, const Tensor& src) {
  defined(dst, "assign");
  if (jit::capturing()) {
    // Captured functionally: dst stands for the new value from here on (a dense dst, such as a
    // running statistic, is written back after each run of the program).
    Tensor v = defined(src, "assign");
    if (v.dtype() != dst.dtype()) v = cast(v, dst.dtype());
    if (!(v.dims() == dst.dims())) v = broadcast_to(v, dst.shape());
    jit::rebind_inplace("set_value", "self", dst, v);
    return;
  }
  DenseTensor s = defined(src, "assign").dense();
  if (s.dtype() != dst.dtype()) s = cast_data(s, dst.dtype());
  if (s.place() != dst.place() || s.shares_storage_with(dst.dense())) s = s.copy_to(dst.place());
  if (!(s.dims() == dst.dims())) {
    SKIFF_ENFORCE(s.rank() <= dst.rank(), kInvalidArgument, "__setitem__", "value",
                  str("a value broadcastable to ", dst.dims()), str("shape ", s.dims()));
    for (int i = 0; i < s.rank(); ++i) {
      const int64_t have = s.dims()[i], want = dst.dims()[dst.rank() - s.rank() + i];
      SKIFF_ENFORCE(have == want || have == 1, kInvalidArgument, "__setitem__", "value",
                    str("a value broadcastable to ", dst.dims()), str("shape ", s.dims()));
    }
    s = view_expand(s, dst.dims());
  }
  DenseTensor d = dst.dense();
  d.copy_from(s);
  d.storage()->bump_version();
}

void bind_tensor(py::module_& m) {
  py::class_<Tensor> cls(m, "Tensor", py::dynamic_attr());
  set_tensor_type(reinterpret_cast<PyTypeObject*>(cls.ptr()));
  cls.def(py::init<>())
      .def(py::init([](py::handle value, py::handle dtype, py::handle place, bool stop_gradient) {
             // Tensor(t) is another handle to t (same data and autograd state): what
             // Parameter subclasses wrap. Tensor(data) converts like to_tensor.
             if (const Tensor* t = as_tensor_ptr(value)) {
               if (dtype.is_none() && place.is_none()) return Tensor(*t);
             }
             Tensor t = tensor_from_data(value, dtype_arg(dtype, "Tensor", "dtype"),
                                         place_arg(place, "Tensor", "place"), "Tensor");
             // An integer tensor: Note [stop_gradient on integer tensors] (no gradient flows).
             if (!stop_gradient && is_differentiable(t.dtype())) {
               autograd::set_stop_gradient(t, false);
             }
             return t;
           }),
           py::arg("value"), py::arg("dtype") = py::none(), py::arg("place") = py::none(),
           py::arg("stop_gradient") = true)
      .def_property_readonly("shape", [](const Tensor& t) { return defined(t, "shape").shape(); })
      .def_property_readonly("dtype", [](const Tensor& t) { return defined(t, "dtype").dtype(); })
      .def_property_readonly(
          "place", [](const Tensor& t) { return place_to_python(defined(t, "place").place()); })
      .def_property_readonly("ndim", [](const Tensor& t) { return defined(t, "ndim").rank(); })
      .def("dim", [](const Tensor& t) { return defined(t, "dim").rank(); })
      .def("ndimension", [](const Tensor& t) { return defined(t, "ndimension").rank(); })
      .def_property_readonly("size", [](const Tensor& t) { return defined(t, "size").numel(); })
      .def("numel",
           [](const Tensor& t) {
             return scalar_tensor(Scalar(defined(t, "numel").numel()), DType::kInt64);
           })
      .def("element_size", [](const Tensor& t) { return dtype_size(defined(t, "x").dtype()); })
      .def("_is_initialized", [](const Tensor& t) { return t.defined(); })
      .def("is_contiguous", [](const Tensor& t) { return defined(t, "x").dense().is_contiguous(); })
      .def("contiguous",
           [](const Tensor& t) {
             const DenseTensor& d = defined(t, "contiguous").dense();
             return d.is_contiguous() ? t : skiff::assign(t);
           })
      .def("get_strides",
           [](const Tensor& t) { return defined(t, "x").dense().strides().to_vector(); })
      .def("data_ptr",
           [](const Tensor& t) {
             return reinterpret_cast<intptr_t>(defined(t, "data_ptr").dense().raw_data());
           })
      .def("_inplace_version",
           [](const Tensor& t) { return defined(t, "x").dense().storage()->version(); })
      .def("_share_memory_with",
           [](const Tensor& a, const Tensor& b) {
             return a.defined() && b.defined() && a.dense().shares_storage_with(b.dense());
           })
      .def("_is_same", [](const Tensor& a, const Tensor& b) { return a.impl() == b.impl(); })
      .def_property(
          "stop_gradient",
          [](py::handle self) {
            const Tensor& t = self.cast<const Tensor&>();
            if (autograd::requires_grad(t)) return false;
            return is_differentiable(t.dtype()) || !int_requires_grad_flag(self);
          },
          [](py::handle self, bool v) {
            const Tensor& t = defined(self.cast<const Tensor&>(), "stop_gradient");
            if (is_differentiable(t.dtype())) return autograd::set_stop_gradient(t, v);
            set_int_requires_grad_flag(self, !v);
          })
      .def_property(
          "grad",
          [](const Tensor& t) -> py::object {
            auto* m = autograd::autograd_meta(t);
            if (m == nullptr || !m->grad.defined()) return py::none();
            return py::cast(m->grad);
          },
          [](const Tensor& t, py::handle g) {
            auto& m = autograd::ensure_autograd_meta(defined(t, "grad"));
            m.grad = g.is_none() ? Tensor() : tensor_arg(g, "grad", "value");
          })
      .def_property_readonly("is_leaf", [](const Tensor& t) { return autograd::is_leaf(t); })
      .def_property_readonly(
          "is_symbolic",
          [](const Tensor& t) { return t.defined() && t.kind() == TensorKind::kSymbolic; },
          "True for a tensor of a program being built (a static-graph variable)")
      .def(
          "backward",
          [](const Tensor& t, py::handle grad_tensor, bool retain_graph) {
            std::vector<Tensor> grads;
            if (!grad_tensor.is_none())
              grads.push_back(tensor_arg(grad_tensor, "backward", "grad_tensor"));
            autograd::backward({defined(t, "backward")}, grads, retain_graph);
          },
          py::arg("grad_tensor") = py::none(), py::arg("retain_graph") = false)
      .def("clear_gradient", &clear_gradient, py::arg("set_to_zero") = true)
      .def("clear_grad", &clear_gradient, py::arg("set_to_zero") = true)
      .def("detach", [](const Tensor& t) { return autograd::detach(defined(t, "detach")); })
      .def("retain_grads",
           [](const Tensor& t) { autograd::retain_grads(defined(t, "retain_grads")); })
      // Paddle's numpy() takes optional arguments (METH_VARARGS | METH_KEYWORDS) it ignores.
      .def("numpy", [](const Tensor& t, const py::args&,
                       const py::kwargs&) { return to_numpy(t, /*shared_view=*/false); })
      .def(
          "__array__",
          [](const Tensor& t, py::handle dtype) -> py::object {
            py::array a = to_numpy(t, /*shared_view=*/true);
            return dtype.is_none() ? py::object(a) : a.attr("astype")(dtype);
          },
          py::arg("dtype") = py::none())
      .def("set_value",
           [](const Tensor& t, py::handle value) {
             Tensor v = is_tensor(value)
                            ? *as_tensor_ptr(value)
                            : tensor_from_data(value, t.dtype(), t.place(), "set_value");
             SKIFF_ENFORCE(v.dims() == t.dims(), kInvalidArgument, "set_value", "value",
                           str("shape ", t.dims()), str("shape ", v.dims()));
             assign_into(t, v);
           })
      .def(
          "copy_",
          [](const Tensor& t, const Tensor& src, bool) {
            assign_into(t, src);
            return t;
          },
          py::arg("src"), py::arg("blocking") = true)
      .def("__bool__", [](const Tensor& t) { return single(t, "__bool__").cast<bool>(); })
      .def("__float__", [](const Tensor& t) { return py::float_(single(t, "__float__")); })
      .def("__int__", [](const Tensor& t) { return py::int_(single(t, "__int__")); })
      .def("__index__",
           [](const Tensor& t) {
             SKIFF_ENFORCE(is_integral(defined(t, "__index__").dtype()), kTypeError, "__index__",
                           "self", "an integer tensor", t.dtype());
             return py::int_(single(t, "__index__"));
           })
      .def("__len__",
           [](const Tensor& t) {
             SKIFF_ENFORCE(defined(t, "len").rank() > 0, kTypeError, "len", "self",
                           "a tensor with at least 1 dim", "a 0-D tensor");
             return t.dims()[0];
           })
      .def("__hash__", [](py::handle self) { return reinterpret_cast<intptr_t>(self.ptr()) >> 4; })
      .def("__neg__", [](const Tensor& t) { return skiff::neg(t); })
      .def("__pos__", [](const Tensor& t) { return t; })
      .def("__abs__", [](const Tensor& t) { return skiff::abs(t); })
      .def("__invert__",
           [](const Tensor& t) {
             return t.dtype() == DType::kBool ? skiff::logical_not(t) : skiff::bitwise_not(t);
           })
      .def(
          "__pow__", [](py::handle s, py::handle o) { return power(s, o, false); },
          py::is_operator())
      .def(
          "__rpow__", [](py::handle s, py::handle o) { return power(s, o, true); },
          py::is_operator());
  def_binary<&skiff::add>(cls, "__add__", "__radd__", "add");
  def_binary<&skiff::subtract>(cls, "__sub__", "__rsub__", "subtract");
  def_binary<&skiff::multiply>(cls, "__mul__", "__rmul__", "multiply");
  def_binary<&skiff::divide>(cls, "__truediv__", "__rtruediv__", "divide");
  def_binary<&skiff::floor_divide>(cls, "__floordiv__", "__rfloordiv__", "floor_divide");
  def_binary<&skiff::remainder>(cls, "__mod__", "__rmod__", "remainder");
  def_binary<&wrap_matmul>(cls, "__matmul__", "__rmatmul__", "matmul");
  def_binary<&logical_or_bitwise_and>(cls, "__and__", "__rand__", "bitwise_and");
  def_binary<&logical_or_bitwise_or>(cls, "__or__", "__ror__", "bitwise_or");
  def_binary<&logical_or_bitwise_xor>(cls, "__xor__", "__rxor__", "bitwise_xor");
  // x += y and friends write into x (Paddle semantics), through the in-place ops.
  def_inplace<&skiff::add_>(cls, "__iadd__", "add_");
  def_inplace<&skiff::subtract_>(cls, "__isub__", "subtract_");
  def_inplace<&skiff::multiply_>(cls, "__imul__", "multiply_");
  def_inplace<&skiff::divide_>(cls, "__itruediv__", "divide_");
  def_inplace<&skiff::floor_divide_>(cls, "__ifloordiv__", "floor_divide_");
  def_inplace<&skiff::remainder_>(cls, "__imod__", "remainder_");
  def_binary<&skiff::equal>(cls, "__eq__", nullptr, "equal");
  def_binary<&skiff::not_equal>(cls, "__ne__", nullptr, "not_equal");
  def_binary<&skiff::less_than>(cls, "__lt__", nullptr, "less_than");
  def_binary<&skiff::less_equal>(cls, "__le__", nullptr, "less_equal");
  def_binary<&skiff::greater_than>(cls, "__gt__", nullptr, "greater_than");
  def_binary<&skiff::greater_equal>(cls, "__ge__", nullptr, "greater_equal");

  // Python's tensor/indexing.py handles what basic_getitem does not.
  m.def("_set_symbolic_read_hook", [](py::object fn) { symbolic_read_hook() = std::move(fn); });
  static auto* getitem_fallback = new py::object();
  m.def("_set_getitem_fallback", [](py::object fn) { *getitem_fallback = std::move(fn); });
  cls.def("__getitem__", [](py::handle self, py::handle index) -> py::object {
    const Tensor& x = defined(*as_tensor_ptr(self), "__getitem__");
    if (py::object r = basic_getitem(x, index)) return r;
    return (*getitem_fallback)(self, index);
  });
  m.def("_assign_into", &assign_into, py::arg("dst"), py::arg("src"),
        "Writes src (broadcast and cast) into dst's memory in place; bumps its version.");
  m.def(
      "_rebase",
      [](py::handle x, const Tensor& result) {
        // x[idx] = v with autograd: the Python tensor x becomes a handle to the out-of-place
        // result (its data and history), as if an in-place op had produced it. The old body
        // stays intact for the grad nodes that saved it; views of it do not see the write.
        Tensor* target = const_cast<Tensor*>(as_tensor_ptr(x));
        SKIFF_ENFORCE(target != nullptr, kTypeError, "__setitem__", "x", "a Tensor",
                      Py_TYPE(x.ptr())->tp_name);
        *target = result;
      },
      py::arg("x"), py::arg("result"));
  m.def(
      "to_tensor",
      [](py::handle data, py::handle dtype, py::handle place, bool stop_gradient) {
        Tensor t = tensor_from_data(data, dtype_arg(dtype, "to_tensor", "dtype"),
                                    place_arg(place, "to_tensor", "place"), "to_tensor");
        if (stop_gradient) return py::cast(std::move(t));
        if (is_differentiable(t.dtype())) {
          autograd::set_stop_gradient(t, false);
          return py::cast(std::move(t));
        }
        py::object obj = py::cast(std::move(t));
        set_int_requires_grad_flag(obj, true);  // Note [stop_gradient on integer tensors]
        return obj;
      },
      py::arg("data"), py::arg("dtype") = py::none(), py::arg("place") = py::none(),
      py::arg("stop_gradient") = true);
}

}  // namespace skiff::python
