// C++ op results -> Python: a Tensor, a list for Tensor[] outputs, a tuple for several outputs.
#pragma once

#include <pybind11/pybind11.h>

#include <tuple>
#include <vector>

#include "skiff/core/tensor.h"

namespace skiff::python {

namespace py = pybind11;

inline py::object to_python(Tensor t) { return py::cast(std::move(t)); }

inline py::object to_python(std::vector<Tensor> ts) {
  py::list out(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) out[i] = py::cast(std::move(ts[i]));
  return out;
}

/// A list with None for undefined tensors (gradients of unused inputs).
inline py::object to_python_or_none(std::vector<Tensor> ts) {
  py::list out(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    out[i] = ts[i].defined() ? py::cast(std::move(ts[i])) : py::object(py::none());
  }
  return out;
}

template <typename... Ts>
py::object to_python(std::tuple<Ts...> r) {
  return std::apply(
      [](auto&&... v) { return py::object(py::make_tuple(to_python(std::move(v))...)); },
      std::move(r));
}

}  // namespace skiff::python
