#include "skiff/ir/dialects/cf.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/dialects/kernel.h"

namespace skiff::ir {

CfDialect::CfDialect(IrContext* ctx) : Dialect(ctx, kName) {
  register_op<IfOp>();
  register_op<WhileOp>();
  register_op<YieldOp>();
}

namespace {
// The tensor type of an unplaced or placed (kernel dialect, after lowering) value.
TensorType tensor_of(Type t) {
  if (auto p = t.dyn_cast<DenseTensorOnPlaceType>()) return p.tensor();
  return t.dyn_cast<TensorType>();
}
}  // namespace

bool flows_into(Type from, Type to) {
  if (from == to) return true;
  TensorType a = tensor_of(from), b = tensor_of(to);
  if (!a || !b || a.dtype() != b.dtype() || a.rank() != b.rank()) return false;
  if (from.isa<DenseTensorOnPlaceType>() != to.isa<DenseTensorOnPlaceType>()) return false;
  for (int64_t i = 0; i < a.rank(); ++i) {
    if (b.shape()[i] != kDynamic && b.shape()[i] != a.shape()[i]) return false;
  }
  return true;
}

namespace {
void verify_cond(Operation* op, Value c) {
  auto t = c ? tensor_of(c.type()) : TensorType();
  SKIFF_ENFORCE(t && t.dtype() == DataType::kBool && t.numel() <= 1, kTypeError, op->describe(),
                "cond", "a bool tensor with one element", c ? to_string(c.type()) : "null");
}
// The yield ending `b` must produce `types` (after `skip` leading operands).
void verify_yield(Operation* op, Block* b, std::span<const Type> types, size_t skip,
                  std::string_view what) {
  Operation* y = b->back();
  SKIFF_ENFORCE(y && y->isa<YieldOp>(), kInvalidArgument, op->describe(), what,
                "a block ending with cf.yield", y ? std::string(y->name()) : "an empty block");
  SKIFF_ENFORCE(y->num_operands() == types.size() + skip, kInvalidArgument, op->describe(), what,
                str("cf.yield of ", types.size() + skip, " values"), y->num_operands());
  for (size_t i = 0; i < types.size(); ++i) {
    Value v = y->operand(static_cast<uint32_t>(i + skip));
    SKIFF_ENFORCE(v && flows_into(v.type(), types[i]), kTypeError, op->describe(),
                  str(what, " yield #", i + skip), to_string(types[i]),
                  v ? to_string(v.type()) : "null");
  }
}
void expect_single_block(Operation* op, uint32_t r, std::string_view what) {
  SKIFF_ENFORCE(op->region(r).size() == 1, kInvalidArgument, op->describe(), what,
                "exactly one block", op->region(r).size());
}
}  // namespace

void IfOp::populate(OpInfo& info) { info.add_trait<PureTrait>(); }
void IfOp::verify(Operation* op) {
  SKIFF_ENFORCE(op->num_operands() == 1 && op->num_regions() == 2, kInvalidArgument, op->describe(),
                "structure", "1 operand (cond) and 2 regions (then, else)",
                str(op->num_operands(), " operands, ", op->num_regions(), " regions"));
  verify_cond(op, op->operand(0));
  expect_single_block(op, 0, "then");
  expect_single_block(op, 1, "else");
  std::vector<Type> types = op->result_types();
  for (uint32_t r = 0; r < 2; ++r) {
    Block* b = op->region(r).front();
    SKIFF_ENFORCE(b->num_args() == 0, kInvalidArgument, op->describe(), r ? "else" : "then",
                  "a block without arguments", str(b->num_args(), " arguments"));
    verify_yield(op, b, types, 0, r ? "else" : "then");
  }
}
IfOp IfOp::build(Builder& b, Value cond, std::span<const Type> result_types) {
  Operation* op = b.create(kName, {&cond, 1}, result_types, {}, 2);
  op->region(0).add_block();
  op->region(1).add_block();
  return IfOp(op);
}

void WhileOp::verify(Operation* op) {
  SKIFF_ENFORCE(op->num_operands() >= 1 && op->num_regions() == 1, kInvalidArgument, op->describe(),
                "structure", "operands (cond, inits...) and 1 region",
                str(op->num_operands(), " operands, ", op->num_regions(), " regions"));
  verify_cond(op, op->operand(0));
  expect_single_block(op, 0, "body");
  std::vector<Type> types = op->result_types();
  std::vector<Type> init_types = op->operand_types();
  init_types.erase(init_types.begin());
  bool inits_fit = init_types.size() == types.size();
  for (size_t i = 0; inits_fit && i < types.size(); ++i) {
    inits_fit = flows_into(init_types[i], types[i]);
  }
  SKIFF_ENFORCE(inits_fit, kTypeError, op->describe(), "results",
                "the types of the loop-carried inits (or those with dynamic dims)",
                "different types");
  Block* body = op->region(0).front();
  SKIFF_ENFORCE(body->arg_types() == types, kTypeError, op->describe(), "body",
                str("block arguments of the loop-carried types (", types.size(), ")"),
                str(body->num_args(), " arguments"));
  verify_yield(op, body, types, 1, "body");
  verify_cond(op, body->back()->operand(0));
}
WhileOp WhileOp::build(Builder& b, Value cond, std::span<const Value> inits) {
  std::vector<Value> operands{cond};
  std::vector<Type> types;
  for (Value v : inits) {
    operands.push_back(v);
    types.push_back(v.type());
  }
  Operation* op = b.create(kName, operands, types, {}, 1);
  Block* body = op->region(0).add_block();
  for (Type t : types) body->add_arg(t);
  return WhileOp(op);
}

void YieldOp::populate(OpInfo& info) { info.add_traits<TerminatorTrait, PureTrait>(); }
void YieldOp::verify(Operation* op) {
  Operation* parent = op->parent_op();
  SKIFF_ENFORCE(parent && (parent->isa<IfOp>() || parent->isa<WhileOp>()), kInvalidArgument,
                op->describe(), "parent", "a cf.if or cf.while region",
                parent ? std::string(parent->name()) : "no parent");
  SKIFF_ENFORCE(op->num_results() == 0, kInvalidArgument, op->describe(), "results", "none",
                op->num_results());
}
YieldOp YieldOp::build(Builder& b, std::span<const Value> values) {
  return YieldOp(b.create(kName, values, {}));
}

}  // namespace skiff::ir
