// A reference-counted block of device memory that one or more tensors (views) share.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "skiff/core/allocator.h"

namespace skiff {

class Storage {
 public:
  /// Allocates `nbytes` from the allocator of `place`.
  Storage(size_t nbytes, const Place& place);
  /// Wraps memory owned elsewhere (e.g. a numpy array); `release` runs when the last user goes.
  Storage(void* data, size_t nbytes, const Place& place, std::function<void()> release);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  const Place& place() const { return place_; }

  /// Bumped by every in-place write; autograd compares it with the version a saved tensor had
  /// when it was saved, so a backward through modified data fails loudly instead of silently.
  uint32_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() { version_.fetch_add(1, std::memory_order_relaxed); }

 private:
  void* data_ = nullptr;
  size_t nbytes_ = 0;
  Place place_;
  Allocator* allocator_ = nullptr;  // null for external memory
  std::function<void()> release_;
  std::atomic<uint32_t> version_{0};
};

}  // namespace skiff
