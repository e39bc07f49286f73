// Operation: name (OpInfo), operands, results, attributes, regions and a location. One allocation
// holds [Operation][result ValueImpls][OpOperands][Regions], so an op costs a single malloc and the
// counts are fixed at creation (rewrites create new ops). Ops live in an intrusive list in their
// Block. Keep this class small: behaviour belongs to traits, interfaces and passes.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "skiff/ir/core/builtin_attributes.h"
#include "skiff/ir/core/op_info.h"
#include "skiff/ir/core/value.h"

namespace skiff::ir {

class Block;
class Region;

class Operation {
 public:
  /// Creates a detached op. Null operands are allowed (absent optional inputs).
  static Operation* create(const OpInfo* info, std::span<const Value> operands,
                           std::span<const Type> result_types,
                           std::vector<NamedAttribute> attrs = {}, uint32_t num_regions = 0,
                           LocAttr loc = LocAttr());
  /// Destroys a detached op (and everything in its regions).
  void destroy();
  /// Unlinks the op from its block and destroys it; its results must have no uses.
  void erase();
  /// Unlinks the op from its block without destroying it.
  void remove_from_parent();

  const OpInfo* info() const { return info_; }
  std::string_view name() const { return info_->name; }
  IrContext* context() const { return info_->ctx; }
  Dialect* dialect() const { return info_->dialect; }
  template <typename Trait>
  bool has_trait() const {
    return info_->has_trait<Trait>();
  }
  /// Typed interface view, empty when the op's kind does not implement I.
  template <typename I>
  I interface() {
    return I(this, info_->interface<I>());
  }

  // Operands ------------------------------------------------------------------------------------
  uint32_t num_operands() const { return num_operands_; }
  OpOperand& op_operand(uint32_t i) { return operands_begin()[i]; }
  Value operand(uint32_t i) const {
    return const_cast<Operation*>(this)->operands_begin()[i].get();
  }
  void set_operand(uint32_t i, Value v) { op_operand(i).set(v); }
  std::vector<Value> operands() const;
  std::span<OpOperand> op_operands() { return {operands_begin(), num_operands_}; }
  std::vector<Type> operand_types() const;

  // Results -------------------------------------------------------------------------------------
  uint32_t num_results() const { return num_results_; }
  Value result(uint32_t i) const {
    return Value(const_cast<detail::ValueImpl*>(&results_begin()[i]));
  }
  Type result_type(uint32_t i) const { return results_begin()[i].type; }
  std::vector<Value> results() const;
  std::vector<Type> result_types() const;
  bool use_empty() const;
  void replace_all_uses_with(std::span<const Value> values);
  void replace_all_uses_with(Operation* other);

  // Attributes (sorted by name) -----------------------------------------------------------------
  const std::vector<NamedAttribute>& attrs() const { return attrs_; }
  Attribute attr(std::string_view name) const;
  template <typename A>
  A attr_of(std::string_view name) const {
    return attr(name).dyn_cast<A>();
  }
  bool has_attr(std::string_view name) const { return static_cast<bool>(attr(name)); }
  void set_attr(std::string_view name, Attribute value);
  void remove_attr(std::string_view name);
  void set_attrs(std::vector<NamedAttribute> attrs);

  LocAttr loc() const { return loc_; }
  void set_loc(LocAttr loc) { loc_ = loc; }

  // Regions -------------------------------------------------------------------------------------
  uint32_t num_regions() const { return num_regions_; }
  inline Region& region(uint32_t i);
  inline const Region& region(uint32_t i) const;

  // Position ------------------------------------------------------------------------------------
  Block* parent_block() const { return block_; }
  Region* parent_region() const;
  Operation* parent_op() const;
  Operation* next() const { return next_; }
  Operation* prev() const { return prev_; }
  /// True when `this` is `other` or nested in one of its regions.
  bool is_inside(const Operation* other) const;
  /// True when `this` comes before `other` in the same block.
  bool is_before_in_block(const Operation* other) const;
  void move_before(Operation* other);
  void move_after(Operation* other);

  /// Drops every operand use in this op and in its regions (before bulk destruction).
  void drop_all_references();
  /// Pre-order walk over this op and every op nested in its regions. `fn` must not erase ops
  /// (collect them first); in walk_post, `fn` may erase the op it is visiting, and only that one.
  template <typename Fn>
  void walk(Fn&& fn);
  template <typename Fn>
  void walk_post(Fn&& fn);

  template <typename OpT>
  bool isa() const {
    return OpT::classof(const_cast<Operation*>(this));
  }
  template <typename OpT>
  OpT dyn_cast() {
    return OpT::classof(this) ? OpT(this) : OpT();
  }
  /// Per-op scratch word owned by the greedy rewrite driver while it runs (0 otherwise).
  uint32_t scratch() const { return scratch_; }
  void set_scratch(uint32_t v) { scratch_ = v; }
  /// A short identifier for messages: 'op.matmul' at "x.py":3:1.
  std::string describe() const;

 private:
  friend class Block;
  Operation() = default;
  ~Operation() = default;
  static void sort_attrs(const OpInfo* info, std::vector<NamedAttribute>& attrs);
  detail::ValueImpl* results_begin() const {
    return reinterpret_cast<detail::ValueImpl*>(const_cast<Operation*>(this) + 1);
  }
  OpOperand* operands_begin() {
    return reinterpret_cast<OpOperand*>(results_begin() + num_results_);
  }
  Region* regions_begin() { return reinterpret_cast<Region*>(operands_begin() + num_operands_); }

  const OpInfo* info_ = nullptr;
  Block* block_ = nullptr;
  Operation* prev_ = nullptr;
  Operation* next_ = nullptr;
  uint32_t num_results_ = 0;
  uint32_t num_operands_ = 0;
  uint32_t num_regions_ = 0;
  mutable uint32_t order_ = 0;  // position in the block, valid while the block's order is valid
  uint32_t scratch_ = 0;
  std::vector<NamedAttribute> attrs_;
  LocAttr loc_;
};

inline uint32_t OpOperand::index() const {
  return static_cast<uint32_t>(this - &owner_->op_operand(0));
}

}  // namespace skiff::ir

#include "skiff/ir/core/block.h"

namespace skiff::ir {

inline Region& Operation::region(uint32_t i) { return regions_begin()[i]; }
inline const Region& Operation::region(uint32_t i) const {
  return const_cast<Operation*>(this)->regions_begin()[i];
}

template <typename Fn>
void Operation::walk(Fn&& fn) {
  fn(this);
  for (uint32_t r = 0; r < num_regions_; ++r) {
    for (Block* b : region(r)) {
      for (Operation* op = b->front(); op;) {
        Operation* next = op->next();  // fn may erase op's successors only through the walker
        op->walk(fn);
        op = next;
      }
    }
  }
}

template <typename Fn>
void Operation::walk_post(Fn&& fn) {
  for (uint32_t r = 0; r < num_regions_; ++r) {
    for (Block* b : region(r)) {
      for (Operation* op = b->front(); op;) {
        Operation* next = op->next();
        op->walk_post(fn);
        op = next;
      }
    }
  }
  fn(this);
}

}  // namespace skiff::ir
