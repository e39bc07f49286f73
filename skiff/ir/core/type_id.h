// TypeId: a process-unique identity for a C++ class, taken from the address of a per-class static.
// Ops, types, attributes, traits and interfaces are keyed by it instead of RTTI. Ordering by
// TypeId is only used for lookups (binary search), never for anything that is printed.
#pragma once

#include <cstdint>
#include <functional>

namespace skiff::ir {

class TypeId {
 public:
  constexpr TypeId() = default;
  template <typename T>
  static TypeId get() {
    static const char anchor = 0;
    return TypeId(&anchor);
  }
  bool operator==(const TypeId& o) const { return p_ == o.p_; }
  bool operator<(const TypeId& o) const { return std::less<const void*>()(p_, o.p_); }
  explicit operator bool() const { return p_ != nullptr; }
  const void* raw() const { return p_; }

 private:
  explicit TypeId(const void* p) : p_(p) {}
  const void* p_ = nullptr;
};

template <typename T>
TypeId type_id() {
  return TypeId::get<T>();
}

}  // namespace skiff::ir
