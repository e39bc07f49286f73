// Kernels of plugin devices in Skiff's registry. For each loaded plugin (the listener of
// skiff/device/plugin/plugin_loader.h), under the backend of its device type:
//   - its C kernels (SkiffKernelDef: op name, dtype, layout) behind an adapter that turns the
//     op's argument struct into SkiffTensor structs and attributes (kernel_args_view.h);
//   - Skiff's own kernels of view ops (reshape, transpose, slice...), which only rewrite
//     metadata and so work on any device;
//   - for every other (op, dtype) the CPU has, the CPU fallback (device_fallback.h).
// A plugin kernel that returns SKIFF_UNSUPPORTED falls back for that call.
#pragma once

#include <string>
#include <vector>

#include "skiff/ops/kernel_registry.h"

namespace skiff::ops::plugin {

/// Starts listening for plugins (called once by KernelRegistry::global with the registry).
void install(KernelRegistry& registry);

/// The ops a plugin device type has kernels for, as "op dtype" strings (sorted).
std::vector<std::string> plugin_kernel_names(const std::string& device_type);

}  // namespace skiff::ops::plugin
