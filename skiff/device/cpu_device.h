// The host as a device: 64-byte aligned memory, memcpy, and streams/events that are no-ops
// because CPU kernels run synchronously on the calling thread (and its OpenMP pool).
#pragma once

#include <memory>

#include "skiff/device/device_interface.h"

namespace skiff::device {

std::unique_ptr<DeviceInterface> make_cpu_device();

}  // namespace skiff::device
