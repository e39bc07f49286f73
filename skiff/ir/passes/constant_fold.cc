// Constant folding. An op is folded when every tensor operand comes from a constant-like op
// (builtin.constant or op.full), its result types are static and its FoldInterface folds it:
// the ops layer attaches one that executes the op's real kernel (skiff/ops/ir/op_bridge.h) and
// returns dense<...> data. Without an attached interface nothing folds. Float splats become
// op.full, other results builtin.constant.
#include "skiff/ir/core/dense_elements.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/passes/passes.h"

namespace skiff::ir {

namespace {

/// The constant attribute of a value: builtin.constant's `value` or op.full's `fill_value`.
Attribute constant_attr(Value v) {
  Operation* def = v ? v.defining_op() : nullptr;
  if (!def || !def->has_trait<ConstantLikeTrait>()) return Attribute();
  Attribute a = def->attr("value");
  return a ? a : def->attr("fill_value");
}

class ConstantFoldPass : public Pass {
 public:
  ConstantFoldPass() : Pass("constant-fold", 1) {}
  void run(Operation* module) override {
    std::vector<Operation*> ops;
    module->walk([&](Operation* op) {
      if (op != module) ops.push_back(op);
    });
    Builder b(module->context());
    int64_t folded = 0;
    for (Operation* op : ops) {  // program order, so folded results feed later folds
      if (op->has_trait<ConstantLikeTrait>() || op->num_regions() || op->num_operands() == 0 ||
          op->num_results() == 0) {
        continue;
      }
      std::vector<Attribute> operands(op->num_operands());
      bool all_const = true;
      for (uint32_t i = 0; i < op->num_operands(); ++i) {
        operands[i] = constant_attr(op->operand(i));
        all_const = all_const && (operands[i] || !op->operand(i));  // null: absent optional
      }
      if (!all_const) continue;
      std::vector<Attribute> results;
      if (!fold(op, operands, results)) continue;
      b.set_insertion_point(op);
      b.set_loc(op->loc());
      std::vector<Value> values;
      for (uint32_t i = 0; i < op->num_results(); ++i) {
        values.push_back(materialize(b, results[i], op->result_type(i)));
      }
      op->replace_all_uses_with(values);
      op->erase();
      ++folded;
    }
    add_statistic("folded", folded);
  }

 private:
  // Splats of floating tensors become op.full (what the fusion rules match), the rest
  // builtin.constant.
  static Value materialize(Builder& b, Attribute value, Type type) {
    auto t = type.dyn_cast<TensorType>();
    if (auto d = value.dyn_cast<DenseElementsAttr>();
        d && t && (d.is_splat() || d.numel() == 1) && is_floating(t.dtype())) {
      value = FloatAttr::get(b.context(), d.element_as_double(0));
    }
    if (t && value.isa<FloatAttr>() && is_floating(t.dtype()) &&
        b.context()->find_op(op::FullOp::kName)) {
      return op::FullOp::build_typed(b, {&type, 1},
                                     std::vector<int64_t>(t.shape().begin(), t.shape().end()),
                                     value.cast<FloatAttr>().value(), t.dtype())
          .out();
    }
    return ConstantOp::build(b, value, type).out();
  }

  // Folding is the op's FoldInterface (the ops layer's runs the op's kernel): the IR has no op
  // math of its own, so a folded value is exactly what the program would compute.
  static bool fold(Operation* op, std::span<const Attribute> operands,
                   std::vector<Attribute>& results) {
    const auto* f = op->info()->interface<FoldInterface>();
    if (!f || !f->fold) return false;
    if (f->fold(op, operands, results) && results.size() == op->num_results()) return true;
    results.clear();
    return false;
  }
};

}  // namespace

std::unique_ptr<Pass> create_constant_fold_pass() { return std::make_unique<ConstantFoldPass>(); }

}  // namespace skiff::ir
