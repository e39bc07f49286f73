#include "skiff/device/plugin/plugin_device.h"

#include "skiff/base/error.h"

namespace skiff::device {

void check_plugin_status(SkiffStatus status, const std::string& device, const char* fn,
                         const SkiffDeviceOps& ops) {
  if (status == SKIFF_SUCCESS) [[likely]]
    return;
  const char* message = ops.get_last_error ? ops.get_last_error() : nullptr;
  SKIFF_THROW(kInternal, device, fn, "SKIFF_SUCCESS from the device plugin",
              str("status ", static_cast<int>(status),
                  message && *message ? str(" (", message, ")") : std::string()));
}

namespace {
class PluginDevice final : public DeviceInterface {
 public:
  PluginDevice(std::string type_name, const SkiffDeviceOps& ops, int count)
      : name_(std::move(type_name)), ops_(ops), count_(count) {}

  DeviceType type() const override { return DeviceType::kCustom; }
  std::string name() const override { return name_; }
  int device_count() const override { return count_; }

  void* allocate(int id, size_t nbytes) override {
    void* ptr = nullptr;
    const SkiffStatus s = ops_.allocate(id, nbytes, &ptr);
    if (s == SKIFF_OUT_OF_MEMORY) return nullptr;  // the caching allocator frees and retries
    check(s, "allocate");
    SKIFF_ENFORCE(ptr != nullptr || nbytes == 0, kInternal, name_, "allocate",
                  "a pointer with SKIFF_SUCCESS", "null");
    return ptr;
  }
  void deallocate(int id, void* ptr, size_t nbytes) override {
    check(ops_.deallocate(id, ptr, nbytes), "deallocate");
  }
  void copy(int id, void* dst, const void* src, size_t nbytes, CopyKind kind,
            Stream stream) override {
    auto* st = static_cast<SkiffStream>(stream);
    switch (kind) {
      case CopyKind::kHostToDevice:
        if (st) return check_async(ops_.async_memcpy_h2d(id, st, dst, src, nbytes), id, st);
        return check(ops_.memcpy_h2d(id, dst, src, nbytes), "memcpy_h2d");
      case CopyKind::kDeviceToHost:
        if (st) return check_async(ops_.async_memcpy_d2h(id, st, dst, src, nbytes), id, st);
        return check(ops_.memcpy_d2h(id, dst, src, nbytes), "memcpy_d2h");
      case CopyKind::kDeviceToDevice:
        if (st) return check_async(ops_.async_memcpy_d2d(id, st, dst, src, nbytes), id, st);
        return check(ops_.memcpy_d2d(id, dst, src, nbytes), "memcpy_d2d");
    }
  }

  Stream create_stream(int id) override {
    SkiffStream s = nullptr;
    check(ops_.create_stream(id, &s), "create_stream");
    return s;
  }
  void destroy_stream(int id, Stream s) override {
    check(ops_.destroy_stream(id, static_cast<SkiffStream>(s)), "destroy_stream");
  }
  void synchronize_stream(int id, Stream s) override {
    check(ops_.synchronize_stream(id, static_cast<SkiffStream>(s)), "synchronize_stream");
  }
  Event create_event(int id) override {
    SkiffEvent e = nullptr;
    check(ops_.create_event(id, &e), "create_event");
    return e;
  }
  void destroy_event(int id, Event e) override {
    check(ops_.destroy_event(id, static_cast<SkiffEvent>(e)), "destroy_event");
  }
  void record_event(int id, Event e, Stream s) override {
    check(ops_.record_event(id, static_cast<SkiffStream>(s), static_cast<SkiffEvent>(e)),
          "record_event");
  }
  void stream_wait_event(int id, Stream s, Event e) override {
    check(ops_.stream_wait_event(id, static_cast<SkiffStream>(s), static_cast<SkiffEvent>(e)),
          "stream_wait_event");
  }
  void synchronize_event(int id, Event e) override {
    check(ops_.synchronize_event(id, static_cast<SkiffEvent>(e)), "synchronize_event");
  }
  void synchronize(int id) override { check(ops_.synchronize_device(id), "synchronize_device"); }
  void memory_info(int id, size_t* total, size_t* free) override {
    check(ops_.memory_info(id, total, free), "memory_info");
  }

 private:
  void check(SkiffStatus s, const char* fn) const { check_plugin_status(s, name_, fn, ops_); }
  // DeviceInterface::copy is synchronous: an async copy on a stream waits for that stream.
  void check_async(SkiffStatus s, int id, SkiffStream st) const {
    check(s, "async_memcpy");
    check(ops_.synchronize_stream(id, st), "synchronize_stream");
  }

  std::string name_;
  SkiffDeviceOps ops_;
  int count_;
};
}  // namespace

std::unique_ptr<DeviceInterface> make_plugin_device(const std::string& type_name,
                                                    const SkiffDeviceOps& ops, int device_count) {
  return std::make_unique<PluginDevice>(type_name, ops, device_count);
}

}  // namespace skiff::device
