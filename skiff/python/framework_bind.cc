// dtypes, places, seeding, the default dtype and device, and small helpers of the Python layer.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/core/allocator.h"
#include "skiff/core/generator.h"
#include "skiff/device/plugin/plugin_loader.h"
#include "skiff/ops/dispatch.h"
#include "skiff/python/bind.h"
#include "skiff/python/convert.h"

namespace skiff::python {

// Note [Place classes]: Paddle's CPUPlace, CUDAPlace, CustomPlace, XPUPlace and CUDAPinnedPlace
// are classes user code tests with isinstance. Here they are subclasses of Place, one C++ struct
// each over the same value (a Place), so every function taking a place takes them, they compare
// equal by value and hash alike (CPUPlace() == Place('cpu')), and Tensor.place returns the class
// of its kind (place_to_python). Their repr is Paddle's: Place(cpu), Place(gpu:0), Place(npu:1).
namespace {

struct CPUPlaceT : Place {
  CPUPlaceT() : Place(Place::cpu()) {}
};
struct CUDAPlaceT : Place {
  explicit CUDAPlaceT(const Place& p) : Place(p) {}
};
struct CustomPlaceT : Place {
  explicit CustomPlaceT(const Place& p) : Place(p) {}
};
// Skiff has no XPU and no pinned host memory: these classes exist so isinstance works, and
// constructing one raises what Paddle's CPU-only build raises.
struct XPUPlaceT : Place {};
struct CUDAPinnedPlaceT : Place {};

std::string place_repr(const Place& p) { return "Place(" + p.to_string() + ")"; }

int device_id_arg(py::handle id, const char* op) {
  if (!PyIndex_Check(id.ptr()) || PyBool_Check(id.ptr()))
    throw_arg_type_error(op, "id", "an int", id);
  const long long v = py::reinterpret_steal<py::int_>(PyNumber_Index(id.ptr())).cast<long long>();
  SKIFF_ENFORCE(v >= 0 && v < (1 << 15), kInvalidArgument, op, "id",
                "a device id in [0, 32768)", v);
  return v;
}

bool custom_type_loaded(const std::string& type) {
  for (const device::LoadedPlugin* p : device::loaded_plugins()) {
    if (p->device_type == type) return true;
  }
  return false;
}

std::string loaded_custom_types() {
  std::string out = "[";
  for (const device::LoadedPlugin* p : device::loaded_plugins()) {
    out += (out.size() > 1 ? ", '" : "'") + p->device_type + "'";
  }
  return out + "]";
}

void bind_places(py::module_& m) {
  py::class_<Place> place(m, "Place", "Where a tensor lives: Place(cpu), Place(gpu:0)");
  place.def(py::init([](py::handle text) { return place_arg(text, "Place", "device"); }),
            py::arg("device") = "cpu")
      .def("__repr__", &place_repr)
      .def("__str__", &place_repr)
      .def("__eq__",
           [](const Place& a, py::handle b) {
             return py::isinstance<Place>(b) && a == b.cast<Place>();
           })
      .def("__ne__",
           [](const Place& a, py::handle b) {
             return !py::isinstance<Place>(b) || a != b.cast<Place>();
           })
      .def("__hash__", [](const Place& p) { return std::hash<std::string>()(p.to_string()); })
      .def("__reduce__",
           [](const Place& p) {
             return py::make_tuple(py::module_::import("skiff._C").attr("Place"),
                                   py::make_tuple(p.to_string()));
           })
      .def("is_cpu_place", &Place::is_cpu)
      .def("is_gpu_place", &Place::is_cuda)
      .def("is_custom_place", &Place::is_custom)
      .def("is_xpu_place", [](const Place&) { return false; })
      .def("is_cuda_pinned_place", [](const Place&) { return false; })
      .def("gpu_device_id", &Place::device_id)
      .def("custom_device_id", &Place::device_id)
      .def("custom_device_type",
           [](const Place& p) {
             return p.is_custom() ? custom_device_type_name(p.custom_type_id()) : std::string();
           })
      .def("get_device_id", &Place::device_id)
      .def("set_place", [](Place& self, const Place& other) { self = other; })
      .def("_equals", [](const Place& a, const Place& b) { return a == b; })
      .def("_type", [](const Place& p) { return static_cast<int>(p.type()); });

  py::class_<CPUPlaceT, Place>(m, "CPUPlace", "The CPU: paddle.CPUPlace()").def(py::init<>());
  py::class_<CUDAPlaceT, Place>(m, "CUDAPlace", "GPU `id`: paddle.CUDAPlace(0)")
      .def(py::init([](py::handle id) {
             return CUDAPlaceT(Place::cuda(device_id_arg(id, "CUDAPlace")));
           }),
           py::arg("id"));
  py::class_<CustomPlaceT, Place>(m, "CustomPlace",
                                  "Device `device_id` of a plugin device type: "
                                  "paddle.CustomPlace('npu', 0)")
      .def(py::init([](py::handle type, py::handle id) {
             if (!PyUnicode_Check(type.ptr()))
               throw_arg_type_error("CustomPlace", "device_type", "a str", type);
             const auto name = type.cast<std::string>();
             const int dev = device_id_arg(id, "CustomPlace");
             SKIFF_ENFORCE(custom_type_loaded(name), kInvalidArgument, "CustomPlace",
                           "device_type",
                           str("one of the loaded custom device types ", loaded_custom_types()),
                           str("'", name, "'"));
             return CustomPlaceT(Place::custom(name, dev));
           }),
           py::arg("device_type"), py::arg("device_id") = 0)
      .def("get_device_type", [](const Place& p) {
        return custom_device_type_name(p.custom_type_id());
      });
  py::class_<XPUPlaceT, Place>(m, "XPUPlace", "A Kunlun XPU (Skiff has no XPU backend)")
      .def(py::init([](py::handle id) -> XPUPlaceT {
             (void)device_id_arg(id, "XPUPlace");
             SKIFF_THROW(kPrecondition, "XPUPlace", "id", "an XPU build (Skiff has no XPU "
                         "backend; use CPUPlace() or a custom device)", "XPUPlace(...)");
           }),
           py::arg("id"));
  py::class_<CUDAPinnedPlaceT, Place>(m, "CUDAPinnedPlace",
                                      "Page-locked host memory (not in this build)")
      .def(py::init([]() -> CUDAPinnedPlaceT {
        SKIFF_THROW(kPrecondition, "CUDAPinnedPlace", "place",
                    "a build with pinned host memory (this build has none; use CPUPlace())",
                    "CUDAPinnedPlace()");
      }));
}

}  // namespace

py::object place_to_python(const Place& p) {
  switch (p.type()) {
    case DeviceType::kCPU:
      return py::cast(CPUPlaceT());
    case DeviceType::kCUDA:
      return py::cast(CUDAPlaceT(p));
    case DeviceType::kCustom:
      return py::cast(CustomPlaceT(p));
  }
  return py::cast(p);
}

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

  bind_places(m);

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
    return place_to_python(p);
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
