#include "skiff/base/error.h"

#include <gtest/gtest.h>

#include <vector>

#include "skiff/base/logging.h"

namespace skiff {
namespace {

TEST(ErrorTest, MessageNamesOpArgumentExpectedAndGot) {
  std::vector<int64_t> dims{4, 5};
  try {
    SKIFF_ENFORCE(dims[0] == 3, kInvalidArgument, "matmul", "y", "dims[0] == 3", dims);
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_STREQ(e.what(),
                 "(InvalidArgument) matmul: argument 'y' expected dims[0] == 3, got [4, 5]");
    EXPECT_EQ(e.info().op, "matmul");
    EXPECT_EQ(e.info().arg, "y");
  }
}

TEST(ErrorTest, ArgumentsAreNotEvaluatedOnSuccess) {
  int evaluated = 0;
  auto expensive = [&] {
    ++evaluated;
    return std::string("x");
  };
  SKIFF_ENFORCE(true, kInvalidArgument, "op", expensive(), expensive(), expensive());
  EXPECT_EQ(evaluated, 0);
}

TEST(ErrorTest, CheckReportsInternalErrorWithLocation) {
  try {
    SKIFF_CHECK(1 + 1 == 3);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInternal);
    EXPECT_NE(std::string(e.what()).find("error_test.cc"), std::string::npos);
  }
}

TEST(StrTest, FormatsRangesAndBools) {
  EXPECT_EQ(str(std::vector<int>{1, 2}, " ", true, " ", int8_t{-3}), "[1, 2] true -3");
  EXPECT_EQ(join(std::vector<std::string>{"a", "b"}, ", "), "a, b");
}

TEST(LoggingTest, OnceLogsOnlyOnce) {
  testing::internal::CaptureStderr();
  set_log_threshold(LogLevel::kWarning);
  for (int i = 0; i < 3; ++i) SKIFF_LOG_ONCE(WARNING) << "fallback " << i;
  SKIFF_LOG(DEBUG) << "hidden";
  std::string out = testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("fallback 0"), std::string::npos);
  EXPECT_EQ(out.find("fallback 1"), std::string::npos);
  EXPECT_EQ(out.find("hidden"), std::string::npos);
}

}  // namespace
}  // namespace skiff
