#include "skiff/base/error.h"

#include <utility>

namespace skiff {

// Paddle's error classes (paddle/common/errors.h), so a message reads as Paddle's does:
// "(InvalidArgument) matmul: argument 'y' expected ...". Code that matches on the class keeps
// working; the Python binding raises the exception Paddle raises for the class.
const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return "InvalidArgument";
    case ErrorCode::kTypeError:
      return "InvalidType";
    case ErrorCode::kOutOfRange:
      return "OutOfRange";
    case ErrorCode::kNotFound:
      return "NotFound";
    case ErrorCode::kUnimplemented:
      return "Unimplemented";
    case ErrorCode::kOutOfMemory:
      return "ResourceExhausted";
    case ErrorCode::kPrecondition:
      return "PreconditionNotMet";
    case ErrorCode::kInternal:
      return "Fatal";
    case ErrorCode::kIOError:
      return "Unavailable";
  }
  return "Fatal";
}

namespace {
std::string format_message(const ErrorInfo& info) {
  std::string msg = str("(", error_code_name(info.code), ") ");
  msg += info.op.empty() ? std::string("skiff") : info.op;
  msg += ": ";
  if (!info.arg.empty()) msg += "argument '" + info.arg + "' ";
  if (!info.expected.empty()) msg += "expected " + info.expected;
  if (!info.got.empty()) msg += (info.expected.empty() ? "got " : ", got ") + info.got;
  if (!info.hint.empty()) msg += " (hint: " + info.hint + ")";
  if (info.code == ErrorCode::kInternal) {
    msg += str(" [internal error at ", info.file, ":", info.line, "]");
  }
  return msg;
}
}  // namespace

Error::Error(ErrorInfo info) : info_(std::move(info)), message_(format_message(info_)) {}

void throw_error(ErrorCode code, std::string op, std::string arg, std::string expected,
                 std::string got, const char* file, int line, std::string hint) {
  throw Error(ErrorInfo{code, std::move(op), std::move(arg), std::move(expected), std::move(got),
                        std::move(hint), file, line});
}

}  // namespace skiff
