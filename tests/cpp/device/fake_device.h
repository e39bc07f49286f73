// A host-memory DeviceInterface for tests: counts calls, checks that every deallocate matches
// an allocate of the same size, and runs out of memory at a settable capacity.
#pragma once

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "skiff/core/allocator.h"
#include "skiff/device/device_interface.h"

namespace skiff::testing {

class FakeDevice final : public device::DeviceInterface {
 public:
  explicit FakeDevice(size_t capacity = SIZE_MAX, int count = 1)
      : capacity_(capacity), count_(count) {}

  DeviceType type() const override { return DeviceType::kCustom; }
  std::string name() const override { return "fake"; }
  int device_count() const override { return count_; }

  void* allocate(int, size_t nbytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++alloc_calls;
    if (fail_all || nbytes > capacity_ - in_use_) {
      ++failed_allocs;
      return nullptr;
    }
    void* p = std::aligned_alloc(
        Allocator::kAlignment,
        (nbytes + Allocator::kAlignment - 1) / Allocator::kAlignment * Allocator::kAlignment);
    live[p] = nbytes;
    in_use_ += nbytes;
    return p;
  }
  void deallocate(int, void* ptr, size_t nbytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++dealloc_calls;
    auto it = live.find(ptr);
    if (it == live.end() || it->second != nbytes) {
      ++bad_deallocs;
      return;
    }
    in_use_ -= nbytes;
    live.erase(it);
    std::free(ptr);
  }
  void copy(int, void* dst, const void* src, size_t nbytes, device::CopyKind kind,
            device::Stream) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++copies[static_cast<int>(kind)];
    std::memcpy(dst, src, nbytes);
  }
  device::Stream create_stream(int) override { return nullptr; }
  void destroy_stream(int, device::Stream) override {}
  void synchronize_stream(int, device::Stream) override {}
  device::Event create_event(int) override { return nullptr; }
  void destroy_event(int, device::Event) override {}
  void record_event(int, device::Event, device::Stream) override {}
  void stream_wait_event(int, device::Stream, device::Event) override {}
  void synchronize_event(int, device::Event) override {}
  void synchronize(int) override { ++syncs; }
  void memory_info(int, size_t* total, size_t* free) override {
    *total = capacity_;
    *free = capacity_ - in_use_;
  }

  size_t in_use_bytes() {
    std::lock_guard<std::mutex> lock(mu_);
    return in_use_;
  }

  // Counters, read by tests after the calls settle.
  int alloc_calls = 0, failed_allocs = 0, dealloc_calls = 0, bad_deallocs = 0, syncs = 0;
  int copies[3] = {0, 0, 0};
  bool fail_all = false;
  std::map<void*, size_t> live;

 private:
  std::mutex mu_;
  size_t capacity_;
  int count_;
  size_t in_use_ = 0;
};

}  // namespace skiff::testing
