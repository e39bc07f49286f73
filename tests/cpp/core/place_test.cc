// Place: spelling, parsing, custom device types, backends, and errors that name the argument.
#include "skiff/core/place.h"

#include <gtest/gtest.h>

#include <string>

#include "skiff/base/error.h"
#include "tests/cpp/core/test_util.h"

namespace skiff {
namespace {

using testing::error_of;

TEST(PlaceTest, ToString) {
  EXPECT_EQ(Place::cpu().to_string(), "cpu");
  EXPECT_EQ(Place().to_string(), "cpu");
  EXPECT_EQ(Place::cuda(0).to_string(), "gpu:0");
  EXPECT_EQ(Place::cuda(3).to_string(), "gpu:3");
  EXPECT_EQ(str(Place::cuda(1)), "gpu:1");
  register_custom_device_type("npu");
  EXPECT_EQ(Place::custom("npu", 2).to_string(), "npu:2");
}

TEST(PlaceTest, Properties) {
  EXPECT_TRUE(Place::cpu().is_cpu());
  EXPECT_FALSE(Place::cpu().is_cuda());
  EXPECT_TRUE(Place::cuda(1).is_cuda());
  EXPECT_EQ(Place::cuda(1).device_id(), 1);
  EXPECT_EQ(Place::cuda(1).type(), DeviceType::kCUDA);
  EXPECT_EQ(Place::cpu(), Place());
  EXPECT_NE(Place::cuda(0), Place::cuda(1));
  EXPECT_NE(Place::cuda(0), Place::cpu());
  const int id = register_custom_device_type("npu");
  const Place p = Place::custom("npu", 1);
  EXPECT_TRUE(p.is_custom());
  EXPECT_EQ(p.custom_type_id(), id);
  EXPECT_EQ(custom_device_type_name(id), "npu");
  EXPECT_EQ(register_custom_device_type("npu"), id);  // idempotent
  EXPECT_EQ(p, Place::custom("npu", 1));
  EXPECT_NE(p, Place::custom("npu", 0));
}

TEST(PlaceTest, Parse) {
  EXPECT_EQ(Place::parse("cpu"), Place::cpu());
  EXPECT_EQ(Place::parse("gpu"), Place::cuda(0));
  EXPECT_EQ(Place::parse("gpu:1"), Place::cuda(1));
  EXPECT_EQ(Place::parse("cuda:2"), Place::cuda(2));
  EXPECT_EQ(Place::parse("gpu:32767"), Place::cuda(32767));
  register_custom_device_type("npu");
  EXPECT_EQ(Place::parse("npu:3"), Place::custom("npu", 3));
  for (const Place& p : {Place::cpu(), Place::cuda(0), Place::cuda(5), Place::custom("npu", 4)}) {
    EXPECT_EQ(Place::parse(p.to_string()), p) << p;
  }
}

TEST(PlaceTest, ParseErrorsNameTheArgument) {
  // gpu:65536 used to wrap around to gpu:0.
  for (const char* bad :
       {"gpu:x", "gpu:-1", "gpu:", "gpu:1:2", "cpu:0x", "gpu:65536", "gpu:32768"}) {
    const std::string msg = error_of([&] { Place::parse(bad); });
    EXPECT_HAS(msg, "Place");
    EXPECT_HAS(msg, "argument 'device'");
    EXPECT_HAS(msg, std::string("'") + bad + "'");
  }
  std::string msg = error_of([] { Place::parse("xpu:0"); });
  EXPECT_HAS(msg, "'type_name'");
  EXPECT_HAS(msg, "'xpu'");
  msg = error_of([] { Place::custom("not_registered", 0); });
  EXPECT_HAS(msg, "'not_registered'");
  msg = error_of([] { register_custom_device_type("gpu"); });
  EXPECT_HAS(msg, "register_custom_device_type");
  EXPECT_HAS(msg, "'gpu'");
  EXPECT_NE(error_of([] { register_custom_device_type(""); }), "no error");
  msg = error_of([] { custom_device_type_name(kMaxCustomDeviceTypes); });
  EXPECT_HAS(msg, "custom_device_type_name");
  EXPECT_HAS(msg, "'id'");
}

TEST(PlaceTest, Backends) {
  EXPECT_EQ(backend_of(Place::cpu()), Backend::kCPU);
  EXPECT_EQ(backend_of(Place::cuda(1)), Backend::kCUDA);
  const int id = register_custom_device_type("npu");
  const Backend npu = backend_of(Place::custom("npu", 0));
  EXPECT_EQ(static_cast<int>(npu), static_cast<int>(Backend::kCustom0) + id);
  EXPECT_EQ(backend_name(Backend::kReference), "reference");
  EXPECT_EQ(backend_name(Backend::kCPU), "cpu");
  EXPECT_EQ(backend_name(Backend::kCUDA), "cuda");
  EXPECT_EQ(backend_name(npu), "npu");
  for (Backend b : {Backend::kReference, Backend::kCPU, Backend::kCUDA, npu}) {
    EXPECT_EQ(parse_backend(backend_name(b)), b);
  }
  EXPECT_EQ(parse_backend("gpu"), Backend::kCUDA);
  const std::string msg = error_of([] { parse_backend("tpu"); });
  EXPECT_HAS(msg, "backend");
  EXPECT_HAS(msg, "'tpu'");
}

}  // namespace
}  // namespace skiff
