// Safetensors files (include/skiff/checkpoint.h) for the Python layer: jit.save / jit.load and
// the static API's inference models write and read parameters with the same C++ code the C++
// front end and the inference predictor use, so the format has one implementation.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/checkpoint.h"
#include "skiff/python/bind.h"

namespace skiff::python {

void bind_checkpoint(py::module_& m) {
  m.def(
      "save_safetensors",
      [](const std::vector<std::pair<std::string, Tensor>>& tensors, const std::string& path,
         const CheckpointMetadata& metadata) {
        StateDict state;
        for (const auto& [name, t] : tensors) state.set(name, t);
        py::gil_scoped_release release;
        save(state, path, metadata);
      },
      py::arg("tensors"), py::arg("path"), py::arg("metadata") = CheckpointMetadata{},
      "Writes (name, Tensor) pairs to `path` atomically, with string metadata");
  m.def(
      "load_safetensors",
      [](const std::string& path) {
        CheckpointMetadata metadata;
        StateDict state;
        {
          py::gil_scoped_release release;
          state = load(path, &metadata);
        }
        std::vector<std::pair<std::string, Tensor>> items(state.begin(), state.end());
        return py::make_tuple(items, metadata);
      },
      py::arg("path"), "((name, Tensor) pairs in file order, metadata) of a safetensors file");
}

}  // namespace skiff::python
