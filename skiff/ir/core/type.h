// Type and Attribute: one-pointer handles to immutable storages uniqued by the IrContext, so
// equality and hashing are pointer operations. A concrete type (TensorType, ...) is a handle class
// with `classof` and accessors over its storage; `isa/dyn_cast/cast` work on the handle.
#pragma once

#include <cstddef>
#include <string_view>

#include "skiff/ir/core/type_id.h"

namespace skiff::ir {

class IrContext;
class Dialect;
class AsmPrinter;
class AsmParser;
class Type;
class Attribute;

/// Static description of one type or attribute kind: its identity, owning dialect, mnemonic and
/// print hook. Registered once per context by the dialect.
struct AbstractKind {
  TypeId id;
  Dialect* dialect = nullptr;
  std::string_view mnemonic;  // e.g. "tensor", "kernel.dense"
  void (*print_type)(Type, AsmPrinter&) = nullptr;
  void (*print_attr)(Attribute, AsmPrinter&) = nullptr;
};

/// Base of every type and attribute storage. Storages are owned by the context and never move.
struct StorageBase {
  virtual ~StorageBase() = default;
  const AbstractKind* kind = nullptr;
  size_t hash = 0;
};

template <typename Handle>
class HandleBase {
 public:
  HandleBase() = default;
  explicit HandleBase(const StorageBase* impl) : impl_(impl) {}
  explicit operator bool() const { return impl_ != nullptr; }
  bool operator==(const HandleBase& o) const { return impl_ == o.impl_; }
  bool operator!=(const HandleBase& o) const { return impl_ != o.impl_; }
  const StorageBase* impl() const { return impl_; }
  TypeId kind_id() const { return impl_ ? impl_->kind->id : TypeId(); }
  const AbstractKind* kind() const { return impl_->kind; }
  Dialect* dialect() const { return impl_->kind->dialect; }
  size_t hash() const { return reinterpret_cast<size_t>(impl_); }

  template <typename T>
  bool isa() const {
    return impl_ && T::classof(static_cast<const Handle&>(*this));
  }
  template <typename T>
  T dyn_cast() const {
    return isa<T>() ? T(impl_) : T();
  }
  template <typename T>
  T cast() const {
    return T(impl_);
  }

 protected:
  const StorageBase* impl_ = nullptr;
};

class Type : public HandleBase<Type> {
 public:
  using HandleBase::HandleBase;
};

class Attribute : public HandleBase<Attribute> {
 public:
  using HandleBase::HandleBase;
};

/// Hash of a handle for unordered containers.
struct HandleHash {
  template <typename H>
  size_t operator()(const H& h) const {
    return h.hash();
  }
};

/// Combines hashes (boost style).
inline size_t hash_combine(size_t seed, size_t v) {
  return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

}  // namespace skiff::ir
