// A minimal host-memory device plugin compiled several ways to test the loader: the variant
// macro picks a well-formed plugin of an older ABI minor (TEST_PLUGIN_OLD_MINOR), one claiming
// another major (TEST_PLUGIN_BAD_MAJOR), one with a required function missing
// (TEST_PLUGIN_MISSING_FN), one whose init fails (TEST_PLUGIN_INIT_FAILS) and a library without
// the entry point (TEST_PLUGIN_NO_ENTRY).
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "skiff/c/device_ext.h"

namespace {
SkiffStatus ok() { return SKIFF_SUCCESS; }
SkiffStatus count(int32_t* n) { return *n = 1, SKIFF_SUCCESS; }
SkiffStatus dev(int32_t) { return SKIFF_SUCCESS; }
SkiffStatus get_dev(int32_t* id) { return *id = 0, SKIFF_SUCCESS; }
SkiffStatus mem_info(int32_t, size_t* total, size_t* free_bytes) {
  *total = 1 << 30;
  *free_bytes = 1 << 30;
  return SKIFF_SUCCESS;
}
SkiffStatus alloc(int32_t, size_t n, void** p) {
  *p = std::malloc(n ? n : 1);
  return *p ? SKIFF_SUCCESS : SKIFF_OUT_OF_MEMORY;
}
SkiffStatus dealloc(int32_t, void* p, size_t) {
  std::free(p);
  return SKIFF_SUCCESS;
}
SkiffStatus copy(int32_t, void* d, const void* s, size_t n) {
  std::memcpy(d, s, n);
  return SKIFF_SUCCESS;
}
SkiffStatus acopy(int32_t, SkiffStream, void* d, const void* s, size_t n) {
  std::memcpy(d, s, n);
  return SKIFF_SUCCESS;
}
SkiffStatus mk_stream(int32_t, SkiffStream* s) { return *s = nullptr, SKIFF_SUCCESS; }
SkiffStatus stream_op(int32_t, SkiffStream) { return SKIFF_SUCCESS; }
SkiffStatus mk_event(int32_t, SkiffEvent* e) { return *e = nullptr, SKIFF_SUCCESS; }
SkiffStatus event_op(int32_t, SkiffEvent) { return SKIFF_SUCCESS; }
SkiffStatus record(int32_t, SkiffStream, SkiffEvent) { return SKIFF_SUCCESS; }

// A minor-0 table: everything up to get_last_error, as a plugin compiled against 1.0 has it.
constexpr uint32_t kMinor0Size = offsetof(SkiffDeviceOps, get_device_properties);

SkiffDeviceOps make_ops() {
  SkiffDeviceOps o{};
  o.init = ok;
  o.finalize = ok;
  o.get_device_count = count;
  o.init_device = dev;
  o.deinit_device = dev;
  o.set_device = dev;
  o.get_device = get_dev;
  o.memory_info = mem_info;
  o.allocate = alloc;
  o.deallocate = dealloc;
  o.host_allocate = alloc;
  o.host_deallocate = dealloc;
  o.memcpy_h2d = copy;
  o.memcpy_d2h = copy;
  o.memcpy_d2d = copy;
  o.async_memcpy_h2d = acopy;
  o.async_memcpy_d2h = acopy;
  o.async_memcpy_d2d = acopy;
  o.create_stream = mk_stream;
  o.destroy_stream = stream_op;
  o.query_stream = stream_op;
  o.synchronize_stream = stream_op;
  o.create_event = mk_event;
  o.destroy_event = event_op;
  o.record_event = record;
  o.query_event = event_op;
  o.synchronize_event = event_op;
  o.stream_wait_event = record;
  o.synchronize_device = dev;
#ifdef TEST_PLUGIN_MISSING_FN
  o.memcpy_d2h = nullptr;
#endif
  return o;
}
const SkiffDeviceOps kOps = make_ops();
}  // namespace

#ifndef TEST_PLUGIN_NO_ENTRY
extern "C" SKIFF_PLUGIN_EXPORT int skiff_device_plugin_init(uint32_t, uint32_t,
                                                            SkiffPluginInfo* info) {
  info->abi_major = SKIFF_DEVICE_ABI_MAJOR;
  info->abi_minor = 0;
  info->ops = &kOps;
  info->ops_size = kMinor0Size;
  info->device_type = TEST_PLUGIN_TYPE;
#ifdef TEST_PLUGIN_BAD_MAJOR
  info->abi_major = SKIFF_DEVICE_ABI_MAJOR + 1;
  info->abi_minor = 3;
#endif
#ifdef TEST_PLUGIN_INIT_FAILS
  return 7;
#endif
  return 0;
}
#endif
