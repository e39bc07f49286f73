// A plugin's device table (SkiffDeviceOps) seen as a DeviceInterface: Skiff's caching allocator,
// copies, streams and events reach a plugin device through this adapter only. A failing call
// throws an error naming the device, the function and the plugin's message.
#pragma once

#include <memory>
#include <string>

#include "skiff/c/device_ext.h"
#include "skiff/device/device_interface.h"

namespace skiff::device {

/// `ops` is the plugin's table completed with Skiff's defaults (see plugin_loader.cc).
std::unique_ptr<DeviceInterface> make_plugin_device(const std::string& type_name,
                                                    const SkiffDeviceOps& ops, int device_count);

/// Throws kInternal naming `device`, `fn` and the plugin's last error unless `status` is
/// SKIFF_SUCCESS.
void check_plugin_status(SkiffStatus status, const std::string& device, const char* fn,
                         const SkiffDeviceOps& ops);

}  // namespace skiff::device
