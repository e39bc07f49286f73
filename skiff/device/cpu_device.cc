#include "skiff/device/cpu_device.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "skiff/core/allocator.h"

namespace skiff::device {

namespace {
class CpuDevice final : public DeviceInterface {
 public:
  DeviceType type() const override { return DeviceType::kCPU; }
  std::string name() const override { return "cpu"; }
  int device_count() const override { return 1; }

  void* allocate(int, size_t nbytes) override {
    const size_t rounded =
        (nbytes + Allocator::kAlignment - 1) / Allocator::kAlignment * Allocator::kAlignment;
    return std::aligned_alloc(Allocator::kAlignment,
                              rounded == 0 ? Allocator::kAlignment : rounded);
  }
  void deallocate(int, void* ptr, size_t) override { std::free(ptr); }
  void copy(int, void* dst, const void* src, size_t nbytes, CopyKind, Stream) override {
    std::memcpy(dst, src, nbytes);
  }

  Stream create_stream(int) override { return nullptr; }
  void destroy_stream(int, Stream) override {}
  void synchronize_stream(int, Stream) override {}
  Event create_event(int) override { return nullptr; }
  void destroy_event(int, Event) override {}
  void record_event(int, Event, Stream) override {}
  void stream_wait_event(int, Stream, Event) override {}
  void synchronize_event(int, Event) override {}
  void synchronize(int) override {}
  void memory_info(int, size_t* total, size_t* free) override {
    const long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    *total = static_cast<size_t>(pages) * page;
    *free = static_cast<size_t>(avail) * page;
  }
};
}  // namespace

std::unique_ptr<DeviceInterface> make_cpu_device() { return std::make_unique<CpuDevice>(); }

}  // namespace skiff::device
