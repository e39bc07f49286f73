// A small JSON reader for loading saved traces back (the profiler depends on base only, so it
// cannot use the front end's safetensors header parser). Numbers keep their source text, so
// integer nanoseconds survive exactly.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace skiff::profiler::json {

struct Value {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  bool boolean = false;
  std::string text;  // the string, or the number as written
  std::vector<Value> items;
  std::map<std::string, Value> members;

  const Value* find(const std::string& key) const;
  double number() const;
};

/// Parses `text`; throws a kIOError naming `origin` and the byte offset of the problem.
Value parse(std::string_view text, const std::string& origin);

/// `s` as a JSON string literal (quotes included).
std::string quote(std::string_view s);

}  // namespace skiff::profiler::json
