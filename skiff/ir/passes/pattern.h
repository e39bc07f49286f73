// Pattern rewriting: RewritePattern (match_and_rewrite on a root op), PatternRewriter (a Builder
// whose edits notify the driver) and a greedy worklist driver that applies patterns until nothing
// changes. The driver also erases trivially dead ops (pure, unused), so chains collapse in one run.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/ir/core/builder.h"

namespace skiff::ir {

class PatternRewriter;

class RewritePattern {
 public:
  /// `root`: the op name the pattern anchors on; empty matches any op.
  RewritePattern(std::string_view root, int benefit = 1, std::string name = {})
      : root_(root), benefit_(benefit), name_(std::move(name)) {}
  virtual ~RewritePattern() = default;
  /// Rewrites `op` through the rewriter and returns true, or returns false without changes.
  virtual bool match_and_rewrite(Operation* op, PatternRewriter& rewriter) const = 0;
  const std::string& root() const { return root_; }
  int benefit() const { return benefit_; }
  const std::string& name() const { return name_; }

 private:
  std::string root_;
  int benefit_;
  std::string name_;
};

/// A pattern on a typed root op.
template <typename OpT>
class OpRewritePattern : public RewritePattern {
 public:
  explicit OpRewritePattern(int benefit = 1, std::string name = {})
      : RewritePattern(OpT::kName, benefit, std::move(name)) {}
  virtual bool match_and_rewrite(OpT op, PatternRewriter& rewriter) const = 0;
  bool match_and_rewrite(Operation* op, PatternRewriter& rewriter) const final {
    return match_and_rewrite(OpT(op), rewriter);
  }
};

class RewritePatternSet {
 public:
  explicit RewritePatternSet(IrContext* ctx) : ctx_(ctx) {}
  IrContext* context() const { return ctx_; }
  template <typename P, typename... Args>
  RewritePatternSet& add(Args&&... args) {
    patterns_.push_back(std::make_unique<P>(std::forward<Args>(args)...));
    return *this;
  }
  RewritePatternSet& add(std::unique_ptr<RewritePattern> p) {
    patterns_.push_back(std::move(p));
    return *this;
  }
  const std::vector<std::unique_ptr<RewritePattern>>& patterns() const { return patterns_; }

 private:
  IrContext* ctx_;
  std::vector<std::unique_ptr<RewritePattern>> patterns_;
};

/// Receives the rewriter's edits (the greedy driver keeps its worklist current with them).
class RewriteListener {
 public:
  virtual ~RewriteListener() = default;
  virtual void on_inserted(Operation*) {}
  virtual void on_replaced(Operation*) {}  // before the op's uses are redirected
  virtual void on_erased(Operation*) {}    // before the op is destroyed
  virtual void on_modified(Operation*) {}
};

class PatternRewriter : public Builder {
 public:
  explicit PatternRewriter(IrContext* ctx, RewriteListener* listener = nullptr)
      : Builder(ctx), listener_(listener) {}
  /// Redirects the uses of op's results to `values` and erases op.
  void replace_op(Operation* op, std::span<const Value> values);
  void replace_op(Operation* op, Value value) { replace_op(op, std::span<const Value>(&value, 1)); }
  /// Creates OpT at op's position, replaces op with its results.
  template <typename OpT, typename... Args>
  OpT replace_op_with_new_op(Operation* op, Args&&... args) {
    set_insertion_point(op);
    set_loc(op->loc());
    OpT n = OpT::build(*this, std::forward<Args>(args)...);
    replace_op(op, n.operation()->results());
    return n;
  }
  /// Erases an op whose results have no uses.
  void erase_op(Operation* op);
  void replace_all_uses_with(Value from, Value to);
  /// Call after changing an op in place (attributes, operands).
  void notify_modified(Operation* op) {
    if (listener_) listener_->on_modified(op);
  }
  void notify_inserted(Operation* op) override {
    if (listener_) listener_->on_inserted(op);
  }

 private:
  RewriteListener* listener_;
};

struct GreedyConfig {
  int max_iterations = 10;
  bool top_down = true;
  /// Erase pure ops without uses while driving.
  bool erase_dead = true;
};

struct GreedyResult {
  bool converged = false;
  int64_t rewrites = 0;
  int64_t erased = 0;
};

/// Applies `patterns` to every op nested in `root` until a fixed point (or max_iterations sweeps).
GreedyResult apply_patterns_greedily(Operation* root, const RewritePatternSet& patterns,
                                     const GreedyConfig& config = {});

}  // namespace skiff::ir
