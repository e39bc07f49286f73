#include "skiff/ir/core/verifier.h"

#include <vector>

#include "skiff/base/error.h"
#include "skiff/ir/core/op_base.h"

namespace skiff::ir {

namespace {

class Verifier {
 public:
  explicit Verifier(Operation* root) : root_(root) {}
  // Clears the marks even when verification throws half way.
  ~Verifier() {
    for (detail::ValueImpl* v : scope_) v->visible = 0;
  }

  void verify_op(Operation* op) {
    for (uint32_t i = 0; i < op->num_operands(); ++i) {
      Value v = op->operand(i);
      if (!v || v.impl()->visible || defined_outside_root(v)) continue;
      SKIFF_THROW(kInvalidArgument, op->describe(), str("operand #", i),
                  "a value that dominates its use (defined earlier in the block or in an "
                  "enclosing block)",
                  "a value defined later or inside another region");
    }
    for (uint32_t i = 0; i < op->num_results(); ++i) {
      SKIFF_ENFORCE(op->result_type(i), kInvalidArgument, op->describe(), str("result #", i),
                    "a type", "none");
    }
    // Terminator placement first: op verifiers look at the last op of their blocks.
    for (uint32_t r = 0; r < op->num_regions(); ++r) {
      for (Block* b : op->region(r)) {
        for (Operation* inner : *b) {
          if (inner->has_trait<TerminatorTrait>() && inner != b->back()) {
            SKIFF_THROW(kInvalidArgument, inner->describe(), "position",
                        "a terminator at the end of its block", "ops after it");
          }
        }
      }
    }
    if (op->info()->verify) op->info()->verify(op);
    for (auto* tv : op->info()->trait_verifiers) tv(op);
    for (uint32_t r = 0; r < op->num_regions(); ++r) {
      for (Block* b : op->region(r)) verify_block(op, b);
    }
  }

 private:
  void verify_block(Operation* parent, Block* b) {
    size_t mark = scope_.size();
    for (uint32_t i = 0; i < b->num_args(); ++i) add(b->arg(i));
    for (Operation* op : *b) {
      SKIFF_ENFORCE(op->parent_block() == b, kInternal, op->describe(), "parent", "its block",
                    "another block");
      if (op->has_trait<TerminatorTrait>() && op != b->back()) {
        SKIFF_THROW(kInvalidArgument, op->describe(), "position",
                    "a terminator at the end of its block", "ops after it");
      }
      verify_op(op);
      for (uint32_t i = 0; i < op->num_results(); ++i) add(op->result(i));
    }
    if (!parent->has_trait<NoTerminatorTrait>() && !b->terminator()) {
      SKIFF_THROW(kInvalidArgument, parent->describe(), "region",
                  "every block to end with a terminator (e.g. cf.yield)",
                  b->empty() ? std::string("an empty block") : str("'", b->back()->name(), "'"));
    }
    while (scope_.size() > mark) {
      scope_.back()->visible = 0;
      scope_.pop_back();
    }
  }

  void add(Value v) {
    v.impl()->visible = 1;
    scope_.push_back(v.impl());
  }

  bool defined_outside_root(Value v) const {
    Block* b = v.parent_block();
    Operation* owner = b ? b->parent_op() : nullptr;
    if (v.defining_op() == root_) return false;
    return !owner || !owner->is_inside(root_);
  }

  Operation* root_;
  // Values in scope carry ValueImpl::visible = 1 (so one program is verified by one thread at a
  // time); scope_ lists them to unmark on leaving a block.
  std::vector<detail::ValueImpl*> scope_;
};

}  // namespace

void verify(Operation* op) { Verifier(op).verify_op(op); }

}  // namespace skiff::ir
