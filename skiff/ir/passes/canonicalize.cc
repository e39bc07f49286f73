// Canonicalization patterns of the op dialect and the canonicalize pass. Identity ops disappear
// (scale by 1 plus 0, cast to the same dtype, reshape to the same type, identity transpose),
// transpose(transpose(x)) composes into one transpose and reshape(reshape(x)) into one reshape.
#include "skiff/ir/core/context.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/ir/passes/pattern.h"

namespace skiff::ir {

namespace {

/// Replaces a one-result op by its first operand when `is_identity` holds and the types agree.
class IdentityPattern : public RewritePattern {
 public:
  using Pred = bool (*)(Operation*);
  IdentityPattern(std::string_view root, Pred pred)
      : RewritePattern(root, 1, std::string(root) + "-identity"), pred_(pred) {}
  bool match_and_rewrite(Operation* op, PatternRewriter& rewriter) const override {
    if (op->num_results() != 1 || op->num_operands() < 1 || !op->operand(0)) return false;
    if (op->operand(0).type() != op->result_type(0) || !pred_(op)) return false;
    rewriter.replace_op(op, op->operand(0));
    return true;
  }

 private:
  Pred pred_;
};

bool scale_is_identity(Operation* op) {
  return attr_double(op, "scale") == 1.0 && attr_double(op, "bias") == 0.0;
}
bool always(Operation*) { return true; }
bool transpose_is_identity(Operation* op) {
  std::vector<int64_t> perm = attr_ints(op, "perm");
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

class TransposeOfTranspose : public OpRewritePattern<op::TransposeOp> {
 public:
  TransposeOfTranspose() : OpRewritePattern(2, "transpose-of-transpose") {}
  bool match_and_rewrite(op::TransposeOp outer, PatternRewriter& rewriter) const override {
    Operation* def = outer.x().defining_op();
    auto inner = def ? def->dyn_cast<op::TransposeOp>() : op::TransposeOp();
    if (!inner) return false;
    std::vector<int64_t> p1 = inner.perm(), p2 = outer.perm();
    if (p1.size() != p2.size()) return false;
    std::vector<int64_t> q(p2.size());
    for (size_t i = 0; i < p2.size(); ++i) {
      if (p2[i] < 0 || p2[i] >= static_cast<int64_t>(p1.size())) return false;
      q[i] = p1[p2[i]];
    }
    Type out = outer.out().type();
    Type types[] = {out};
    auto fused = op::TransposeOp::build_typed(rewriter, types, inner.x(), q);
    rewriter.replace_op(outer.operation(), fused.out());
    return true;
  }
};

class ReshapeOfReshape : public OpRewritePattern<op::ReshapeOp> {
 public:
  ReshapeOfReshape() : OpRewritePattern(2, "reshape-of-reshape") {}
  bool match_and_rewrite(op::ReshapeOp outer, PatternRewriter& rewriter) const override {
    Operation* def = outer.x().defining_op();
    auto inner = def ? def->dyn_cast<op::ReshapeOp>() : op::ReshapeOp();
    if (!inner) return false;
    // The outer shape may copy dims (0) of its input; spell them out from the inner result type.
    std::vector<int64_t> shape = outer.shape();
    auto out_t = outer.out().type().dyn_cast<TensorType>();
    if (!out_t) return false;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == 0) shape[i] = out_t.shape()[i];
    }
    Type types[] = {outer.out().type()};
    auto fused = op::ReshapeOp::build_typed(rewriter, types, inner.x(), shape);
    rewriter.replace_op(outer.operation(), fused.out());
    return true;
  }
};

class CanonicalizePass : public Pass {
 public:
  CanonicalizePass() : Pass("canonicalize", 1) {}
  void run(Operation* module) override {
    RewritePatternSet patterns(module->context());
    populate_canonicalization_patterns(patterns);
    GreedyResult r = apply_patterns_greedily(module, patterns);
    add_statistic("rewrites", r.rewrites);
    add_statistic("erased", r.erased);
  }
};

}  // namespace

void populate_canonicalization_patterns(RewritePatternSet& patterns) {
  IrContext* ctx = patterns.context();
  auto has = [&](std::string_view n) { return ctx->find_op(n) != nullptr; };
  if (has(op::ScaleOp::kName)) patterns.add<IdentityPattern>(op::ScaleOp::kName, scale_is_identity);
  if (has(op::CastOp::kName)) patterns.add<IdentityPattern>(op::CastOp::kName, always);
  if (has(op::ReshapeOp::kName)) patterns.add<IdentityPattern>(op::ReshapeOp::kName, always);
  if (has(op::TransposeOp::kName)) {
    patterns.add<IdentityPattern>(op::TransposeOp::kName, transpose_is_identity);
    patterns.add<TransposeOfTranspose>();
  }
  if (has(op::ReshapeOp::kName)) patterns.add<ReshapeOfReshape>();
  for (OpInfo* info : ctx->ops()) {
    for (const auto& populate : info->canonicalizers) populate(patterns);
  }
}

std::unique_ptr<Pass> create_canonicalize_pass() { return std::make_unique<CanonicalizePass>(); }

}  // namespace skiff::ir
