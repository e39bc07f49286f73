// Block (arguments + an intrusive list of ops) and Region (an ordered list of blocks owned by an
// op). Structured control flow only: blocks have no successors, so a region's blocks are
// independent scopes and dominance is "defined earlier in this block or an enclosing one".
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "skiff/ir/core/value.h"

namespace skiff::ir {

class Operation;
class Region;

class Block {
 public:
  Block() = default;
  ~Block();
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  // Arguments -----------------------------------------------------------------------------------
  uint32_t num_args() const { return static_cast<uint32_t>(args_.size()); }
  Value arg(uint32_t i) const { return Value(args_[i].get()); }
  std::vector<Value> args() const;
  std::vector<Type> arg_types() const;
  Value add_arg(Type t);
  /// Erases argument i, which must have no uses.
  void erase_arg(uint32_t i);

  // Ops -----------------------------------------------------------------------------------------
  Operation* front() const { return first_; }
  Operation* back() const { return last_; }
  bool empty() const { return first_ == nullptr; }
  size_t size() const;
  /// Inserts a detached op before `before` (nullptr: at the end).
  void insert(Operation* before, Operation* op);
  void push_back(Operation* op) { insert(nullptr, op); }
  void push_front(Operation* op) { insert(first_, op); }
  /// Unlinks op (still owned by the caller afterwards).
  void remove(Operation* op);
  /// The last op when it is a terminator, else nullptr.
  Operation* terminator() const;
  void drop_all_references();
  /// Destroys every op (after dropping references), leaving the block empty.
  void clear();

  Region* parent() const { return parent_; }
  Operation* parent_op() const;

  class Iterator {
   public:
    explicit Iterator(Operation* op) : op_(op) {}
    Operation* operator*() const { return op_; }
    Iterator& operator++();
    bool operator!=(const Iterator& o) const { return op_ != o.op_; }
    bool operator==(const Iterator& o) const { return op_ == o.op_; }

   private:
    Operation* op_;
  };
  /// Range-for over the ops; erasing the current op invalidates the iterator (loop over
  /// front()/next() and read next() first to erase while iterating).
  Iterator begin() const { return Iterator(first_); }
  Iterator end() const { return Iterator(nullptr); }

  /// Renumbers ops for is_before_in_block (called lazily).
  void recompute_order() const;
  bool order_valid() const { return order_valid_; }

 private:
  friend class Region;
  std::vector<std::unique_ptr<detail::ValueImpl>> args_;
  Operation* first_ = nullptr;
  Operation* last_ = nullptr;
  Region* parent_ = nullptr;
  mutable bool order_valid_ = false;
};

class Region {
 public:
  explicit Region(Operation* owner = nullptr) : owner_(owner) {}
  ~Region();
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  Operation* parent_op() const { return owner_; }
  bool empty() const { return blocks_.empty(); }
  size_t size() const { return blocks_.size(); }
  Block* front() const { return blocks_.front(); }
  Block* block(size_t i) const { return blocks_[i]; }
  /// Appends a new empty block and returns it.
  Block* add_block();
  /// Takes ownership of a detached block.
  void push_back(Block* b);
  /// Moves all blocks of `other` to the end of this region.
  void take_body(Region& other);
  void drop_all_references();
  void clear();

  std::vector<Block*>::const_iterator begin() const { return blocks_.begin(); }
  std::vector<Block*>::const_iterator end() const { return blocks_.end(); }

 private:
  friend class Operation;
  Operation* owner_;
  std::vector<Block*> blocks_;  // owned
};

}  // namespace skiff::ir
