// The table of device implementations by device type, and the operations that need one:
// allocator lookup, copies between places, synchronization.
#pragma once

#include <memory>
#include <vector>

#include "skiff/core/allocator.h"
#include "skiff/device/device_interface.h"

namespace skiff {

namespace device {

/// Registers the implementation for a device type (for custom types: by custom type id). The
/// CPU device is always present; CUDA registers itself when built and a GPU exists.
void register_device(const Place& any_place_of_type, std::unique_ptr<DeviceInterface> device);
/// The implementation behind `place`; throws NotFound if none is registered.
DeviceInterface* device_for(const Place& place);
/// True if a device implementation for `place`'s type is registered and the index exists.
bool is_available(const Place& place);
/// All places of registered devices, in a fixed order (cpu, gpu:0.., custom...).
std::vector<Place> all_places();

}  // namespace device

/// Copies bytes between any two places (host<->device and within a device).
void copy_bytes(void* dst, const Place& dst_place, const void* src, const Place& src_place,
                size_t nbytes);
/// Waits for all work queued on `place`.
void synchronize(const Place& place);

}  // namespace skiff
