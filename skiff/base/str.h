// String building for messages: str(a, b, c) concatenates anything printable, including vectors
// and spans (printed as [1, 2, 3]). Kept tiny because error paths include it everywhere.
#pragma once

#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace skiff {

namespace detail {
template <typename T>
concept Streamable = requires(std::ostream& os, const T& v) {
  os << v;
};

template <typename T>
void append(std::ostringstream& os, const T& v);

template <typename T>
void append_range(std::ostringstream& os, const T& range) {
  os << '[';
  bool first = true;
  for (const auto& e : range) {
    if (!first) os << ", ";
    first = false;
    append(os, e);
  }
  os << ']';
}

template <typename T>
void append(std::ostringstream& os, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    os << (v ? "true" : "false");
  } else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
    os << static_cast<int>(v);
  } else if constexpr (Streamable<T>) {
    os << v;
  } else {
    append_range(os, v);
  }
}
}  // namespace detail

template <typename... Args>
std::string str(const Args&... args) {
  if constexpr (sizeof...(Args) == 1 &&
                (std::is_convertible_v<const Args&, std::string_view> && ...)) {
    return std::string(std::string_view(args...));
  } else {
    std::ostringstream os;
    (detail::append(os, args), ...);
    return os.str();
  }
}

/// Joins the elements of a range with `sep`.
template <typename Range>
std::string join(const Range& range, std::string_view sep) {
  std::ostringstream os;
  bool first = true;
  for (const auto& e : range) {
    if (!first) os << sep;
    first = false;
    detail::append(os, e);
  }
  return os.str();
}

}  // namespace skiff
