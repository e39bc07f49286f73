// Process-wide flags read from environment variables named SKIFF_<NAME> (upper case), e.g.
// SKIFF_ALLOCATOR_CHUNK_MB=64. Flags register themselves in one table so `skiff flags` can list
// them with their current values and help text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace skiff {

struct FlagInfo {
  std::string name;  // lower-case name, e.g. "allocator_chunk_mb"
  std::string value;
  std::string default_value;
  std::string help;
};

/// Every registered flag with its current value.
std::vector<FlagInfo> list_flags();

int64_t read_int_flag(const char* name, int64_t default_value, const char* help);
double read_double_flag(const char* name, double default_value, const char* help);
bool read_bool_flag(const char* name, bool default_value, const char* help);
std::string read_string_flag(const char* name, const char* default_value, const char* help);

}  // namespace skiff

/// Defines `skiff::flags::name()` returning the flag's value, read once from SKIFF_<NAME>.
#define SKIFF_DEFINE_FLAG(type, name, default_value, help)                             \
  namespace skiff::flags {                                                             \
  inline auto name() {                                                                 \
    static const auto value = ::skiff::read_##type##_flag(#name, default_value, help); \
    return value;                                                                      \
  }                                                                                    \
  }
