#include "skiff/python/convert.h"

#include <atomic>
#include <cstring>

#include "skiff/base/error.h"
#include "skiff/ops/dispatch.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/jit/capture_state.h"

namespace skiff::python {

namespace {

std::atomic<DType> g_default_dtype{DType::kFloat32};
PyTypeObject* g_tensor_type = nullptr;

std::string type_name(py::handle h) { return Py_TYPE(h.ptr())->tp_name; }

// Leaked on purpose: a static py::object would be released after the interpreter is gone.
py::module_& numpy() {
  static auto* np = new py::module_(py::module_::import("numpy"));
  return *np;
}

bool is_numpy_scalar(py::handle h) {
  static auto* generic = new py::object(numpy().attr("generic"));
  return py::isinstance(h, *generic);
}

/// A Python number (bool, int, float, or a numpy scalar of those) as a Scalar.
std::optional<Scalar> number_of(py::handle h) {
  if (PyBool_Check(h.ptr())) return Scalar(h.ptr() == Py_True);
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow != 0)
      throw py::value_error("integer " + py::str(h).cast<std::string>() + " does not fit in int64");
    return Scalar(static_cast<int64_t>(v));
  }
  if (PyFloat_Check(h.ptr())) return Scalar(PyFloat_AS_DOUBLE(h.ptr()));
  if (is_numpy_scalar(h)) {
    py::object item = h.attr("item")();
    if (PyBool_Check(item.ptr()) || PyLong_Check(item.ptr()) || PyFloat_Check(item.ptr())) {
      return number_of(item);
    }
  }
  return std::nullopt;
}

/// The single value of a 1-element tensor as a Scalar of its category.
Scalar tensor_scalar(const Tensor& t, const char* op, const char* arg) {
  SKIFF_ENFORCE(t.numel() == 1, kInvalidArgument, op, arg, "a number or a 1-element tensor",
                str("a tensor of shape ", t.dims()));
  DenseTensor d = t.dense().place().is_cpu() ? t.dense() : t.dense().copy_to(Place::cpu());
  if (d.dtype() == DType::kBool) return Scalar(Tensor(d).item<bool>());
  if (is_integral(d.dtype())) return Scalar(Tensor(cast_data(d, DType::kInt64)).item<int64_t>());
  return Scalar(Tensor(cast_data(d, DType::kFloat64)).item<double>());
}

/// Keeps a Python object alive while a Storage uses its memory; drops it under the GIL.
std::function<void()> python_release(py::object owner) {
  auto* raw = owner.release().ptr();
  return [raw]() {
    if (!Py_IsInitialized()) return;
    py::gil_scoped_acquire gil;
    Py_DECREF(raw);
  };
}

bool base_chain_read_only(py::handle arr) {
  py::handle cur = arr;
  while (py::isinstance<py::array>(cur)) {
    auto* proxy = py::detail::array_proxy(cur.ptr());
    if (proxy->flags & py::detail::npy_api::NPY_ARRAY_WRITEABLE_) return false;
    if (proxy->base == nullptr) return true;
    cur = proxy->base;
  }
  return true;  // a non-array owner (bytes, a capsule of a Tensor's storage)
}

Tensor from_array(py::array arr, DType dtype, const Place& place, bool from_python,
                  const char* op) {
  if (!arr.dtype().attr("isnative").cast<bool>()) {
    arr = arr.attr("astype")(arr.dtype().attr("newbyteorder")("=")).cast<py::array>();
  }
  DType src = from_numpy_dtype(arr.dtype(), op, "data");
  // Python floats arrive as float64; Paddle gives them the default dtype.
  if (from_python && src == DType::kFloat64) src = default_dtype();
  if (from_python && src == DType::kComplex128) src = real_to_complex(default_dtype());
  const DType target = dtype == DType::kUndefined ? src : dtype;
  std::vector<int64_t> shape(arr.shape(), arr.shape() + arr.ndim());
  const Dims dims(shape);
  const int flags = py::detail::array_proxy(arr.ptr())->flags;
  const bool c_contig = flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_;
  const bool aligned = flags & py::detail::npy_api::NPY_ARRAY_ALIGNED_;
  const DType arr_dtype = from_numpy_dtype(arr.dtype(), op, "data");
  if (!from_python && place.is_cpu() && target == arr_dtype && c_contig && aligned &&
      arr.size() > 0 && base_chain_read_only(arr)) {
    void* ptr = const_cast<void*>(arr.data());
    auto storage = std::make_shared<Storage>(ptr, static_cast<size_t>(arr.nbytes()), place,
                                             python_release(arr));
    return Tensor(DenseTensor(std::move(storage), target, dims, contiguous_strides(dims), 0));
  }
  // Copy into a new buffer with numpy (strides, byte order), then cast if needed.
  const DType buf_dtype = src == DType::kBFloat16 ? DType::kFloat32 : arr_dtype;
  DenseTensor buf = DenseTensor::empty(dims, buf_dtype, Place::cpu());
  if (buf.numel() > 0) {
    std::vector<py::ssize_t> strides;
    for (int64_t s : contiguous_strides(dims)) strides.push_back(s * dtype_size(buf_dtype));
    py::capsule keep(new std::shared_ptr<Storage>(buf.storage()),
                     [](void* p) { delete static_cast<std::shared_ptr<Storage>*>(p); });
    py::array dst(numpy_dtype(buf_dtype), shape, strides, buf.raw_data(), keep);
    numpy().attr("copyto")(dst, arr, py::arg("casting") = "unsafe");
  }
  if (buf.dtype() != target) buf = cast_data(buf, target);
  if (!place.is_cpu()) buf = buf.copy_to(place);
  return Tensor(std::move(buf));
}

}  // namespace

DType default_dtype() { return g_default_dtype.load(std::memory_order_relaxed); }
void set_default_dtype(DType dtype) {
  SKIFF_ENFORCE(is_floating(dtype), kTypeError, "set_default_dtype", "d",
                "float16, bfloat16, float32 or float64", dtype);
  g_default_dtype.store(dtype, std::memory_order_relaxed);
}

void set_tensor_type(PyTypeObject* type) { g_tensor_type = type; }

const Tensor* as_tensor_ptr(py::handle h) {
  if (g_tensor_type == nullptr || !PyObject_TypeCheck(h.ptr(), g_tensor_type)) return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(h.ptr());
  if (inst->simple_layout) return static_cast<const Tensor*>(inst->simple_value_holder[0]);
  return &h.cast<const Tensor&>();
}

bool is_tensor(py::handle h) { return as_tensor_ptr(h) != nullptr; }

void throw_arg_type_error(const char* op, const char* arg, const char* expected, py::handle got) {
  throw py::type_error(
      str(op, ": argument '", arg, "' expected ", expected, ", got ", type_name(got)));
}

Tensor tensor_arg(py::handle h, const char* op, const char* arg) {
  if (const Tensor* t = as_tensor_ptr(h)) {
    SKIFF_ENFORCE(t->defined(), kPrecondition, op, arg, "an initialized tensor",
                  "an empty Tensor()");
    // A static-graph variable outside its program has no data: say so, naming the op.
    SKIFF_ENFORCE(t->kind() != TensorKind::kSymbolic || jit::capturing(), kInvalidArgument, op, arg,
                  "a tensor with data (in dynamic mode; a static-graph variable is used "
                  "under its program_guard and run with Executor.run)",
                  "a static-graph variable outside its program");
    return *t;
  }
  if (h.is_none()) throw_arg_type_error(op, arg, "a Tensor", h);
  return tensor_from_data(h, DType::kUndefined, ops::default_place(), op);
}

Tensor operand_arg(py::handle h, const Tensor* ref, const char* op, const char* arg) {
  if (ref != nullptr) {
    if (auto s = number_of(h)) {
      const DType dt = promote_with_scalar(ref->dtype(), s->kind(), default_dtype());
      Tensor t = scalar_tensor(*s, dt);
      return ref->place().is_cpu() ? t : Tensor(t.dense().copy_to(ref->place()));
    }
  }
  return tensor_arg(h, op, arg);
}

std::optional<Tensor> optional_tensor_arg(py::handle h, const char* op, const char* arg) {
  if (h.is_none()) return std::nullopt;
  return tensor_arg(h, op, arg);
}

std::vector<Tensor> tensor_list_arg(py::handle h, const char* op, const char* arg) {
  if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) {
    throw_arg_type_error(op, arg, "a list or tuple of Tensors", h);
  }
  std::vector<Tensor> out;
  py::sequence seq = py::reinterpret_borrow<py::sequence>(h);
  out.reserve(seq.size());
  for (py::handle item : seq) out.push_back(tensor_arg(item, op, arg));
  return out;
}

std::vector<Tensor> tensors_or_none_arg(py::handle h, const char* op, const char* arg) {
  std::vector<Tensor> out;
  if (h.is_none()) return out;
  if (is_tensor(h)) return {tensor_arg(h, op, arg)};
  for (py::handle item : h) out.push_back(item.is_none() ? Tensor() : tensor_arg(item, op, arg));
  return out;
}

bool bool_arg(py::handle h, const char* op, const char* arg) {
  if (PyBool_Check(h.ptr())) return h.ptr() == Py_True;
  if (const Tensor* t = as_tensor_ptr(h)) return tensor_scalar(*t, op, arg).to<bool>();
  if (auto s = number_of(h); s && s->kind() != ScalarKind::kFloat) return s->to<bool>();
  throw_arg_type_error(op, arg, "a bool", h);
}

int64_t int_arg(py::handle h, const char* op, const char* arg) {
  std::optional<Scalar> s;
  if (const Tensor* t = as_tensor_ptr(h)) {
    s = tensor_scalar(*t, op, arg);
  } else {
    s = number_of(h);
  }
  if (!s || s->kind() == ScalarKind::kFloat) throw_arg_type_error(op, arg, "an int", h);
  return s->to<int64_t>();
}

double float_arg(py::handle h, const char* op, const char* arg) {
  if (PyFloat_Check(h.ptr())) return PyFloat_AS_DOUBLE(h.ptr());
  std::optional<Scalar> s;
  if (const Tensor* t = as_tensor_ptr(h)) {
    s = tensor_scalar(*t, op, arg);
  } else {
    s = number_of(h);
  }
  if (!s) throw_arg_type_error(op, arg, "a float", h);
  return s->to_double();
}

std::string str_arg(py::handle h, const char* op, const char* arg) {
  if (!PyUnicode_Check(h.ptr())) throw_arg_type_error(op, arg, "a str", h);
  return h.cast<std::string>();
}

Scalar scalar_arg(py::handle h, const char* op, const char* arg) {
  if (const Tensor* t = as_tensor_ptr(h)) return tensor_scalar(*t, op, arg);
  if (auto s = number_of(h)) return *s;
  throw_arg_type_error(op, arg, "a number (bool, int, float) or a 1-element Tensor", h);
}

std::vector<int64_t> int_array_arg(py::handle h, const char* op, const char* arg) {
  if (const Tensor* t = as_tensor_ptr(h)) {
    SKIFF_ENFORCE(t->rank() <= 1 && (is_integral(t->dtype())), kTypeError, op, arg,
                  "an int, a list of ints or a 1-D integer tensor",
                  str("a ", t->dtype(), " tensor of shape ", t->dims()));
    DenseTensor d = cast_data(t->dense().copy_to(Place::cpu()), DType::kInt64);
    const int64_t* p = d.data<int64_t>();
    return std::vector<int64_t>(p, p + d.numel());
  }
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    py::sequence seq = py::reinterpret_borrow<py::sequence>(h);
    std::vector<int64_t> out;
    out.reserve(seq.size());
    for (py::handle item : seq) out.push_back(int_arg(item, op, arg));
    return out;
  }
  if (py::isinstance<py::array>(h)) {
    py::object t = py::cast(tensor_from_data(h, DType::kUndefined, Place::cpu(), op));
    return int_array_arg(t, op, arg);
  }
  if (auto s = number_of(h); s && s->kind() != ScalarKind::kFloat) return {s->to<int64_t>()};
  throw_arg_type_error(op, arg, "an int, a list/tuple of ints or an integer Tensor", h);
}

std::vector<double> float_array_arg(py::handle h, const char* op, const char* arg) {
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    py::sequence seq = py::reinterpret_borrow<py::sequence>(h);
    std::vector<double> out;
    for (py::handle item : seq) out.push_back(float_arg(item, op, arg));
    return out;
  }
  if (const Tensor* t = as_tensor_ptr(h)) {
    DenseTensor d = cast_data(t->dense().copy_to(Place::cpu()), DType::kFloat64);
    const double* p = d.data<double>();
    return std::vector<double>(p, p + d.numel());
  }
  return {float_arg(h, op, arg)};
}

DType dtype_arg(py::handle h, const char* op, const char* arg) {
  if (h.is_none()) return DType::kUndefined;
  if (py::isinstance<DType>(h)) return h.cast<DType>();
  if (PyUnicode_Check(h.ptr())) {
    try {
      return parse_dtype(h.cast<std::string>());
    } catch (const Error&) {
      throw py::type_error(str(op, ": argument '", arg,
                               "' expected a dtype (bool, int8, uint8, int16, int32, int64, "
                               "float16, bfloat16, float32, float64), got '",
                               h.cast<std::string>(), "'"));
    }
  }
  if (py::isinstance<py::dtype>(h) || PyType_Check(h.ptr())) {
    try {
      return from_numpy_dtype(py::dtype::from_args(py::reinterpret_borrow<py::object>(h)), op, arg);
    } catch (const py::error_already_set&) {
    }
  }
  throw_arg_type_error(op, arg, "a dtype (skiff.float32, 'float32' or a numpy dtype)", h);
}

Place place_arg(py::handle h, const char* op, const char* arg) {
  if (h.is_none()) return ops::default_place();
  if (py::isinstance<Place>(h)) return h.cast<Place>();
  if (PyUnicode_Check(h.ptr())) return Place::parse(h.cast<std::string>());
  throw_arg_type_error(op, arg, "a Place or a device string such as 'cpu'", h);
}

DenseTensor cast_data(const DenseTensor& d, DType dtype) {
  return skiff::cast(Tensor(d), dtype).dense();
}

Tensor scalar_tensor(const Scalar& value, DType dtype) {
  DenseTensor d = DenseTensor::empty(Dims{}, dtype, Place::cpu());
  visit_dtype_complex(dtype, [&](auto tag) {
    using T = decltype(tag);
    *d.data<T>() = value.to<T>();
  });
  return Tensor(std::move(d));
}

Tensor tensor_from_data(py::handle data, DType dtype, const Place& place, const char* op) {
  if (const Tensor* t = as_tensor_ptr(data)) {
    DenseTensor d = t->dense().copy_to(place);
    if (dtype != DType::kUndefined && dtype != d.dtype()) d = cast_data(d, dtype);
    return Tensor(std::move(d));
  }
  if (auto s = number_of(data); s && !is_numpy_scalar(data)) {
    DType dt = dtype;
    if (dt == DType::kUndefined) {
      dt = s->kind() == ScalarKind::kBool  ? DType::kBool
           : s->kind() == ScalarKind::kInt ? DType::kInt64
                                           : default_dtype();
    }
    Tensor t = scalar_tensor(*s, dt);
    return place.is_cpu() ? t : Tensor(t.dense().copy_to(place));
  }
  if (py::isinstance<py::array>(data)) {
    return from_array(py::reinterpret_borrow<py::array>(data), dtype, place, false, op);
  }
  // A Python complex is from Python too: complex64 under the float32 default, as in Paddle. A
  // numpy scalar keeps its dtype (np.complex128 subclasses complex, so it is tested apart).
  const bool from_python = PyList_Check(data.ptr()) || PyTuple_Check(data.ptr()) ||
                           (PyComplex_Check(data.ptr()) && !is_numpy_scalar(data));
  py::object arr;
  try {
    arr = numpy().attr("asarray")(data);
  } catch (py::error_already_set& e) {
    // numpy's own words ("inhomogeneous shape after 1 dimensions") under the user's op.
    if (!from_python || !e.matches(PyExc_ValueError)) throw;
    throw py::value_error(str(op,
                              ": argument 'data' expected a rectangular nested list (the lists "
                              "of each level the same length), got a ragged ",
                              type_name(data), ": ",
                              e.value().attr("__str__")().cast<std::string>()));
  }
  const char kind = arr.attr("dtype").attr("kind").cast<std::string>()[0];
  if (kind == 'O' || kind == 'U' || kind == 'S') {
    throw py::type_error(str(op,
                             ": argument 'data' expected numbers, nested lists of numbers, "
                             "a numpy array or a Tensor, got ",
                             type_name(data), " (numpy dtype ",
                             py::str(arr.attr("dtype")).cast<std::string>(), ")"));
  }
  return from_array(arr.cast<py::array>(), dtype, place, from_python, op);
}

py::dtype numpy_dtype(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return py::dtype("bool");
    case DType::kInt8:
      return py::dtype("int8");
    case DType::kUInt8:
      return py::dtype("uint8");
    case DType::kInt16:
      return py::dtype("int16");
    case DType::kInt32:
      return py::dtype("int32");
    case DType::kInt64:
      return py::dtype("int64");
    case DType::kFloat16:
      return py::dtype("float16");
    case DType::kBFloat16:
    case DType::kFloat32:
      return py::dtype("float32");
    case DType::kFloat64:
      return py::dtype("float64");
    case DType::kComplex64:
      return py::dtype("complex64");
    case DType::kComplex128:
      return py::dtype("complex128");
    case DType::kUndefined:
      break;
  }
  throw_undefined_dtype();
}

DType from_numpy_dtype(const py::dtype& dt, const char* op, const char* arg) {
  const char kind = dt.kind();
  const auto size = dt.itemsize();
  if (kind == 'b') return DType::kBool;
  if (kind == 'i') {
    if (size == 1) return DType::kInt8;
    if (size == 2) return DType::kInt16;
    if (size == 4) return DType::kInt32;
    if (size == 8) return DType::kInt64;
  }
  if (kind == 'u' && size == 1) return DType::kUInt8;
  if (kind == 'f') {
    if (size == 2) return DType::kFloat16;
    if (size == 4) return DType::kFloat32;
    if (size == 8) return DType::kFloat64;
  }
  if (kind == 'c') {
    if (size == 8) return DType::kComplex64;
    if (size == 16) return DType::kComplex128;
  }
  throw py::type_error(str(op, ": argument '", arg, "' has numpy dtype ",
                           py::str(py::handle(dt)).cast<std::string>(),
                           ", which Skiff does not support (bool, int8, uint8, int16, int32, "
                           "int64, float16, float32, float64, complex64, complex128)"));
}

}  // namespace skiff::python
