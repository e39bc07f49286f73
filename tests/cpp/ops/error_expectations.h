// Expectations on the errors Skiff's public calls raise: the error class and the text the user
// reads. Shared by the op and runtime tests so every bad-input test checks the same two things.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/base/str.h"

namespace skiff::testing {

/// Fails unless `f()` throws a skiff::Error of class `code` whose message contains every fragment.
template <typename F>
void expect_error(const F& f, ErrorCode code, const std::vector<std::string>& fragments) {
  try {
    f();
    ADD_FAILURE() << "no error; expected (" << error_code_name(code) << ") with '"
                  << (fragments.empty() ? std::string() : fragments.front()) << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << "got (" << error_code_name(e.code()) << "): " << e.what();
    for (const auto& fragment : fragments) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
          << "'" << fragment << "' not in: " << e.what();
    }
  }
}

/// The one-fragment form of expect_error.
template <typename F>
void expect_error_containing(const F& f, ErrorCode code, const std::string& fragment) {
  expect_error(f, code, std::vector<std::string>{fragment});
}

/// Fails unless `f()` throws a skiff::Error whose whole message is "(<class>) <message>".
template <typename F>
void expect_error_message(const F& f, ErrorCode code, const std::string& message) {
  try {
    f();
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << "got (" << error_code_name(e.code()) << "): " << e.what();
    EXPECT_EQ(e.what(), str("(", error_code_name(code), ") ", message));
  }
}

/// expect_error_message for the most common class.
template <typename F>
void expect_invalid_argument(const F& f, const std::string& message) {
  expect_error_message(f, ErrorCode::kInvalidArgument, message);
}

}  // namespace skiff::testing
