// One error type for the whole framework. Every user-facing failure carries the op (or component)
// that failed, the argument at fault, what was expected and what was got, so a message reads
// "matmul: argument 'y' expected dims[0] == 3 (x.dims[1]), got [4, 5]". The Python binding maps
// ErrorCode to the matching built-in exception (ValueError, TypeError, ...).
#pragma once

#include <cstdint>
#include <exception>
#include <string>

#include "skiff/base/str.h"

namespace skiff {

enum class ErrorCode : uint8_t {
  kInvalidArgument,  // a value or shape is wrong -> ValueError
  kTypeError,        // a dtype or kind is wrong -> TypeError
  kOutOfRange,       // an index or axis is out of range -> IndexError
  kNotFound,         // a kernel, op or name does not exist -> NotImplementedError/KeyError
  kUnimplemented,    // known but not supported -> NotImplementedError
  kOutOfMemory,      // an allocator could not satisfy a request -> MemoryError
  kPrecondition,     // object state forbids the call -> RuntimeError
  kInternal,         // a bug in Skiff -> RuntimeError
  kIOError,          // file system or format failure -> OSError/ValueError
};

const char* error_code_name(ErrorCode code);

struct ErrorInfo {
  ErrorCode code = ErrorCode::kInternal;
  std::string op;        // op or component, e.g. "matmul", "allocator"
  std::string arg;       // argument at fault, may be empty
  std::string expected;  // what was expected
  std::string got;       // what was received
  std::string hint;      // optional advice
  const char* file = "";
  int line = 0;
};

class Error : public std::exception {
 public:
  explicit Error(ErrorInfo info);
  const char* what() const noexcept override { return message_.c_str(); }
  const ErrorInfo& info() const { return info_; }
  ErrorCode code() const { return info_.code; }

 private:
  ErrorInfo info_;
  std::string message_;
};

[[noreturn]] void throw_error(ErrorCode code, std::string op, std::string arg, std::string expected,
                              std::string got, const char* file, int line, std::string hint = {});

}  // namespace skiff

/// Throws skiff::Error when `cond` is false. The message arguments are evaluated only on failure:
///   SKIFF_ENFORCE(x.ndim() >= 1, kInvalidArgument, "sum", "x", "at least 1 dim", x.dims());
/// Each of op/arg/expected/got may be anything `skiff::str` accepts.
#define SKIFF_ENFORCE(cond, code, op, arg, expected, got)                                  \
  do {                                                                                     \
    if (!(cond)) [[unlikely]] {                                                            \
      ::skiff::throw_error(::skiff::ErrorCode::code, ::skiff::str(op), ::skiff::str(arg),  \
                           ::skiff::str(expected), ::skiff::str(got), __FILE__, __LINE__); \
    }                                                                                      \
  } while (0)

/// Unconditional form of SKIFF_ENFORCE.
#define SKIFF_THROW(code, op, arg, expected, got)                                     \
  ::skiff::throw_error(::skiff::ErrorCode::code, ::skiff::str(op), ::skiff::str(arg), \
                       ::skiff::str(expected), ::skiff::str(got), __FILE__, __LINE__)

/// Internal invariant: a failure is a bug in Skiff, not in the caller's input.
#define SKIFF_CHECK(cond)                                                                 \
  do {                                                                                    \
    if (!(cond)) [[unlikely]] {                                                           \
      ::skiff::throw_error(::skiff::ErrorCode::kInternal, "internal", "", #cond, "false", \
                           __FILE__, __LINE__);                                           \
    }                                                                                     \
  } while (0)
