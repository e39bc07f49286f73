// Leveled logging to stderr. The threshold comes from SKIFF_LOG_LEVEL (debug, info, warning,
// error; default warning). SKIFF_LOG_ONCE prints a message once per call site, for warnings such
// as a declared kernel fallback that would otherwise flood the log.
#pragma once

#include <atomic>
#include <sstream>

namespace skiff {

enum class LogLevel : int { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

LogLevel log_threshold();
void set_log_threshold(LogLevel level);

class LogMessage {
 public:
  LogMessage(LogLevel level, const char* file, int line);
  ~LogMessage();
  std::ostream& stream() { return stream_; }

 private:
  LogLevel level_;
  std::ostringstream stream_;
};

}  // namespace skiff

#define SKIFF_LOG_LEVEL_DEBUG ::skiff::LogLevel::kDebug
#define SKIFF_LOG_LEVEL_INFO ::skiff::LogLevel::kInfo
#define SKIFF_LOG_LEVEL_WARNING ::skiff::LogLevel::kWarning
#define SKIFF_LOG_LEVEL_ERROR ::skiff::LogLevel::kError

/// SKIFF_LOG(WARNING) << "text";
#define SKIFF_LOG(level)                                    \
  if (SKIFF_LOG_LEVEL_##level < ::skiff::log_threshold()) { \
  } else                                                    \
    ::skiff::LogMessage(SKIFF_LOG_LEVEL_##level, __FILE__, __LINE__).stream()

/// Like SKIFF_LOG, but the statement runs at most once per call site.
#define SKIFF_LOG_ONCE(level)                                                                    \
  if (static std::atomic<bool> skiff_logged_once_{false};                                        \
      SKIFF_LOG_LEVEL_##level < ::skiff::log_threshold() || skiff_logged_once_.exchange(true)) { \
  } else                                                                                         \
    ::skiff::LogMessage(SKIFF_LOG_LEVEL_##level, __FILE__, __LINE__).stream()
