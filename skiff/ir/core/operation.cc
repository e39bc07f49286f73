#include "skiff/ir/core/operation.h"

#include <algorithm>
#include <new>

#include "skiff/base/error.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/core/op_base.h"

namespace skiff::ir {

// Value ------------------------------------------------------------------------------------------
Block* Value::parent_block() const {
  if (impl_->is_arg) return static_cast<Block*>(impl_->owner);
  return static_cast<Operation*>(impl_->owner)->parent_block();
}

// Operation --------------------------------------------------------------------------------------
Operation* Operation::create(const OpInfo* info, std::span<const Value> operands,
                             std::span<const Type> result_types, std::vector<NamedAttribute> attrs,
                             uint32_t num_regions, LocAttr loc) {
  sort_attrs(info, attrs);  // may throw, so before allocating
  size_t size = sizeof(Operation) + result_types.size() * sizeof(detail::ValueImpl) +
                operands.size() * sizeof(OpOperand) + num_regions * sizeof(Region);
  void* mem = ::operator new(size);
  auto* op = new (mem) Operation();
  op->info_ = info;
  op->num_results_ = static_cast<uint32_t>(result_types.size());
  op->num_operands_ = static_cast<uint32_t>(operands.size());
  op->num_regions_ = num_regions;
  op->loc_ = loc;
  detail::ValueImpl* res = op->results_begin();
  for (uint32_t i = 0; i < op->num_results_; ++i) {
    new (&res[i]) detail::ValueImpl{result_types[i], nullptr, op, i, false, 0};
  }
  OpOperand* ops = op->operands_begin();
  for (uint32_t i = 0; i < op->num_operands_; ++i) {
    new (&ops[i]) OpOperand();
    ops[i].owner_ = op;
    ops[i].set(operands[i]);
  }
  Region* regs = op->regions_begin();
  for (uint32_t i = 0; i < num_regions; ++i) new (&regs[i]) Region(op);
  op->attrs_ = std::move(attrs);
  return op;
}

void Operation::destroy() {
  SKIFF_CHECK(block_ == nullptr);
  drop_all_references();
  Region* regs = regions_begin();
  for (uint32_t i = 0; i < num_regions_; ++i) regs[i].~Region();
  OpOperand* ops = operands_begin();
  for (uint32_t i = 0; i < num_operands_; ++i) ops[i].~OpOperand();
  detail::ValueImpl* res = results_begin();
  for (uint32_t i = 0; i < num_results_; ++i) res[i].~ValueImpl();
  this->~Operation();
  ::operator delete(static_cast<void*>(this));
}

void Operation::erase() {
  SKIFF_ENFORCE(use_empty(), kPrecondition, describe(), "results", "no remaining uses on erase",
                "a result still in use");
  if (block_) block_->remove(this);
  destroy();
}

void Operation::remove_from_parent() {
  if (block_) block_->remove(this);
}

std::vector<Value> Operation::operands() const {
  std::vector<Value> out(num_operands_);
  for (uint32_t i = 0; i < num_operands_; ++i) out[i] = operand(i);
  return out;
}
std::vector<Type> Operation::operand_types() const {
  std::vector<Type> out(num_operands_);
  for (uint32_t i = 0; i < num_operands_; ++i) {
    Value v = operand(i);
    out[i] = v ? v.type() : Type();
  }
  return out;
}
std::vector<Value> Operation::results() const {
  std::vector<Value> out(num_results_);
  for (uint32_t i = 0; i < num_results_; ++i) out[i] = result(i);
  return out;
}
std::vector<Type> Operation::result_types() const {
  std::vector<Type> out(num_results_);
  for (uint32_t i = 0; i < num_results_; ++i) out[i] = result_type(i);
  return out;
}
bool Operation::use_empty() const {
  for (uint32_t i = 0; i < num_results_; ++i) {
    if (!result(i).use_empty()) return false;
  }
  return true;
}
void Operation::replace_all_uses_with(std::span<const Value> values) {
  SKIFF_ENFORCE(values.size() == num_results_, kInvalidArgument, describe(), "replacement",
                str(num_results_, " values"), values.size());
  for (uint32_t i = 0; i < num_results_; ++i) result(i).replace_all_uses_with(values[i]);
}
void Operation::replace_all_uses_with(Operation* other) {
  std::vector<Value> r = other->results();
  replace_all_uses_with(r);
}

Attribute Operation::attr(std::string_view name) const {
  for (const auto& a : attrs_) {
    if (a.name.value() == name) return a.value;
  }
  return Attribute();
}
void Operation::set_attr(std::string_view name, Attribute value) {
  auto it = std::lower_bound(
      attrs_.begin(), attrs_.end(), name,
      [](const NamedAttribute& a, std::string_view n) { return a.name.value() < n; });
  if (it != attrs_.end() && it->name.value() == name) {
    it->value = value;
    return;
  }
  attrs_.insert(it, NamedAttribute{StrAttr::get(context(), name), value});
}
void Operation::remove_attr(std::string_view name) {
  std::erase_if(attrs_, [&](const NamedAttribute& a) { return a.name.value() == name; });
}
void Operation::sort_attrs(const OpInfo* info, std::vector<NamedAttribute>& attrs) {
  auto by_name = [](const NamedAttribute& a, const NamedAttribute& b) {
    return a.name.value() < b.name.value();
  };
  // Usually already sorted (clones, printed text): skip stable_sort's buffer allocation.
  if (!std::is_sorted(attrs.begin(), attrs.end(), by_name)) {
    std::stable_sort(attrs.begin(), attrs.end(), by_name);
  }
  for (size_t i = 1; i < attrs.size(); ++i) {
    SKIFF_ENFORCE(attrs[i].name != attrs[i - 1].name, kInvalidArgument, info->name, "attributes",
                  "unique names", str("'", attrs[i].name.value(), "' twice"));
  }
}
void Operation::set_attrs(std::vector<NamedAttribute> attrs) {
  sort_attrs(info_, attrs);
  attrs_ = std::move(attrs);
}

Region* Operation::parent_region() const { return block_ ? block_->parent() : nullptr; }
Operation* Operation::parent_op() const { return block_ ? block_->parent_op() : nullptr; }

bool Operation::is_inside(const Operation* other) const {
  for (const Operation* op = this; op; op = op->parent_op()) {
    if (op == other) return true;
  }
  return false;
}

bool Operation::is_before_in_block(const Operation* other) const {
  SKIFF_CHECK(block_ && block_ == other->block_);
  if (!block_->order_valid()) block_->recompute_order();
  return order_ < other->order_;
}

void Operation::move_before(Operation* other) {
  remove_from_parent();
  other->parent_block()->insert(other, this);
}
void Operation::move_after(Operation* other) {
  remove_from_parent();
  other->parent_block()->insert(other->next(), this);
}

void Operation::drop_all_references() {
  for (uint32_t i = 0; i < num_operands_; ++i) op_operand(i).drop();
  for (uint32_t i = 0; i < num_regions_; ++i) region(i).drop_all_references();
}

std::string Operation::describe() const {
  std::string s = str("'", name(), "'");
  if (loc_) s += str(" at ", loc_.to_string());
  return s;
}

// Block ------------------------------------------------------------------------------------------
Block::~Block() { clear(); }

std::vector<Value> Block::args() const {
  std::vector<Value> out;
  for (const auto& a : args_) out.push_back(Value(a.get()));
  return out;
}
std::vector<Type> Block::arg_types() const {
  std::vector<Type> out;
  for (const auto& a : args_) out.push_back(a->type);
  return out;
}
Value Block::add_arg(Type t) {
  args_.push_back(std::make_unique<detail::ValueImpl>(
      detail::ValueImpl{t, nullptr, this, static_cast<uint32_t>(args_.size()), true, 0}));
  return Value(args_.back().get());
}
void Block::erase_arg(uint32_t i) {
  SKIFF_ENFORCE(args_[i]->first_use == nullptr, kPrecondition, "block", "argument",
                "no uses on erase", "uses");
  args_.erase(args_.begin() + i);
  for (uint32_t j = i; j < args_.size(); ++j) args_[j]->index = j;
}

size_t Block::size() const {
  size_t n = 0;
  for (Operation* op = first_; op; op = op->next_) ++n;
  return n;
}

void Block::insert(Operation* before, Operation* op) {
  SKIFF_CHECK(op->block_ == nullptr);
  op->block_ = this;
  op->next_ = before;
  op->prev_ = before ? before->prev_ : last_;
  if (op->prev_) {
    op->prev_->next_ = op;
  } else {
    first_ = op;
  }
  if (before) {
    before->prev_ = op;
  } else {
    last_ = op;
  }
  order_valid_ = false;
}

void Block::remove(Operation* op) {
  SKIFF_CHECK(op->block_ == this);
  if (op->prev_) {
    op->prev_->next_ = op->next_;
  } else {
    first_ = op->next_;
  }
  if (op->next_) {
    op->next_->prev_ = op->prev_;
  } else {
    last_ = op->prev_;
  }
  op->prev_ = op->next_ = nullptr;
  op->block_ = nullptr;
}

Operation* Block::terminator() const {
  return last_ && last_->has_trait<TerminatorTrait>() ? last_ : nullptr;
}

void Block::drop_all_references() {
  for (Operation* op = first_; op; op = op->next_) op->drop_all_references();
}

void Block::clear() {
  drop_all_references();
  while (Operation* op = last_) {
    remove(op);
    op->destroy();
  }
}

Operation* Block::parent_op() const { return parent_ ? parent_->parent_op() : nullptr; }

Block::Iterator& Block::Iterator::operator++() {
  op_ = op_->next();
  return *this;
}

void Block::recompute_order() const {
  uint32_t i = 0;
  for (Operation* op = first_; op; op = op->next_) op->order_ = i++;
  order_valid_ = true;
}

// Region -----------------------------------------------------------------------------------------
Region::~Region() { clear(); }

Block* Region::add_block() {
  auto* b = new Block();
  push_back(b);
  return b;
}
void Region::push_back(Block* b) {
  b->parent_ = this;
  blocks_.push_back(b);
}
void Region::take_body(Region& other) {
  for (Block* b : other.blocks_) push_back(b);
  other.blocks_.clear();
}
void Region::drop_all_references() {
  for (Block* b : blocks_) b->drop_all_references();
}
void Region::clear() {
  drop_all_references();
  for (Block* b : blocks_) delete b;
  blocks_.clear();
}

// Traits and interfaces ---------------------------------------------------------------------------
namespace {
bool shapes_compatible(Type a, Type b) {
  auto ta = a.dyn_cast<TensorType>(), tb = b.dyn_cast<TensorType>();
  if (!ta || !tb) return a == b;
  if (ta.rank() != tb.rank()) return false;
  for (int64_t i = 0; i < ta.rank(); ++i) {
    int64_t x = ta.shape()[i], y = tb.shape()[i];
    if (x != y && x != kDynamic && y != kDynamic) return false;
  }
  return true;
}
}  // namespace

void SameOperandsAndResultShapeTrait::verify(Operation* op) {
  std::vector<Type> types = op->operand_types();
  for (Type t : op->result_types()) types.push_back(t);
  for (size_t i = 1; i < types.size(); ++i) {
    if (!types[i] || !types[0]) continue;
    SKIFF_ENFORCE(shapes_compatible(types[0], types[i]), kInvalidArgument, op->describe(), "types",
                  "operands and results of the same shape", "mismatching shapes");
  }
}

void SameOperandsAndResultTypeTrait::verify(Operation* op) {
  std::vector<Type> types = op->operand_types();
  for (Type t : op->result_types()) types.push_back(t);
  for (size_t i = 1; i < types.size(); ++i) {
    SKIFF_ENFORCE(types[i] == types[0], kInvalidArgument, op->describe(), "types",
                  "operands and results of the same type", "mismatching types");
  }
}

bool is_pure(Operation* op) {
  if (!op->has_trait<PureTrait>()) return false;
  if (auto* se = op->info()->interface<SideEffectInterface>()) {
    if (se->has_side_effect && se->has_side_effect(op)) return false;
  }
  for (uint32_t r = 0; r < op->num_regions(); ++r) {
    for (Block* b : op->region(r)) {
      for (Operation* inner : *b) {
        if (!inner->has_trait<TerminatorTrait>() && !is_pure(inner)) return false;
      }
    }
  }
  return true;
}

std::vector<Type> InferMetaInterface::infer(std::span<const Type> inputs,
                                            std::span<const NamedAttribute> attrs) const {
  return impl_->infer(op_->context(), inputs, attrs);
}

}  // namespace skiff::ir
