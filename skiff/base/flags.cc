#include "skiff/base/flags.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>

#include "skiff/base/error.h"

namespace skiff {

namespace {
std::mutex& registry_mutex() {
  static std::mutex mu;
  return mu;
}
std::vector<FlagInfo>& registry() {
  static std::vector<FlagInfo> flags;
  return flags;
}

const char* env_value(const char* name) {
  std::string var = "SKIFF_";
  for (const char* p = name; *p; ++p) var += static_cast<char>(std::toupper(*p));
  return std::getenv(var.c_str());
}

void record(const char* name, std::string value, std::string default_value, const char* help) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().push_back(FlagInfo{name, std::move(value), std::move(default_value), help});
}
}  // namespace

std::vector<FlagInfo> list_flags() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto flags = registry();
  std::sort(flags.begin(), flags.end(),
            [](const FlagInfo& a, const FlagInfo& b) { return a.name < b.name; });
  return flags;
}

int64_t read_int_flag(const char* name, int64_t default_value, const char* help) {
  int64_t value = default_value;
  if (const char* text = env_value(name)) {
    char* end = nullptr;
    value = std::strtoll(text, &end, 10);
    SKIFF_ENFORCE(end != text && *end == '\0', kInvalidArgument, "flags", name, "an integer",
                  str("'", text, "'"));
  }
  record(name, std::to_string(value), std::to_string(default_value), help);
  return value;
}

double read_double_flag(const char* name, double default_value, const char* help) {
  double value = default_value;
  if (const char* text = env_value(name)) {
    char* end = nullptr;
    value = std::strtod(text, &end);
    SKIFF_ENFORCE(end != text && *end == '\0', kInvalidArgument, "flags", name, "a number",
                  str("'", text, "'"));
  }
  record(name, str(value), str(default_value), help);
  return value;
}

bool read_bool_flag(const char* name, bool default_value, const char* help) {
  bool value = default_value;
  if (const char* text = env_value(name)) {
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
    if (t == "1" || t == "true" || t == "on" || t == "yes") {
      value = true;
    } else if (t == "0" || t == "false" || t == "off" || t == "no") {
      value = false;
    } else {
      SKIFF_THROW(kInvalidArgument, "flags", name, "a boolean (1/0/true/false)",
                  str("'", text, "'"));
    }
  }
  record(name, value ? "true" : "false", default_value ? "true" : "false", help);
  return value;
}

std::string read_string_flag(const char* name, const char* default_value, const char* help) {
  const char* text = env_value(name);
  std::string value = text ? text : default_value;
  record(name, value, default_value, help);
  return value;
}

}  // namespace skiff
