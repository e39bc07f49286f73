#include "skiff/ir/core/builder.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/context.h"
#include "skiff/ir/core/interfaces.h"

namespace skiff::ir {

Operation* Builder::create(const OpInfo* info, std::span<const Value> operands,
                           std::span<const Type> result_types, std::vector<NamedAttribute> attrs,
                           uint32_t num_regions) {
  Operation* op =
      Operation::create(info, operands, result_types, std::move(attrs), num_regions, loc_);
  return insert(op);
}

Operation* Builder::create(std::string_view name, std::span<const Value> operands,
                           std::span<const Type> result_types, std::vector<NamedAttribute> attrs,
                           uint32_t num_regions) {
  return create(ctx_->op_info(name), operands, result_types, std::move(attrs), num_regions);
}

Operation* Builder::create_inferred(std::string_view name, std::span<const Value> operands,
                                    std::vector<NamedAttribute> attrs) {
  const OpInfo* info = ctx_->op_info(name);
  const auto* im = info->interface<InferMetaInterface>();
  SKIFF_ENFORCE(im && im->infer, kNotFound, std::string(name), "infer_meta",
                "an InferMetaInterface attached to the op", "none");
  std::vector<Type> in(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) in[i] = operands[i] ? operands[i].type() : Type();
  std::stable_sort(attrs.begin(), attrs.end(),
                   [](const NamedAttribute& a, const NamedAttribute& b) {
                     return a.name.value() < b.name.value();
                   });
  std::vector<Type> out = im->infer(ctx_, in, attrs);
  return create(info, operands, out, std::move(attrs));
}

Operation* Builder::insert(Operation* op) {
  if (block_) {
    block_->insert(before_, op);
    notify_inserted(op);
  }
  return op;
}

Operation* Builder::clone(Operation* op, IrMapping& map) {
  std::vector<Value> operands(op->num_operands());
  for (uint32_t i = 0; i < op->num_operands(); ++i) {
    Value v = op->operand(i);
    operands[i] = v ? map.lookup_or_self(v) : Value();
  }
  std::vector<Type> types = op->result_types();
  Operation* copy =
      Operation::create(op->info(), operands, types, op->attrs(), op->num_regions(), op->loc());
  for (uint32_t i = 0; i < op->num_results(); ++i) map.map(op->result(i), copy->result(i));
  for (uint32_t r = 0; r < op->num_regions(); ++r)
    clone_region(op->region(r), copy->region(r), map);
  return insert(copy);
}

Operation* Builder::clone(Operation* op) {
  IrMapping map;
  return clone(op, map);
}

void Builder::clone_region(Region& src, Region& dst, IrMapping& map) {
  Block* saved_block = block_;
  Operation* saved_before = before_;
  for (Block* b : src) {
    Block* nb = dst.add_block();
    map.map(b, nb);
    for (uint32_t i = 0; i < b->num_args(); ++i) map.map(b->arg(i), nb->add_arg(b->arg(i).type()));
  }
  size_t i = dst.size() - src.size();
  for (Block* b : src) {
    block_ = dst.block(i++);
    before_ = nullptr;
    for (Operation* op : *b) clone(op, map);
  }
  block_ = saved_block;
  before_ = saved_before;
}

}  // namespace skiff::ir
