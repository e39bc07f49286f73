// Builder: creates ops at an insertion point (before an op or at the end of a block) with a
// current location, plus cloning with value mapping. PatternRewriter extends it with listeners.
#pragma once

#include <initializer_list>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "skiff/ir/core/operation.h"

namespace skiff::ir {

/// Maps values and blocks of a source IR to their clones.
class IrMapping {
 public:
  void map(Value from, Value to) { values_[from.impl()] = to; }
  void map(Block* from, Block* to) { blocks_[from] = to; }
  /// The mapped value, or `v` itself when unmapped (values defined outside the cloned IR).
  Value lookup_or_self(Value v) const {
    auto it = values_.find(v.impl());
    return it == values_.end() ? v : it->second;
  }
  bool contains(Value v) const { return values_.count(v.impl()) != 0; }
  Block* lookup(Block* b) const {
    auto it = blocks_.find(b);
    return it == blocks_.end() ? nullptr : it->second;
  }

 private:
  std::unordered_map<detail::ValueImpl*, Value> values_;
  std::unordered_map<Block*, Block*> blocks_;
};

class Builder {
 public:
  explicit Builder(IrContext* ctx) : ctx_(ctx) {}
  Builder(IrContext* ctx, Block* block) : ctx_(ctx), block_(block) {}
  virtual ~Builder() = default;

  IrContext* context() const { return ctx_; }

  // Insertion point -----------------------------------------------------------------------------
  void set_insertion_point(Operation* op) {
    block_ = op->parent_block();
    before_ = op;
  }
  void set_insertion_point_after(Operation* op) {
    block_ = op->parent_block();
    before_ = op->next();
  }
  void set_insertion_point_to_start(Block* b) {
    block_ = b;
    before_ = b->front();
  }
  void set_insertion_point_to_end(Block* b) {
    block_ = b;
    before_ = nullptr;
  }
  void clear_insertion_point() {
    block_ = nullptr;
    before_ = nullptr;
  }
  Block* insertion_block() const { return block_; }
  Operation* insertion_point() const { return before_; }

  LocAttr loc() const { return loc_; }
  void set_loc(LocAttr loc) { loc_ = loc; }

  // Creation ------------------------------------------------------------------------------------
  /// Creates an op and inserts it at the insertion point (if one is set). Attributes need not be
  /// sorted.
  Operation* create(const OpInfo* info, std::span<const Value> operands,
                    std::span<const Type> result_types, std::vector<NamedAttribute> attrs = {},
                    uint32_t num_regions = 0);
  Operation* create(std::string_view name, std::span<const Value> operands,
                    std::span<const Type> result_types, std::vector<NamedAttribute> attrs = {},
                    uint32_t num_regions = 0);
  /// Creates an op whose result types come from its InferMetaInterface (kNotFound if none).
  Operation* create_inferred(std::string_view name, std::span<const Value> operands,
                             std::vector<NamedAttribute> attrs = {});
  template <typename OpT, typename... Args>
  OpT build(Args&&... args) {
    return OpT::build(*this, std::forward<Args>(args)...);
  }
  /// Inserts a detached op at the insertion point.
  Operation* insert(Operation* op);

  /// Clones `op` (with its regions), mapping operands through `map` and recording the results.
  Operation* clone(Operation* op, IrMapping& map);
  Operation* clone(Operation* op);
  /// Clones the blocks of `src` to the end of `dst`.
  void clone_region(Region& src, Region& dst, IrMapping& map);

  // Attribute helpers ---------------------------------------------------------------------------
  StrAttr str_attr(std::string_view s) const { return StrAttr::get(ctx_, s); }
  BoolAttr bool_attr(bool v) const { return BoolAttr::get(ctx_, v); }
  IntAttr int_attr(int64_t v) const { return IntAttr::get(ctx_, v); }
  FloatAttr float_attr(double v) const { return FloatAttr::get(ctx_, v); }
  DTypeAttr dtype_attr(DataType v) const { return DTypeAttr::get(ctx_, v); }
  ArrayAttr ints_attr(std::span<const int64_t> v) const { return ArrayAttr::get_ints(ctx_, v); }
  ArrayAttr floats_attr(std::span<const double> v) const { return ArrayAttr::get_floats(ctx_, v); }
  NamedAttribute named(std::string_view name, Attribute v) const { return {str_attr(name), v}; }

  /// Hook for rewriters: called after an op is inserted.
  virtual void notify_inserted(Operation*) {}

 protected:
  IrContext* ctx_;
  Block* block_ = nullptr;
  Operation* before_ = nullptr;
  LocAttr loc_;
};

}  // namespace skiff::ir
