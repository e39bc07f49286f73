// skiff::Error -> the built-in Python exception its code stands for, message unchanged.
#include <pybind11/pybind11.h>

#include "skiff/base/error.h"
#include "skiff/python/bind.h"

namespace skiff::python {

namespace {

PyObject* exception_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return PyExc_ValueError;
    case ErrorCode::kTypeError:
      return PyExc_TypeError;
    case ErrorCode::kOutOfRange:
      return PyExc_IndexError;
    case ErrorCode::kNotFound:
    case ErrorCode::kUnimplemented:
      return PyExc_NotImplementedError;
    case ErrorCode::kOutOfMemory:
      return PyExc_MemoryError;
    case ErrorCode::kIOError:
      return PyExc_OSError;
    case ErrorCode::kPrecondition:
    case ErrorCode::kInternal:
      return PyExc_RuntimeError;
  }
  return PyExc_RuntimeError;
}

}  // namespace

void bind_errors(py::module_& m) {
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
