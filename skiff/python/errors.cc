// skiff::Error -> the Python exception Paddle raises for its error class (Paddle's
// paddle/fluid/pybind/exception.cc), message unchanged: it already opens with "(Class) ".
//   InvalidArgument -> ValueError        InvalidType -> TypeError      OutOfRange -> IndexError
//   Unimplemented -> NotImplementedError ResourceExhausted -> MemoryError  Fatal -> SystemError
//   NotFound, PreconditionNotMet -> RuntimeError
//   Unavailable -> UnavailableError, a RuntimeError as in Paddle that is also an OSError, so
//   `except OSError` around file I/O keeps catching unreadable or corrupt files.
#include <pybind11/pybind11.h>

#include "skiff/base/error.h"
#include "skiff/python/bind.h"

namespace skiff::python {

namespace {

PyObject* unavailable_error = nullptr;  // skiff.UnavailableError, made by bind_errors

PyObject* exception_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return PyExc_ValueError;
    case ErrorCode::kTypeError:
      return PyExc_TypeError;
    case ErrorCode::kOutOfRange:
      return PyExc_IndexError;
    case ErrorCode::kUnimplemented:
      return PyExc_NotImplementedError;
    case ErrorCode::kOutOfMemory:
      return PyExc_MemoryError;
    case ErrorCode::kInternal:
      return PyExc_SystemError;
    case ErrorCode::kIOError:
      return unavailable_error;
    case ErrorCode::kNotFound:
    case ErrorCode::kPrecondition:
      return PyExc_RuntimeError;
  }
  return PyExc_RuntimeError;
}

}  // namespace

void bind_errors(py::module_& m) {
  py::object bases = py::make_tuple(py::handle(PyExc_RuntimeError), py::handle(PyExc_OSError));
  unavailable_error = PyErr_NewExceptionWithDoc(
      "skiff.UnavailableError",
      "Paddle's Unavailable error class: a file or service could not be used. A RuntimeError, as "
      "Paddle raises, and an OSError.",
      bases.ptr(), nullptr);
  if (unavailable_error == nullptr) throw py::error_already_set();
  m.attr("UnavailableError") = py::handle(unavailable_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(exception_for(e.code()), e.what());
    }
  });
  m.def(
      "_raise",
      [](int code, const std::string& msg) {
        throw_error(static_cast<ErrorCode>(code), "test", "arg", msg, "got", __FILE__, __LINE__);
      },
      "Raises a skiff::Error with the given code (tests of the exception mapping).");
}

}  // namespace skiff::python
