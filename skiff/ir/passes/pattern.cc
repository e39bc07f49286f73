#include "skiff/ir/passes/pattern.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "skiff/base/error.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/core/op_base.h"

namespace skiff::ir {

void PatternRewriter::replace_op(Operation* op, std::span<const Value> values) {
  if (listener_) listener_->on_replaced(op);
  op->replace_all_uses_with(values);
  erase_op(op);
}

void PatternRewriter::erase_op(Operation* op) {
  if (listener_) {
    op->walk_post([&](Operation* o) { listener_->on_erased(o); });
  }
  op->erase();
}

void PatternRewriter::replace_all_uses_with(Value from, Value to) {
  if (listener_) {
    for (OpOperand& u : from.uses()) listener_->on_modified(u.owner());
  }
  from.replace_all_uses_with(to);
}

namespace {

class GreedyDriver : public RewriteListener {
 public:
  GreedyDriver(const RewritePatternSet& patterns, const GreedyConfig& config)
      : config_(config), rewriter_(patterns.context(), this) {
    for (const auto& p : patterns.patterns()) {
      if (p->root().empty()) {
        any_.push_back(p.get());
      } else {
        by_root_[p->root()].push_back(p.get());
      }
    }
    auto by_benefit = [](const RewritePattern* a, const RewritePattern* b) {
      return a->benefit() > b->benefit();
    };
    for (auto& [root, list] : by_root_) std::stable_sort(list.begin(), list.end(), by_benefit);
    std::stable_sort(any_.begin(), any_.end(), by_benefit);
  }

  ~GreedyDriver() {
    for (Operation* op : worklist_) {
      if (op) op->set_scratch(0);  // left over when a pattern threw
    }
  }

  GreedyResult run(Operation* root) {
    GreedyResult result;
    for (int iter = 0; iter < config_.max_iterations; ++iter) {
      changed_ = false;
      std::vector<Operation*> ops;
      for (uint32_t r = 0; r < root->num_regions(); ++r) {
        for (Block* b : root->region(r)) {
          for (Operation* op : *b) op->walk([&](Operation* o) { ops.push_back(o); });
        }
      }
      if (config_.top_down) std::reverse(ops.begin(), ops.end());  // popped from the back
      for (Operation* op : ops) add(op);
      while (!worklist_.empty()) {
        Operation* op = worklist_.back();
        worklist_.pop_back();
        if (!op) continue;  // erased while queued
        op->set_scratch(0);
        process(op);
      }
      if (!changed_) {
        result.converged = true;
        break;
      }
    }
    result.rewrites = rewrites_;
    result.erased = erased_;
    return result;
  }

  void on_inserted(Operation* op) override {
    changed_ = true;
    add(op);
  }
  void on_replaced(Operation* op) override {
    changed_ = true;
    for (uint32_t i = 0; i < op->num_results(); ++i) {
      for (OpOperand& u : op->result(i).uses()) add(u.owner());
    }
  }
  void on_erased(Operation* op) override {
    changed_ = true;
    ++erased_;
    if (uint32_t slot = op->scratch()) worklist_[slot - 1] = nullptr;
    // Erasing an op with regions notifies its nested ops first (walk_post): an operand defined
    // by one of them is going away too and must not be queued again.
    erased_now_.insert(op);
    for (uint32_t i = 0; i < op->num_operands(); ++i) {
      Value v = op->operand(i);
      if (v && v.defining_op() && !erased_now_.count(v.defining_op())) add(v.defining_op());
    }
  }
  void on_modified(Operation* op) override {
    changed_ = true;
    add(op);
  }

 private:
  // An op's scratch word holds its worklist slot + 1 (0: not queued), so queue membership and
  // removal of erased ops are O(1) without hashing.
  void add(Operation* op) {
    if (op->scratch()) return;
    worklist_.push_back(op);
    op->set_scratch(static_cast<uint32_t>(worklist_.size()));
  }

  void process(Operation* op) {
    erased_now_.clear();
    if (config_.erase_dead && op->use_empty() && !op->has_trait<TerminatorTrait>() && is_pure(op)) {
      rewriter_.erase_op(op);
      return;
    }
    auto it = by_root_.find(op->name());
    if (it != by_root_.end() && try_patterns(op, it->second)) return;
    try_patterns(op, any_);
  }

  bool try_patterns(Operation* op, const std::vector<const RewritePattern*>& list) {
    for (const RewritePattern* p : list) {
      rewriter_.set_insertion_point(op);
      rewriter_.set_loc(op->loc());
      if (p->match_and_rewrite(op, rewriter_)) {
        ++rewrites_;
        changed_ = true;
        return true;
      }
    }
    return false;
  }

  GreedyConfig config_;
  PatternRewriter rewriter_;
  std::map<std::string, std::vector<const RewritePattern*>, std::less<>> by_root_;
  std::vector<const RewritePattern*> any_;
  std::vector<Operation*> worklist_;
  std::unordered_set<const Operation*> erased_now_;  // ops erased while processing one op
  bool changed_ = false;
  int64_t rewrites_ = 0;
  int64_t erased_ = 0;
};

}  // namespace

GreedyResult apply_patterns_greedily(Operation* root, const RewritePatternSet& patterns,
                                     const GreedyConfig& config) {
  GreedyDriver driver(patterns, config);
  return driver.run(root);
}

}  // namespace skiff::ir
