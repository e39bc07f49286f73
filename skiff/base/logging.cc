#include "skiff/base/logging.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>

namespace skiff {

namespace {
LogLevel parse_level(const char* text) {
  if (text == nullptr) return LogLevel::kWarning;
  if (!strcasecmp(text, "debug") || !strcmp(text, "0")) return LogLevel::kDebug;
  if (!strcasecmp(text, "info") || !strcmp(text, "1")) return LogLevel::kInfo;
  if (!strcasecmp(text, "error") || !strcmp(text, "3")) return LogLevel::kError;
  return LogLevel::kWarning;
}

std::atomic<int>& threshold() {
  static std::atomic<int> level{static_cast<int>(parse_level(std::getenv("SKIFF_LOG_LEVEL")))};
  return level;
}

const char* level_tag(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "D";
    case LogLevel::kInfo:
      return "I";
    case LogLevel::kWarning:
      return "W";
    case LogLevel::kError:
      return "E";
  }
  return "?";
}
}  // namespace

LogLevel log_threshold() {
  return static_cast<LogLevel>(threshold().load(std::memory_order_relaxed));
}

void set_log_threshold(LogLevel level) { threshold().store(static_cast<int>(level)); }

LogMessage::LogMessage(LogLevel level, const char* file, int line) : level_(level) {
  const char* base = std::strrchr(file, '/');
  stream_ << "[skiff " << level_tag(level) << " " << (base ? base + 1 : file) << ":" << line
          << "] ";
}

LogMessage::~LogMessage() {
  static std::mutex mu;
  stream_ << '\n';
  std::lock_guard<std::mutex> lock(mu);
  std::cerr << stream_.str();
  (void)level_;
}

}  // namespace skiff
