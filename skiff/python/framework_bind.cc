// dtypes, places, seeding, the default dtype and device, and small helpers of the Python layer.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/core/allocator.h"
#include "skiff/core/generator.h"
#include "skiff/ops/dispatch.h"
#include "skiff/python/bind.h"
#include "skiff/python/convert.h"

namespace skiff::python {

void bind_framework(py::module_& m) {
  m.def(
      "memory_stats",
      [](py::handle place) {
        const AllocatorStats s = allocator_for(place_arg(place, "memory_stats", "place"))->stats();
        py::dict d;
        d["allocated_bytes"] = s.allocated_bytes;
        d["peak_allocated_bytes"] = s.peak_allocated_bytes;
        d["reserved_bytes"] = s.reserved_bytes;
        d["peak_reserved_bytes"] = s.peak_reserved_bytes;
        d["num_allocs"] = s.num_allocs;
        return d;
      },
      py::arg("place") = py::none(), "The caching allocator's counters for a place");
  m.def(
      "reset_peak_memory_stats",
      [](py::handle place, const std::string& which) {
        Allocator* a = allocator_for(place_arg(place, "reset_peak_memory_stats", "place"));
        if (which != "reserved") a->reset_peak_allocated();
        if (which != "allocated") a->reset_peak_reserved();
      },
      py::arg("place") = py::none(), py::arg("which") = "all",
      "Starts the peak counters over: which = 'allocated', 'reserved' or 'all'");
  py::enum_<DType> dtype(m, "dtype", "Element type of a Tensor (skiff.float32, ...)");
  for (int i = 0; i < kNumDTypes; ++i) {
    const auto d = static_cast<DType>(i);
    dtype.value(std::string(dtype_name(d)).c_str(), d);
  }
  // Paddle prints dtypes as paddle.float32; code compares str(dtype) with that spelling. These
  // replace (not overload) what py::enum_ defines, hence attr assignment.
  auto method = [&](const char* name, auto&& fn) {
    dtype.attr(name) =
        py::cpp_function(std::forward<decltype(fn)>(fn), py::name(name), py::is_method(dtype));
  };
  method("__repr__", [](DType d) { return "paddle." + std::string(dtype_name(d)); });
  method("__str__", [](DType d) { return "paddle." + std::string(dtype_name(d)); });
  auto equals = [](DType d, py::handle other) {
    if (py::isinstance<DType>(other)) return d == other.cast<DType>();
    try {
      return d == dtype_arg(other, "dtype", "other");
    } catch (const py::type_error&) {
      return false;
    }
  };
  method("__eq__", equals);
  method("__ne__", [equals](DType d, py::handle other) { return !equals(d, other); });
  method("__hash__", [](DType d) { return static_cast<int>(d); });
  dtype.def_property_readonly("name", [](DType d) { return std::string(dtype_name(d)); });
  dtype.def_property_readonly("itemsize", [](DType d) { return dtype_size(d); });
  dtype.def_property_readonly("is_floating_point", [](DType d) { return is_floating(d); });

  py::class_<Place>(m, "Place", "Where a tensor lives: Place(cpu), Place(gpu:0)")
      .def(py::init([](py::handle text) { return place_arg(text, "Place", "device"); }),
           py::arg("device") = "cpu")
      .def("__repr__", [](const Place& p) { return "Place(" + p.to_string() + ")"; })
      .def("__str__", [](const Place& p) { return "Place(" + p.to_string() + ")"; })
      .def("__eq__", [](const Place& a,
                        py::handle b) { return py::isinstance<Place>(b) && a == b.cast<Place>(); })
      .def("__hash__", [](const Place& p) { return std::hash<std::string>()(p.to_string()); })
      .def("is_cpu_place", &Place::is_cpu)
      .def("is_gpu_place", &Place::is_cuda)
      .def("is_custom_place", &Place::is_custom)
      .def("gpu_device_id", &Place::device_id)
      .def("get_device_id", &Place::device_id)
      .def("_type", [](const Place& p) { return p.to_string(); });
  m.def("CPUPlace", [] { return Place::cpu(); });
  m.def(
      "CUDAPlace", [](int id) { return Place::cuda(id); }, py::arg("id"));

  m.def(
      "seed", [](uint64_t s) { manual_seed_all(s); }, py::arg("seed"));
  // The CPU generator's (seed, offset): what checkpoints save to resume the same random stream.
  m.def("get_rng_state", [] {
    const PhiloxState st = default_generator(Place::cpu()).state();
    return py::make_tuple(st.seed, st.offset);
  });
  m.def(
      "set_rng_state",
      [](uint64_t seed, uint64_t offset) {
        default_generator(Place::cpu()).set_state(PhiloxState{seed, offset});
      },
      py::arg("seed"), py::arg("offset"));
  m.def("get_default_dtype", [] { return default_dtype(); });
  m.def("set_default_dtype",
        [](py::handle d) { set_default_dtype(dtype_arg(d, "set_default_dtype", "d")); });
  m.def("set_device", [](py::handle d) {
    const Place p = place_arg(d, "set_device", "device");
    ops::set_default_place(p);
    return p;
  });
  m.def("get_device", [] {
    const Place p = ops::default_place();
    return p.to_string();
  });
  m.def("is_compiled_with_cuda", [] {
#ifdef SKIFF_WITH_CUDA
    return true;
#else
    return false;
#endif
  });
  // A builtin function stored on a class does not bind `self`; an instancemethod does, with no
  // Python frame in between (Tensor.sum = instancemethod(_C.ops.sum)).
  m.def("_instancemethod", [](py::object fn) {
    return py::reinterpret_steal<py::object>(PyInstanceMethod_New(fn.ptr()));
  });
}

}  // namespace skiff::python
