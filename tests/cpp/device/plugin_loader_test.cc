// The device plugin loader (skiff/device/plugin): the emulated NPU loads and works as a device
// through the caching allocator and copies; plugins of an older ABI minor load; another major,
// a missing function, a failing init and a library without the entry point are refused with
// errors that say what is wrong.
#include "skiff/device/plugin/plugin_loader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/core/dense_tensor.h"
#include "skiff/device/device_manager.h"

namespace skiff::device {
namespace {

std::string load_error(const char* path) {
  try {
    load_plugin(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(PluginLoader, EmuNpuLoadsAndRegistersItsDevice) {
  const LoadedPlugin& p = load_plugin(SKIFF_EMU_NPU_PLUGIN);
  EXPECT_EQ(p.device_type, "emu_npu");
  EXPECT_EQ(p.abi_major, static_cast<uint32_t>(SKIFF_DEVICE_ABI_MAJOR));
  EXPECT_EQ(p.abi_minor, static_cast<uint32_t>(SKIFF_DEVICE_ABI_MINOR));
  EXPECT_GT(p.kernels.size(), 10u);
  EXPECT_EQ(&load_plugin(SKIFF_EMU_NPU_PLUGIN), &p);  // a second load is the first
  const Place npu0 = Place::parse("emu_npu:0");
  ASSERT_TRUE(is_available(npu0));
  EXPECT_TRUE(is_available(Place::parse("emu_npu:1")));
  EXPECT_EQ(device_for(npu0)->device_count(), 2);
  EXPECT_EQ(std::string(device_properties(p, 0).name), "Emulated NPU");
  EXPECT_EQ(plugin_of_type(npu0.custom_type_id()), &p);
}

TEST(PluginLoader, EmuNpuMemoryGoesThroughTheCachingAllocatorAndCopies) {
  load_plugin(SKIFF_EMU_NPU_PLUGIN);
  const Place npu = Place::parse("emu_npu:1");
  const size_t before = allocator_for(npu)->stats().allocated_bytes;
  DenseTensor host = DenseTensor::empty(Dims{4, 3}, DType::kFloat32, Place::cpu());
  for (int i = 0; i < 12; ++i) host.data<float>()[i] = static_cast<float>(i) * 0.5f;
  DenseTensor dev = host.copy_to(npu);
  EXPECT_EQ(dev.place(), npu);
  EXPECT_GE(allocator_for(npu)->stats().allocated_bytes, before + 48);
  DenseTensor dev2 = dev.copy_to(npu);  // device to device
  DenseTensor back = dev2.copy_to(Place::cpu());
  EXPECT_EQ(std::memcmp(back.data<float>(), host.data<float>(), 48), 0);
}

TEST(PluginLoader, EmuNpuRejectsAHostPointerAsDeviceMemory) {
  load_plugin(SKIFF_EMU_NPU_PLUGIN);
  const Place npu = Place::parse("emu_npu:0");
  std::vector<float> a(4), b(4);
  try {
    copy_bytes(a.data(), npu, b.data(), Place::cpu(), 16);
    FAIL() << "a host pointer was accepted as emu_npu memory";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not emu_npu device memory"), std::string::npos)
        << e.what();
  }
}

TEST(PluginLoader, EmuNpuStreamsAndEvents) {
  load_plugin(SKIFF_EMU_NPU_PLUGIN);
  DeviceInterface* d = device_for(Place::parse("emu_npu:0"));
  Stream s = d->create_stream(0);
  Event e = d->create_event(0);
  void* buf = d->allocate(0, 64);
  std::vector<char> src(64, 7), dst(64, 0);
  d->copy(0, buf, src.data(), 64, CopyKind::kHostToDevice, s);
  d->record_event(0, e, s);
  d->stream_wait_event(0, nullptr, e);
  d->synchronize_event(0, e);
  d->copy(0, dst.data(), buf, 64, CopyKind::kDeviceToHost);
  EXPECT_EQ(dst, src);
  d->deallocate(0, buf, 64);
  d->destroy_event(0, e);
  d->destroy_stream(0, s);
}

TEST(PluginLoader, OlderMinorLoadsWithDefaults) {
  const LoadedPlugin& p = load_plugin(SKIFF_TEST_PLUGIN_OLD_MINOR);
  EXPECT_EQ(p.abi_minor, 0u);
  EXPECT_EQ(p.ops.get_device_properties, nullptr);
  EXPECT_EQ(std::string(device_properties(p, 0).name), "test_old_minor");
  DenseTensor host = DenseTensor::empty(Dims{3}, DType::kInt32, Place::cpu());
  for (int i = 0; i < 3; ++i) host.data<int32_t>()[i] = i + 1;
  DenseTensor back = host.copy_to(Place::parse("test_old_minor:0")).copy_to(Place::cpu());
  EXPECT_EQ(back.data<int32_t>()[2], 3);
}

TEST(PluginLoader, AnotherMajorIsRefusedNamingBothVersions) {
  const std::string err = load_error(SKIFF_TEST_PLUGIN_BAD_MAJOR);
  EXPECT_NE(err.find("ABI 2.3"), std::string::npos) << err;
  EXPECT_NE(err.find("this Skiff is 1.1"), std::string::npos) << err;
}

TEST(PluginLoader, AMissingRequiredFunctionIsNamed) {
  const std::string err = load_error(SKIFF_TEST_PLUGIN_MISSING_FN);
  EXPECT_NE(err.find("ops.memcpy_d2h"), std::string::npos) << err;
  EXPECT_NE(err.find("required by device ABI 1.0"), std::string::npos) << err;
}

TEST(PluginLoader, AFailingInitAndAMissingEntryAreErrors) {
  EXPECT_NE(load_error(SKIFF_TEST_PLUGIN_INIT_FAILS).find("7 from"), std::string::npos);
  const std::string err = load_error(SKIFF_TEST_PLUGIN_NO_ENTRY);
  EXPECT_NE(err.find("skiff_device_plugin_init"), std::string::npos) << err;
  EXPECT_NE(load_error("/nonexistent/libnothing.so").find("loadable shared library"),
            std::string::npos);
}

}  // namespace
}  // namespace skiff::device
