// Loading device plugins (include/skiff/c/device_ext.h): dlopen, the init call, version checks,
// validation of every function pointer the plugin's ABI version requires, then registration of
// its device type and DeviceInterface. Kernels and collectives are registered by the layers that
// own those tables (skiff/ops/plugin_kernels.cc), which listen for loaded plugins here.
//
// Plugins are found at start-up in the directories (or files) of SKIFF_PLUGIN_PATH and of
// CUSTOM_DEVICE_ROOT (Paddle's name), ':'-separated, every lib*.so inside; or loaded
// explicitly with load_plugin(path) (paddle.device.load_plugin).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "skiff/c/device_ext.h"

namespace skiff::device {

/// A plugin that loaded: what the rest of Skiff needs of it.
struct LoadedPlugin {
  std::string path;
  std::string device_type;
  std::string vendor;
  int custom_type_id = -1;
  uint32_t abi_major = 0;
  uint32_t abi_minor = 0;
  SkiffDeviceOps ops{};  // the plugin's prefix of the table, newer members null
  std::vector<SkiffKernelDef> kernels;
  const SkiffCclOps* ccl = nullptr;  // null when the plugin has no collectives
  SkiffCclOps ccl_table{};           // the plugin's prefix, newer members null
};

/// Loads the plugin at `path` and registers its device. A second load of the same device type
/// returns the first. Errors (kIOError: dlopen/missing entry; kUnimplemented: ABI version;
/// kInvalidArgument: a missing function or bad table) name the path and what is wrong.
const LoadedPlugin& load_plugin(const std::string& path);
/// Loads every plugin named by SKIFF_PLUGIN_PATH and CUSTOM_DEVICE_ROOT, once per process; a
/// plugin that fails is reported with a warning and skipped (the host keeps running).
void load_plugins_from_env();
/// Plugins loaded so far, in load order.
std::vector<const LoadedPlugin*> loaded_plugins();
/// The plugin behind a custom device type id, or null.
const LoadedPlugin* plugin_of_type(int custom_type_id);

/// The device's properties; for a plugin without get_device_properties (ABI minor 0) the name
/// is the type name and the memory memory_info's total.
SkiffDeviceProperties device_properties(const LoadedPlugin& plugin, int device_id);

/// Called for each plugin loaded from now on, and at once for those already loaded (so a layer
/// initialized late sees every plugin). At most kMaxListeners listeners.
using PluginListener = void (*)(const LoadedPlugin& plugin);
void add_plugin_listener(PluginListener listener);

}  // namespace skiff::device
