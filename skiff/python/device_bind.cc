// Device plugins for the Python layer (python/skiff/device): loading, the loaded custom device
// types and their devices, and the CPU fallback's statistics and policy.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/device/device_manager.h"
#include "skiff/device/plugin/plugin_loader.h"
#include "skiff/ops/kernel_registry.h"
#include "skiff/ops/plugin/device_fallback.h"
#include "skiff/ops/plugin/plugin_kernels.h"
#include "skiff/python/bind.h"
#include "skiff/python/convert.h"

namespace skiff::python {

void bind_device(py::module_& m) {
  namespace dp = skiff::device;
  namespace pk = skiff::ops::plugin;
  // The op registry's init loads SKIFF_PLUGIN_PATH / CUSTOM_DEVICE_ROOT plugins.
  m.def("_init_devices", [] { ops::init(); });
  m.def(
      "load_plugin",
      [](const std::string& path) {
        ops::init();  // kernels of the plugin register through the registry's listener
        return dp::load_plugin(path).device_type;
      },
      py::arg("path"), "Loads a device plugin; returns its device type");
  m.def("custom_device_types", [] {
    std::vector<std::string> out;
    for (const dp::LoadedPlugin* p : dp::loaded_plugins()) out.push_back(p->device_type);
    return out;
  });
  m.def("custom_devices", [] {
    std::vector<std::string> out;
    for (const Place& p : dp::all_places()) {
      if (p.is_custom()) out.push_back(p.to_string());
    }
    return out;
  });
  m.def(
      "plugin_info",
      [](const std::string& type) {
        for (const dp::LoadedPlugin* p : dp::loaded_plugins()) {
          if (p->device_type != type) continue;
          py::dict d;
          d["path"] = p->path;
          d["vendor"] = p->vendor;
          d["abi_version"] = py::make_tuple(p->abi_major, p->abi_minor);
          d["device_name"] = std::string(dp::device_properties(*p, 0).name);
          d["kernels"] = pk::plugin_kernel_names(type);
          d["has_ccl"] = p->ccl != nullptr;
          return py::object(d);
        }
        return py::object(py::none());
      },
      py::arg("device_type"));
  m.def("fallback_stats", [] {
    py::list out;
    for (const pk::FallbackStat& s : pk::fallback_stats()) {
      py::dict d;
      d["op"] = s.op;
      d["device"] = s.device;
      d["dtype"] = s.dtype;
      d["reason"] = s.reason;
      d["count"] = s.count;
      d["time_ms"] = s.seconds * 1e3;
      out.append(d);
    }
    return out;
  });
  m.def("reset_fallback_stats", &pk::reset_fallback_stats);
  m.def("set_fallback_policy",
        [](const std::string& p) { pk::set_fallback_policy(pk::parse_fallback_policy(p)); });
  m.def("get_fallback_policy", [] {
    switch (pk::fallback_policy()) {
      case pk::FallbackPolicy::kWarn:
        return "warn";
      case pk::FallbackPolicy::kSilent:
        return "silent";
      case pk::FallbackPolicy::kError:
        return "error";
    }
    return "warn";
  });
  m.def(
      "synchronize_device", [](py::handle place) { synchronize(place_arg(place, "synchronize", "device")); },
      py::arg("device"));
}

}  // namespace skiff::python
