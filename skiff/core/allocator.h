// The allocator interface tensors draw memory from, and the per-place lookup. Implementations
// (the caching best-fit allocator over each device) live in skiff/device.
#pragma once

#include <cstddef>
#include <cstdint>

#include "skiff/core/place.h"

namespace skiff {

struct AllocatorStats {
  int64_t allocated_bytes = 0;  // held by live allocations
  int64_t peak_allocated_bytes = 0;
  int64_t reserved_bytes = 0;  // obtained from the device, cached or in use
  int64_t peak_reserved_bytes = 0;
  int64_t num_allocs = 0;         // allocate() calls served
  int64_t num_device_allocs = 0;  // times the device itself was asked for memory
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  /// Returns `nbytes` of memory aligned to kAlignment; throws an OutOfMemory error on failure.
  virtual void* allocate(size_t nbytes) = 0;
  virtual void deallocate(void* ptr) = 0;
  virtual Place place() const = 0;
  virtual AllocatorStats stats() const = 0;
  /// Starts the peaks over from the current values (Paddle resets each one separately).
  virtual void reset_peak_allocated() = 0;
  virtual void reset_peak_reserved() = 0;
  void reset_peak_stats() {
    reset_peak_allocated();
    reset_peak_reserved();
  }
  /// Returns cached memory that no allocation uses to the device.
  virtual void release_idle() = 0;

  static constexpr size_t kAlignment = 64;
};

/// The allocator that tensors on `place` use (created on first use).
Allocator* allocator_for(const Place& place);

}  // namespace skiff
