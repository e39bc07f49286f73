// What Skiff needs from a device: raw memory, copies, streams, events and synchronization.
// CPU and CUDA implement it in-tree; other devices arrive as plugins through a C ABI that is
// adapted to this interface. Kernels never call it directly; allocators and copies do.
#pragma once

#include <cstddef>
#include <string>

#include "skiff/core/place.h"

namespace skiff::device {

/// Opaque handles owned by the device implementation.
using Stream = void*;
using Event = void*;

enum class CopyKind { kHostToDevice, kDeviceToHost, kDeviceToDevice };

class DeviceInterface {
 public:
  virtual ~DeviceInterface() = default;
  virtual DeviceType type() const = 0;
  virtual std::string name() const = 0;
  virtual int device_count() const = 0;

  /// Raw device memory; returns nullptr when the device is out of memory (the caching allocator
  /// then frees its idle chunks and retries).
  virtual void* allocate(int device_id, size_t nbytes) = 0;
  virtual void deallocate(int device_id, void* ptr, size_t nbytes) = 0;
  /// Synchronous copy of `nbytes`; `stream` null means the default stream.
  virtual void copy(int device_id, void* dst, const void* src, size_t nbytes, CopyKind kind,
                    Stream stream = nullptr) = 0;

  virtual Stream create_stream(int device_id) = 0;
  virtual void destroy_stream(int device_id, Stream stream) = 0;
  virtual void synchronize_stream(int device_id, Stream stream) = 0;
  virtual Event create_event(int device_id) = 0;
  virtual void destroy_event(int device_id, Event event) = 0;
  virtual void record_event(int device_id, Event event, Stream stream) = 0;
  /// Makes `stream` wait until `event` has completed.
  virtual void stream_wait_event(int device_id, Stream stream, Event event) = 0;
  virtual void synchronize_event(int device_id, Event event) = 0;
  virtual void synchronize(int device_id) = 0;
  /// Total and free memory in bytes.
  virtual void memory_info(int device_id, size_t* total, size_t* free) = 0;
};

}  // namespace skiff::device
