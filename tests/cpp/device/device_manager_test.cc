// The device table: the CPU device, allocator_for through Storage and DenseTensor::empty,
// copies between places (with a fake custom device standing in for a GPU), and errors.
#include "skiff/device/device_manager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/core/views.h"
#include "tests/cpp/device/fake_device.h"

namespace skiff {
namespace {

using skiff::testing::FakeDevice;

#define EXPECT_HAS(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << (msg)

template <typename Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// Registered once per process; the registry keeps it alive.
FakeDevice* fake_device() {
  static FakeDevice* dev = [] {
    register_custom_device_type("fakedev");
    auto d = std::make_unique<FakeDevice>(SIZE_MAX, 2);
    FakeDevice* raw = d.get();
    device::register_device(Place::custom("fakedev", 0), std::move(d));
    return raw;
  }();
  return dev;
}

TEST(DeviceManagerTest, CpuDevice) {
  device::DeviceInterface* cpu = device::device_for(Place::cpu());
  EXPECT_EQ(cpu->type(), DeviceType::kCPU);
  EXPECT_EQ(cpu->name(), "cpu");
  EXPECT_EQ(cpu->device_count(), 1);
  EXPECT_TRUE(device::is_available(Place::cpu()));
  EXPECT_EQ(device::all_places().front(), Place::cpu());
  void* p = cpu->allocate(0, 100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % Allocator::kAlignment, 0u);
  char src[100] = "hello";
  cpu->copy(0, p, src, 100, device::CopyKind::kDeviceToDevice);
  EXPECT_STREQ(static_cast<char*>(p), "hello");
  cpu->deallocate(0, p, 100);
  size_t total = 0, free = 0;
  cpu->memory_info(0, &total, &free);
  EXPECT_GT(total, 0u);
  EXPECT_LE(free, total);
  synchronize(Place::cpu());
}

TEST(DeviceManagerTest, MissingDevicesAreClearErrors) {
#ifndef SKIFF_WITH_CUDA
  EXPECT_FALSE(device::is_available(Place::cuda(0)));
  std::string msg = error_of([] { device::device_for(Place::cuda(0)); });
  EXPECT_HAS(msg, "device: argument 'place'");
  EXPECT_HAS(msg, "gpu:0");
  msg = error_of([] { allocator_for(Place::cuda(1)); });
  EXPECT_HAS(msg, "gpu:1");
  msg = error_of([] { DenseTensor::empty({2}, DType::kFloat32, Place::cuda(0)); });
  EXPECT_HAS(msg, "gpu:0");
#endif
  EXPECT_FALSE(device::is_available(Place::cuda(99)));
  fake_device();
  EXPECT_FALSE(device::is_available(Place::custom("fakedev", 2)));
  const std::string m = error_of([] { device::device_for(Place::custom("fakedev", 2)); });
  EXPECT_HAS(m, "a device index below 2");
  EXPECT_HAS(m, "fakedev:2");
}

TEST(DeviceManagerTest, CpuAllocatorBehindStorageAndEmpty) {
  Allocator* a = allocator_for(Place::cpu());
  EXPECT_EQ(a, allocator_for(Place::cpu()));
  EXPECT_EQ(a->place(), Place::cpu());
  const AllocatorStats before = a->stats();
  {
    DenseTensor t = DenseTensor::empty({1000, 10}, DType::kFloat64);  // 80000 bytes
    const AllocatorStats during = a->stats();
    EXPECT_EQ(during.allocated_bytes - before.allocated_bytes, 80000);
    EXPECT_EQ(during.num_allocs, before.num_allocs + 1);
    DenseTensor view = view_transpose(t, 0, 1);  // shares the storage: no allocation
    EXPECT_EQ(a->stats().num_allocs, during.num_allocs);
    Storage s(10, Place::cpu());
    EXPECT_EQ(s.nbytes(), 10u);
    EXPECT_EQ(a->stats().allocated_bytes - during.allocated_bytes, 64);
  }
  EXPECT_EQ(a->stats().allocated_bytes, before.allocated_bytes);
}

TEST(DeviceManagerTest, AllocatorForConcurrentFirstUse) {
  std::vector<std::thread> threads;
  std::vector<Allocator*> got(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < 1000; ++k) {
        DenseTensor t = DenseTensor::empty({16}, DType::kInt32);
        got[i] = allocator_for(Place::cpu());
      }
    });
  }
  for (auto& t : threads) t.join();
  for (Allocator* a : got) EXPECT_EQ(a, allocator_for(Place::cpu()));
}

TEST(DeviceManagerTest, CopiesThroughACustomDevice) {
  FakeDevice* dev = fake_device();
  const Place fake = Place::custom("fakedev", 1);
  EXPECT_TRUE(device::is_available(fake));
  const auto places = device::all_places();
  EXPECT_NE(std::find(places.begin(), places.end(), fake), places.end());
  Allocator* a = allocator_for(fake);
  EXPECT_EQ(a->place(), fake);
  EXPECT_NE(a, allocator_for(Place::custom("fakedev", 0)));

  DenseTensor host = DenseTensor::empty({3, 4}, DType::kInt32);
  for (int i = 0; i < 12; ++i) host.data<int32_t>()[i] = i;
  const int h2d = dev->copies[0], d2h = dev->copies[1];
  DenseTensor on_dev = host.copy_to(fake);
  EXPECT_EQ(on_dev.place(), fake);
  EXPECT_EQ(dev->copies[0], h2d + 1);
  // A strided host source is made contiguous on the host first.
  DenseTensor t_dev = view_transpose(host, 0, 1).copy_to(fake);
  DenseTensor back = t_dev.copy_to(Place::cpu());
  EXPECT_EQ(dev->copies[1], d2h + 1);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(back.data<int32_t>()[i * 3 + j], j * 4 + i);
  }
  // A strided host destination is filled through a host staging buffer.
  DenseTensor wide = DenseTensor::empty({3, 8}, DType::kInt32);
  for (int i = 0; i < 24; ++i) wide.data<int32_t>()[i] = -1;
  DenseTensor dst = view_slice(wide, 1, 0, 8, 2);
  dst.copy_from(on_dev);
  for (int i = 0; i < 24; ++i) {
    EXPECT_EQ(wide.data<int32_t>()[i], i % 2 ? -1 : (i / 8) * 4 + (i % 8) / 2) << i;
  }
  // Device to device on the same device.
  DenseTensor dev2 = on_dev.copy_to(fake);
  EXPECT_GE(dev->copies[2], 1);
  EXPECT_EQ(dev2.copy_to(Place::cpu()).data<int32_t>()[11], 11);
}

// A device without a strided copy kernel: strided views move through host staging (the span
// of storage they cover), in both directions, the elements outside a destination view intact.
TEST(DeviceManagerTest, StridedCopiesOnADeviceStageThroughTheHost) {
  fake_device();
  const Place fake = Place::custom("fakedev", 0);
  DenseTensor host = DenseTensor::empty({3, 4}, DType::kInt32);
  for (int i = 0; i < 12; ++i) host.data<int32_t>()[i] = i;
  DenseTensor on_dev = host.copy_to(fake);
  DenseTensor t = view_transpose(on_dev, 0, 1);  // [4, 3], strides [1, 4]
  DenseTensor back = t.contiguous().copy_to(Place::cpu());
  ASSERT_EQ(back.dims(), (Dims{4, 3}));
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(back.data<int32_t>()[i * 3 + j], j * 4 + i);
  }
  EXPECT_EQ(t.copy_to(Place::cpu()).data<int32_t>()[1], 4);
  // Into a strided device view: column 1 of the device matrix becomes 100, 101, 102.
  DenseTensor col = on_dev.as_strided(Dims{3}, Dims{4}, 1);
  DenseTensor src = DenseTensor::empty({3}, DType::kInt32);
  for (int i = 0; i < 3; ++i) src.data<int32_t>()[i] = 100 + i;
  col.copy_from(src);
  DenseTensor all = on_dev.copy_to(Place::cpu());
  const int32_t want[12] = {0, 100, 2, 3, 4, 101, 6, 7, 8, 102, 10, 11};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(all.data<int32_t>()[i], want[i]) << i;
}

TEST(DeviceManagerTest, CopyBytes) {
  char a[16] = "abcdefghijklmno", b[16] = {};
  copy_bytes(b, Place::cpu(), a, Place::cpu(), 16);
  EXPECT_STREQ(b, a);
  copy_bytes(nullptr, Place::cuda(3), nullptr, Place::cpu(), 0);  // nothing to do
  fake_device();
  const std::string msg = error_of(
      [&] { copy_bytes(b, Place::custom("fakedev", 0), a, Place::custom("fakedev", 1), 4); });
  EXPECT_HAS(msg, "copy: argument 'dst_place'");
  EXPECT_HAS(msg, "fakedev:1");
}

}  // namespace
}  // namespace skiff
