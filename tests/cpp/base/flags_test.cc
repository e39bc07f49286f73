#include "skiff/base/flags.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "skiff/base/error.h"

namespace skiff {
namespace {

TEST(FlagsTest, ReadsEnvironmentAndRegisters) {
  setenv("SKIFF_TEST_INT_FLAG", "42", 1);
  EXPECT_EQ(read_int_flag("test_int_flag", 7, "a test flag"), 42);
  EXPECT_EQ(read_int_flag("test_missing_flag", 7, "absent"), 7);
  setenv("SKIFF_TEST_BOOL_FLAG", "off", 1);
  EXPECT_FALSE(read_bool_flag("test_bool_flag", true, "a bool"));
  bool found = false;
  for (const auto& f : list_flags()) {
    if (f.name == "test_int_flag") {
      found = true;
      EXPECT_EQ(f.value, "42");
      EXPECT_EQ(f.default_value, "7");
    }
  }
  EXPECT_TRUE(found);
}

TEST(FlagsTest, BadValueNamesTheFlag) {
  setenv("SKIFF_TEST_BAD_FLAG", "12abc", 1);
  try {
    read_int_flag("test_bad_flag", 1, "bad");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("test_bad_flag"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("12abc"), std::string::npos);
  }
}

}  // namespace
}  // namespace skiff
