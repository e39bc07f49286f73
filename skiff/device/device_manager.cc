#include "skiff/device/device_manager.h"

#include <array>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#include "skiff/base/error.h"
#include "skiff/base/flags.h"
#include "skiff/device/best_fit_allocator.h"
#include "skiff/device/cpu_device.h"

SKIFF_DEFINE_FLAG(int, allocator_chunk_mb, 32,
                  "least memory in MiB the caching allocator requests from a device at a time")

namespace skiff {

#ifdef SKIFF_WITH_CUDA
namespace device {
std::unique_ptr<DeviceInterface> make_cuda_device();  // null when no GPU is present
}
#endif

namespace device {

namespace {
// Device slot of a place: CPU, CUDA, then one slot per custom device type.
int slot_of(const Place& place) {
  switch (place.type()) {
    case DeviceType::kCPU:
      return 0;
    case DeviceType::kCUDA:
      return 1;
    case DeviceType::kCustom:
      return 2 + place.custom_type_id();
  }
  return 0;
}

struct Registry {
  std::mutex mu;
  std::array<std::unique_ptr<DeviceInterface>, 2 + kMaxCustomDeviceTypes> devices;
  std::map<std::tuple<int, int>, std::unique_ptr<Allocator>> allocators;  // (slot, device id)

  Registry() {
    devices[0] = make_cpu_device();
#ifdef SKIFF_WITH_CUDA
    devices[1] = make_cuda_device();
#endif
  }
};

Registry& registry() {
  // Leaked on purpose: tensors in static storage may be freed after main returns.
  static Registry* r = new Registry();
  return *r;
}

DeviceInterface* device_locked(Registry& r, const Place& place) {
  DeviceInterface* d = r.devices[slot_of(place)].get();
  SKIFF_ENFORCE(d != nullptr, kNotFound, "device", "place",
                "a place whose device is compiled in and present", place);
  SKIFF_ENFORCE(place.device_id() >= 0 && place.device_id() < d->device_count(), kOutOfRange,
                "device", "place", str("a device index below ", d->device_count()), place);
  return d;
}
}  // namespace

void register_device(const Place& any_place_of_type, std::unique_ptr<DeviceInterface> device) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.devices[slot_of(any_place_of_type)] = std::move(device);
}

DeviceInterface* device_for(const Place& place) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return device_locked(r, place);
}

bool is_available(const Place& place) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  DeviceInterface* d = r.devices[slot_of(place)].get();
  return d != nullptr && place.device_id() >= 0 && place.device_id() < d->device_count();
}

std::vector<Place> all_places() {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<Place> places{Place::cpu()};
  if (r.devices[1]) {
    for (int i = 0; i < r.devices[1]->device_count(); ++i) places.push_back(Place::cuda(i));
  }
  for (int t = 0; t < kMaxCustomDeviceTypes; ++t) {
    if (!r.devices[2 + t]) continue;
    const std::string name = custom_device_type_name(t);
    for (int i = 0; i < r.devices[2 + t]->device_count(); ++i) {
      places.push_back(Place::custom(name, i));
    }
  }
  return places;
}

}  // namespace device

Allocator* allocator_for(const Place& place) {
  // The CPU allocator is looked up on every host allocation: cache it past the lock. Atomic
  // because other threads read it while the first lookup writes it.
  static std::atomic<Allocator*> cpu{nullptr};
  if (place.is_cpu()) {
    if (Allocator* a = cpu.load(std::memory_order_acquire)) return a;
  }
  auto& r = device::registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto& slot = r.allocators[{device::slot_of(place), place.device_id()}];
  if (!slot) {
    device::DeviceInterface* d = device::device_locked(r, place);
    const size_t chunk = static_cast<size_t>(flags::allocator_chunk_mb()) << 20;
    slot = std::make_unique<device::BestFitAllocator>(d, place, chunk);
  }
  if (place.is_cpu()) cpu.store(slot.get(), std::memory_order_release);
  return slot.get();
}

void copy_bytes(void* dst, const Place& dst_place, const void* src, const Place& src_place,
                size_t nbytes) {
  if (nbytes == 0) return;
  if (dst_place.is_cpu() && src_place.is_cpu()) {
    std::memcpy(dst, src, nbytes);
    return;
  }
  if (src_place.is_cpu()) {
    device::device_for(dst_place)->copy(dst_place.device_id(), dst, src, nbytes,
                                        device::CopyKind::kHostToDevice);
    return;
  }
  if (dst_place.is_cpu()) {
    device::device_for(src_place)->copy(src_place.device_id(), dst, src, nbytes,
                                        device::CopyKind::kDeviceToHost);
    return;
  }
  SKIFF_ENFORCE(dst_place == src_place, kUnimplemented, "copy", "dst_place",
                str("the same device as the source (", src_place, ") or the CPU"), dst_place);
  device::device_for(dst_place)->copy(dst_place.device_id(), dst, src, nbytes,
                                      device::CopyKind::kDeviceToDevice);
}

void synchronize(const Place& place) { device::device_for(place)->synchronize(place.device_id()); }

}  // namespace skiff
