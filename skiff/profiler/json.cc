#include "skiff/profiler/json.h"

#include <cstdlib>

#include "skiff/base/error.h"
#include "skiff/base/str.h"

namespace skiff::profiler::json {

namespace {

class Parser {
 public:
  Parser(std::string_view s, const std::string& origin) : s_(s), origin_(origin) {}

  Value document() {
    Value v = value(0);
    skip_space();
    if (pos_ != s_.size()) fail("the end of the document");
    return v;
  }

 private:
  [[noreturn]] void fail(const char* expected) {
    SKIFF_THROW(kIOError, "load_profiler_result", origin_, str("valid JSON: ", expected),
                str("something else at byte ", pos_));
  }
  void skip_space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool take(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Value value(int depth) {
    if (depth > 64) fail("at most 64 levels of nesting");
    skip_space();
    if (pos_ >= s_.size()) fail("a value");
    Value v;
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind = Value::kObject;
      if (take('}')) return v;
      do {
        skip_space();
        if (pos_ >= s_.size() || s_[pos_] != '"') fail("a member name");
        std::string key = string();
        if (!take(':')) fail("':'");
        v.members[std::move(key)] = value(depth + 1);
      } while (take(','));
      if (!take('}')) fail("'}' or ','");
    } else if (c == '[') {
      ++pos_;
      v.kind = Value::kArray;
      if (take(']')) return v;
      do {
        v.items.push_back(value(depth + 1));
      } while (take(','));
      if (!take(']')) fail("']' or ','");
    } else if (c == '"') {
      v.kind = Value::kString;
      v.text = string();
    } else if (literal("true")) {
      v.kind = Value::kBool;
      v.boolean = true;
    } else if (literal("false")) {
      v.kind = Value::kBool;
    } else if (literal("null")) {
      v.kind = Value::kNull;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const size_t start = pos_;
      while (pos_ < s_.size() &&
             std::string_view("+-.eE0123456789").find(s_[pos_]) != std::string_view::npos) {
        ++pos_;
      }
      v.kind = Value::kNumber;
      v.text.assign(s_.substr(start, pos_ - start));
    } else {
      fail("a value");
    }
    return v;
  }

  std::string string() {
    ++pos_;  // the opening quote
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("an escape");
      c = s_[pos_++];
      switch (c) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("four hex digits");
          const unsigned long cp =
              std::strtoul(std::string(s_.substr(pos_, 4)).c_str(), nullptr, 16);
          pos_ += 4;
          if (cp < 0x80) {
            out += static_cast<char>(cp);
          } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          }
          break;
        }
        default:
          out += c;  // \" \\ \/
      }
    }
    if (pos_ >= s_.size()) fail("a closing quote");
    ++pos_;
    return out;
  }

  std::string_view s_;
  const std::string& origin_;
  size_t pos_ = 0;
};

}  // namespace

const Value* Value::find(const std::string& key) const {
  auto it = members.find(key);
  return it == members.end() ? nullptr : &it->second;
}

double Value::number() const { return kind == kNumber ? std::strtod(text.c_str(), nullptr) : 0.0; }

Value parse(std::string_view text, const std::string& origin) {
  return Parser(text, origin).document();
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char* hex = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xF];
          out += hex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace skiff::profiler::json
