// DCE, CSE and inplace marking, plus the registration of every standard pass.
#include <unordered_map>

#include "skiff/base/error.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/core/op_base.h"
#include "skiff/ir/core/op_schema.h"
#include "skiff/ir/drr/fusion_rules.h"
#include "skiff/ir/passes/passes.h"

namespace skiff::ir {

// DCE ---------------------------------------------------------------------------------------------
namespace {
int64_t dce_block(Block* b) {
  int64_t erased = 0;
  for (Operation* op = b->back(); op;) {
    Operation* prev = op->prev();
    for (uint32_t r = 0; r < op->num_regions(); ++r) {
      for (Block* inner : op->region(r)) erased += dce_block(inner);
    }
    if (op->use_empty() && !op->has_trait<TerminatorTrait>() && is_pure(op)) {
      op->erase();
      ++erased;
    }
    op = prev;
  }
  return erased;
}

class DcePass : public Pass {
 public:
  DcePass() : Pass("dce", 1) {}
  void run(Operation* module) override {
    int64_t n = 0;
    for (uint32_t r = 0; r < module->num_regions(); ++r) {
      for (Block* b : module->region(r)) n += dce_block(b);
    }
    add_statistic("erased", n);
  }
};

// CSE ---------------------------------------------------------------------------------------------
struct OpKeyHash {
  size_t operator()(const Operation* op) const {
    size_t h = std::hash<const void*>()(op->info());
    for (uint32_t i = 0; i < op->num_operands(); ++i) {
      h = hash_combine(h, std::hash<const void*>()(op->operand(i).impl()));
    }
    for (const auto& a : op->attrs())
      h = hash_combine(hash_combine(h, a.name.hash()), a.value.hash());
    for (uint32_t i = 0; i < op->num_results(); ++i) h = hash_combine(h, op->result_type(i).hash());
    return h;
  }
};
struct OpKeyEq {
  bool operator()(const Operation* a, const Operation* b) const {
    if (a == b) return true;
    if (a->info() != b->info() || a->num_operands() != b->num_operands() ||
        a->num_results() != b->num_results() || a->attrs().size() != b->attrs().size()) {
      return false;
    }
    for (uint32_t i = 0; i < a->num_operands(); ++i) {
      if (a->operand(i) != b->operand(i)) return false;
    }
    for (size_t i = 0; i < a->attrs().size(); ++i) {
      if (a->attrs()[i].name != b->attrs()[i].name || a->attrs()[i].value != b->attrs()[i].value) {
        return false;
      }
    }
    for (uint32_t i = 0; i < a->num_results(); ++i) {
      if (a->result_type(i) != b->result_type(i)) return false;
    }
    return true;
  }
};

class CsePass : public Pass {
 public:
  CsePass() : Pass("cse", 1) {}
  void run(Operation* module) override {
    int64_t n = 0;
    for (uint32_t r = 0; r < module->num_regions(); ++r) {
      for (Block* b : module->region(r)) n += cse_block(b);
    }
    add_statistic("merged", n);
  }

 private:
  // Values of enclosing blocks dominate nested ones, so a nested block sees the outer table;
  // entries added inside are removed when the block is left.
  int64_t cse_block(Block* b) {
    int64_t merged = 0;
    std::vector<Operation*> added;
    for (Operation* op = b->front(); op;) {
      Operation* next = op->next();
      for (uint32_t r = 0; r < op->num_regions(); ++r) {
        for (Block* inner : op->region(r)) merged += cse_block(inner);
      }
      if (op->num_regions() == 0 && op->num_results() > 0 && is_pure(op)) {
        auto [it, inserted] = table_.emplace(op, op);
        if (inserted) {
          added.push_back(op);
        } else {
          op->replace_all_uses_with(it->second);
          op->erase();
          ++merged;
        }
      }
      op = next;
    }
    if (added.size() == table_.size()) {
      table_.clear();
    } else {
      for (Operation* op : added) table_.erase(op);
    }
    return merged;
  }
  std::unordered_map<Operation*, Operation*, OpKeyHash, OpKeyEq> table_;  // lookup only
};

// Inplace -----------------------------------------------------------------------------------------
class InplacePass : public Pass {
 public:
  InplacePass() : Pass("inplace", 1) {}
  void run(Operation* module) override {
    int64_t n = 0;
    IrContext* ctx = module->context();
    module->walk([&](Operation* op) {
      const OpSchema* s = op->info()->schema;
      if (!s || s->inplace.empty()) return;
      std::vector<Attribute> pairs;
      for (const InplacePair& p : s->inplace) {
        int in = s->input_index(p.input), out = s->output_index(p.output);
        if (in < 0 || out < 0) continue;
        if (can_reuse(op, static_cast<uint32_t>(in), static_cast<uint32_t>(out))) {
          pairs.push_back(StrAttr::get(ctx, str(p.input, "->", p.output)));
        }
      }
      if (pairs.empty()) return;
      op->set_attr("inplace", ArrayAttr::get(ctx, pairs));
      ++n;
    });
    add_statistic("marked", n);
  }

 private:
  // The input's buffer may be reused when this op is its only use, the value is produced by an
  // ordinary op in the same block (not a program input, weight or constant) and types match.
  static bool can_reuse(Operation* op, uint32_t in, uint32_t out) {
    Value v = op->operand(in);
    if (!v || !v.has_one_use() || v.type() != op->result_type(out)) return false;
    Operation* def = v.defining_op();
    if (!def || def->parent_block() != op->parent_block()) return false;
    if (def->has_trait<ConstantLikeTrait>() || !is_pure(def)) return false;
    return true;
  }
};
}  // namespace

std::unique_ptr<Pass> create_dce_pass() { return std::make_unique<DcePass>(); }
std::unique_ptr<Pass> create_cse_pass() { return std::make_unique<CsePass>(); }
std::unique_ptr<Pass> create_inplace_pass() { return std::make_unique<InplacePass>(); }

void register_standard_passes() {
  PassRegistry& r = PassRegistry::global();
  if (r.contains("dce")) return;
  r.add("dce", "erase pure ops whose results are unused", create_dce_pass);
  r.add("cse", "merge identical pure ops", create_cse_pass);
  r.add("constant-fold", "evaluate ops on constants and materialize the results",
        create_constant_fold_pass);
  r.add("canonicalize", "simplify ops to canonical forms with the greedy driver",
        create_canonicalize_pass);
  r.add("inplace", "mark ops that may write their output into a dying input", create_inplace_pass);
  register_fusion_passes(r);
}

}  // namespace skiff::ir
