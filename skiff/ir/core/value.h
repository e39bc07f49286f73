// Values and their use-def chains. A Value is a one-pointer handle to a ValueImpl, which is either
// an op result (stored inside the op's allocation) or a block argument. Each use is an OpOperand
// in an intrusive doubly linked list headed by the value, so adding, removing and redirecting a
// use are O(1).
#pragma once

#include <cstdint>

#include "skiff/ir/core/type.h"

namespace skiff::ir {

class Operation;
class Block;
class OpOperand;

namespace detail {
struct ValueImpl {
  Type type;
  OpOperand* first_use = nullptr;
  void* owner = nullptr;  // Operation* for results, Block* for arguments
  uint32_t index = 0;
  bool is_arg = false;
  uint8_t visible = 0;  // scratch of the verifier (see verifier.cc)
};
}  // namespace detail

class Value {
 public:
  Value() = default;
  Value(detail::ValueImpl* impl) : impl_(impl) {}  // NOLINT: implicit handle conversion
  explicit operator bool() const { return impl_ != nullptr; }
  bool operator==(const Value& o) const { return impl_ == o.impl_; }
  bool operator!=(const Value& o) const { return impl_ != o.impl_; }
  detail::ValueImpl* impl() const { return impl_; }

  Type type() const { return impl_->type; }
  void set_type(Type t) { impl_->type = t; }
  bool is_block_arg() const { return impl_->is_arg; }
  /// The op that defines this value, or nullptr for a block argument.
  Operation* defining_op() const {
    return impl_->is_arg ? nullptr : static_cast<Operation*>(impl_->owner);
  }
  /// The block owning the argument, or the block of the defining op.
  Block* parent_block() const;
  uint32_t index() const { return impl_->index; }

  OpOperand* first_use() const { return impl_->first_use; }
  bool use_empty() const { return impl_->first_use == nullptr; }
  bool has_one_use() const;
  size_t use_count() const;
  /// Redirects every use to `v`.
  void replace_all_uses_with(Value v) const;
  /// Redirects the uses for which `pred(use)` holds.
  template <typename Pred>
  void replace_uses_if(Value v, Pred pred) const;

  class UseIterator;
  struct UseRange;
  UseRange uses() const;

 private:
  detail::ValueImpl* impl_ = nullptr;
};

/// A value defined as result `result_number()` of `owner()`.
class OpResult : public Value {
 public:
  OpResult() = default;
  /// The result view of `v`, empty when `v` is a block argument.
  static OpResult of(Value v) { return v && !v.is_block_arg() ? OpResult(v.impl()) : OpResult(); }
  Operation* owner() const { return defining_op(); }
  uint32_t result_number() const { return index(); }

 private:
  explicit OpResult(detail::ValueImpl* impl) : Value(impl) {}
};

/// A value defined as argument `arg_number()` of block `owner()`.
class BlockArgument : public Value {
 public:
  BlockArgument() = default;
  static BlockArgument of(Value v) {
    return v && v.is_block_arg() ? BlockArgument(v.impl()) : BlockArgument();
  }
  Block* owner() const { return static_cast<Block*>(impl()->owner); }
  uint32_t arg_number() const { return index(); }

 private:
  explicit BlockArgument(detail::ValueImpl* impl) : Value(impl) {}
};

/// One use of a value by an op operand slot.
class OpOperand {
 public:
  OpOperand() = default;
  OpOperand(const OpOperand&) = delete;
  OpOperand& operator=(const OpOperand&) = delete;
  ~OpOperand() { drop(); }

  Value get() const { return Value(value_); }
  void set(Value v) {
    drop();
    value_ = v.impl();
    if (!value_) return;
    next_ = value_->first_use;
    if (next_) next_->back_ = &next_;
    back_ = &value_->first_use;
    value_->first_use = this;
  }
  void drop() {
    if (!value_) return;
    *back_ = next_;
    if (next_) next_->back_ = back_;
    value_ = nullptr;
    next_ = nullptr;
    back_ = nullptr;
  }
  Operation* owner() const { return owner_; }
  OpOperand* next_use() const { return next_; }
  uint32_t index() const;

 private:
  friend class Operation;
  detail::ValueImpl* value_ = nullptr;
  OpOperand* next_ = nullptr;
  OpOperand** back_ = nullptr;
  Operation* owner_ = nullptr;
};

class Value::UseIterator {
 public:
  explicit UseIterator(OpOperand* u) : u_(u), next_(u ? u->next_use() : nullptr) {}
  OpOperand& operator*() const { return *u_; }
  OpOperand* operator->() const { return u_; }
  // Reads `next` before the caller may unlink the current use, so erasing while iterating works.
  UseIterator& operator++() {
    u_ = next_;
    next_ = u_ ? u_->next_use() : nullptr;
    return *this;
  }
  bool operator!=(const UseIterator& o) const { return u_ != o.u_; }
  bool operator==(const UseIterator& o) const { return u_ == o.u_; }

 private:
  OpOperand* u_;
  OpOperand* next_;
};

struct Value::UseRange {
  OpOperand* first;
  UseIterator begin() const { return UseIterator(first); }
  UseIterator end() const { return UseIterator(nullptr); }
};

inline Value::UseRange Value::uses() const { return UseRange{impl_->first_use}; }

inline bool Value::has_one_use() const { return impl_->first_use && !impl_->first_use->next_use(); }
inline size_t Value::use_count() const {
  size_t n = 0;
  for (OpOperand* u = impl_->first_use; u; u = u->next_use()) ++n;
  return n;
}
inline void Value::replace_all_uses_with(Value v) const {
  if (v == *this) return;
  while (OpOperand* u = impl_->first_use) u->set(v);
}
template <typename Pred>
void Value::replace_uses_if(Value v, Pred pred) const {
  if (v == *this) return;
  for (OpOperand& u : uses()) {
    if (pred(u)) u.set(v);
  }
}

struct ValueHash {
  size_t operator()(const Value& v) const { return reinterpret_cast<size_t>(v.impl()); }
};

}  // namespace skiff::ir
