// The emulated NPU: a device plugin that proves the ABI of include/skiff/c/device_ext.h end to
// end without hardware. Its memory is host memory behind the ABI (Skiff reaches it only through
// the memcpy functions), every stream has a worker thread, kernels are registered by op name
// and dtype (emu_kernels.cc) and float64 is deliberately unsupported, so Skiff's CPU fallback
// is exercised the way a real accelerator without double precision does. Collectives go
// through shared memory between processes (emu_ccl.cc).
#include <cstdlib>
#include <cstring>
#include <string>

#include "plugins/emu_npu/emu_kernels.h"
#include "plugins/emu_npu/emu_runtime.h"
#include "skiff/c/device_ext.h"

namespace {

using emu::fail;

thread_local int t_current_device = 0;

#define EMU_CHECK_DEVICE(id) \
  if (!emu::valid_device(id)) return fail("emu_npu: no device " + std::to_string(id))

SkiffStatus init() { return SKIFF_SUCCESS; }
SkiffStatus finalize() { return SKIFF_SUCCESS; }
SkiffStatus get_device_count(int32_t* count) {
  *count = emu::device_count();
  return SKIFF_SUCCESS;
}
SkiffStatus init_device(int32_t id) {
  EMU_CHECK_DEVICE(id);
  return SKIFF_SUCCESS;
}
SkiffStatus deinit_device(int32_t id) {
  EMU_CHECK_DEVICE(id);
  emu::stream_of(id, nullptr)->synchronize();
  return SKIFF_SUCCESS;
}
SkiffStatus set_device(int32_t id) {
  EMU_CHECK_DEVICE(id);
  t_current_device = id;
  return SKIFF_SUCCESS;
}
SkiffStatus get_device(int32_t* id) {
  *id = t_current_device;
  return SKIFF_SUCCESS;
}
SkiffStatus memory_info(int32_t id, size_t* total, size_t* free_bytes) {
  EMU_CHECK_DEVICE(id);
  emu::memory_info(id, total, free_bytes);
  return SKIFF_SUCCESS;
}

SkiffStatus allocate(int32_t id, size_t nbytes, void** ptr) {
  EMU_CHECK_DEVICE(id);
  return emu::allocate(id, nbytes, ptr);
}
SkiffStatus deallocate(int32_t id, void* ptr, size_t) {
  EMU_CHECK_DEVICE(id);
  // Work queued before the free may still read the block.
  emu::stream_of(id, nullptr)->synchronize();
  return emu::deallocate(id, ptr);
}
SkiffStatus host_allocate(int32_t, size_t nbytes, void** ptr) {
  *ptr = std::malloc(nbytes == 0 ? 1 : nbytes);
  return *ptr ? SKIFF_SUCCESS : SKIFF_OUT_OF_MEMORY;
}
SkiffStatus host_deallocate(int32_t, void* ptr, size_t) {
  std::free(ptr);
  return SKIFF_SUCCESS;
}

// Copies check that the device side is device memory: a host pointer passed as a device one
// is the bug an emulated device must catch.
SkiffStatus async_copy(int32_t id, SkiffStream s, void* dst, const void* src, size_t n,
                       bool dst_dev, bool src_dev, const char* fn) {
  EMU_CHECK_DEVICE(id);
  if (n == 0) return SKIFF_SUCCESS;
  if (dst_dev && !emu::owns(id, dst, n)) {
    return fail(std::string(fn) + ": destination is not emu_npu device memory");
  }
  if (src_dev && !emu::owns(id, src, n)) {
    return fail(std::string(fn) + ": source is not emu_npu device memory");
  }
  emu::stream_of(id, s)->enqueue([dst, src, n] { std::memcpy(dst, src, n); });
  return SKIFF_SUCCESS;
}
SkiffStatus sync_copy(int32_t id, void* dst, const void* src, size_t n, bool dst_dev,
                      bool src_dev, const char* fn) {
  const SkiffStatus s = async_copy(id, nullptr, dst, src, n, dst_dev, src_dev, fn);
  if (s == SKIFF_SUCCESS) emu::stream_of(id, nullptr)->synchronize();
  return s;
}
SkiffStatus memcpy_h2d(int32_t id, void* dst, const void* src, size_t n) {
  return sync_copy(id, dst, src, n, true, false, "memcpy_h2d");
}
SkiffStatus memcpy_d2h(int32_t id, void* dst, const void* src, size_t n) {
  return sync_copy(id, dst, src, n, false, true, "memcpy_d2h");
}
SkiffStatus memcpy_d2d(int32_t id, void* dst, const void* src, size_t n) {
  return sync_copy(id, dst, src, n, true, true, "memcpy_d2d");
}
SkiffStatus async_memcpy_h2d(int32_t id, SkiffStream s, void* dst, const void* src, size_t n) {
  return async_copy(id, s, dst, src, n, true, false, "async_memcpy_h2d");
}
SkiffStatus async_memcpy_d2h(int32_t id, SkiffStream s, void* dst, const void* src, size_t n) {
  return async_copy(id, s, dst, src, n, false, true, "async_memcpy_d2h");
}
SkiffStatus async_memcpy_d2d(int32_t id, SkiffStream s, void* dst, const void* src, size_t n) {
  return async_copy(id, s, dst, src, n, true, true, "async_memcpy_d2d");
}
SkiffStatus memset_device(int32_t id, SkiffStream s, void* ptr, int value, size_t n) {
  EMU_CHECK_DEVICE(id);
  if (n && !emu::owns(id, ptr, n)) return fail("memset: not emu_npu device memory");
  emu::stream_of(id, s)->enqueue([ptr, value, n] { std::memset(ptr, value, n); });
  return SKIFF_SUCCESS;
}

SkiffStatus create_stream(int32_t id, SkiffStream* s) {
  EMU_CHECK_DEVICE(id);
  *s = reinterpret_cast<SkiffStream>(new emu::Stream(id));
  return SKIFF_SUCCESS;
}
SkiffStatus destroy_stream(int32_t, SkiffStream s) {
  delete reinterpret_cast<emu::Stream*>(s);
  return SKIFF_SUCCESS;
}
SkiffStatus query_stream(int32_t id, SkiffStream s) {
  EMU_CHECK_DEVICE(id);
  return emu::stream_of(id, s)->idle() ? SKIFF_SUCCESS : SKIFF_NOT_READY;
}
SkiffStatus synchronize_stream(int32_t id, SkiffStream s) {
  EMU_CHECK_DEVICE(id);
  emu::stream_of(id, s)->synchronize();
  return SKIFF_SUCCESS;
}
SkiffStatus create_event(int32_t, SkiffEvent* e) {
  *e = reinterpret_cast<SkiffEvent>(new emu::Event());
  return SKIFF_SUCCESS;
}
SkiffStatus destroy_event(int32_t, SkiffEvent e) {
  auto* ev = reinterpret_cast<emu::Event*>(e);
  ev->wait();  // a record still queued would touch it
  delete ev;
  return SKIFF_SUCCESS;
}
SkiffStatus record_event(int32_t id, SkiffStream s, SkiffEvent e) {
  EMU_CHECK_DEVICE(id);
  auto* ev = reinterpret_cast<emu::Event*>(e);
  unsigned long n;
  {
    std::lock_guard<std::mutex> lock(ev->mu);
    n = ++ev->recorded;
  }
  emu::stream_of(id, s)->enqueue([ev, n] {
    std::lock_guard<std::mutex> lock(ev->mu);
    if (ev->completed < n) ev->completed = n;
    ev->cv.notify_all();
  });
  return SKIFF_SUCCESS;
}
SkiffStatus query_event(int32_t, SkiffEvent e) {
  auto* ev = reinterpret_cast<emu::Event*>(e);
  std::lock_guard<std::mutex> lock(ev->mu);
  return ev->completed >= ev->recorded ? SKIFF_SUCCESS : SKIFF_NOT_READY;
}
SkiffStatus synchronize_event(int32_t, SkiffEvent e) {
  reinterpret_cast<emu::Event*>(e)->wait();
  return SKIFF_SUCCESS;
}
SkiffStatus stream_wait_event(int32_t id, SkiffStream s, SkiffEvent e) {
  EMU_CHECK_DEVICE(id);
  auto* ev = reinterpret_cast<emu::Event*>(e);
  unsigned long target;
  {
    std::lock_guard<std::mutex> lock(ev->mu);
    target = ev->recorded;
  }
  emu::stream_of(id, s)->enqueue([ev, target] {
    std::unique_lock<std::mutex> lock(ev->mu);
    ev->cv.wait(lock, [&] { return ev->completed >= target; });
  });
  return SKIFF_SUCCESS;
}
SkiffStatus synchronize_device(int32_t id) {
  EMU_CHECK_DEVICE(id);
  emu::stream_of(id, nullptr)->synchronize();
  return SKIFF_SUCCESS;
}
const char* get_last_error() { return emu::last_error(); }
SkiffStatus get_device_properties(int32_t id, SkiffDeviceProperties* props) {
  EMU_CHECK_DEVICE(id);
  std::memset(props, 0, sizeof(*props));
  std::strncpy(props->name, "Emulated NPU", sizeof(props->name) - 1);
  size_t free_bytes = 0;
  size_t total = 0;
  emu::memory_info(id, &total, &free_bytes);
  props->total_memory = total;
  props->compute_units = 1;
  return SKIFF_SUCCESS;
}

const SkiffDeviceOps kOps = {
    init, finalize, get_device_count, init_device, deinit_device, set_device, get_device,
    memory_info, allocate, deallocate, host_allocate, host_deallocate, memcpy_h2d, memcpy_d2h,
    memcpy_d2d, async_memcpy_h2d, async_memcpy_d2h, async_memcpy_d2d, create_stream,
    destroy_stream, query_stream, synchronize_stream, create_event, destroy_event, record_event,
    query_event, synchronize_event, stream_wait_event, synchronize_device, get_last_error,
    get_device_properties, memset_device,
};

}  // namespace

extern "C" SKIFF_PLUGIN_EXPORT int skiff_device_plugin_init(uint32_t host_major, uint32_t,
                                                            SkiffPluginInfo* info) {
  info->abi_major = SKIFF_DEVICE_ABI_MAJOR;
  info->abi_minor = SKIFF_DEVICE_ABI_MINOR;
  if (host_major != SKIFF_DEVICE_ABI_MAJOR) return 1;
  info->device_type = "emu_npu";
  info->vendor = "Skiff (emulated NPU, host memory)";
  info->ops = &kOps;
  info->ops_size = sizeof(SkiffDeviceOps);
  info->kernels = emu::kernel_defs(&info->num_kernels);
  info->ccl = nullptr;
  info->ccl_size = 0;
  return 0;
}
