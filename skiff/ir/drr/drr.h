// DRR: declarative rewrite rules in C++, in three parts (after Paddle's drr):
//   drr::Rule rule("matmul_add_to_linear");
//   auto& src = rule.source();                                   // 1. source pattern
//   src.op("op.matmul", {{"transpose_x", drr::bind("tx")}})({"x", "w"}, {"mm"});
//   src.op("op.add")({"mm", "b"}, {"out"});
//   rule.require([](const drr::MatchContext& m) { return m.rank("b") == 1; });  // 2. constraints
//   auto& res = rule.result();                                   // 3. result pattern
//   res.op("op.linear", {{"transpose_x", drr::bind("tx")}})({"x", "w", "b"}, {"out"});
//   patterns.add(rule.build(ctx));
// Tensors are named; a source tensor produced by no source op is a pattern input. The source
// pattern must have one sink op (the anchor); intermediates may have no uses outside the match.
// Result outputs named like source tensors replace them. Attributes of result ops are bound
// source attributes, constants or computed from the match (drr::compute); missing ones take the
// schema defaults. Commutative ops also match with their two operands swapped.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "skiff/ir/core/builtin_attributes.h"
#include "skiff/ir/core/value.h"

namespace skiff::ir {
class IrContext;
class RewritePattern;
}  // namespace skiff::ir

namespace skiff::ir::drr {

class MatchContext {
 public:
  Value tensor(const std::string& name) const;
  Attribute attr(const std::string& name) const;
  IrContext* context() const { return ctx_; }
  // Conveniences over tensor types and attributes.
  TensorType type(const std::string& name) const;
  int64_t rank(const std::string& name) const;
  double attr_double(const std::string& name) const;
  std::vector<int64_t> attr_ints(const std::string& name) const;

 private:
  friend class RulePattern;
  IrContext* ctx_ = nullptr;
  std::vector<std::pair<std::string, Value>> tensors_;
  std::vector<std::pair<std::string, Attribute>> attrs_;
};

using Constraint = std::function<bool(const MatchContext&)>;
using AttrFn = std::function<Attribute(const MatchContext&)>;

struct AttrSpec {
  enum Kind { kBind, kConst, kCompute } kind = kBind;
  std::string name;  // kBind
  Attribute value;   // kConst
  AttrFn fn;         // kCompute
};
/// In a source op: bind the attribute to `name` (equal names must hold equal values). In a result
/// op: use the attribute bound to `name`.
AttrSpec bind(std::string name);
/// In a source op: the attribute must equal `v`. In a result op: set it to `v`.
AttrSpec equals(Attribute v);
/// Result ops only: computed from the match.
AttrSpec compute(AttrFn fn);

struct OpNode {
  std::string name;
  std::vector<std::pair<std::string, AttrSpec>> attrs;
  std::vector<std::string> inputs;  // "" for an absent optional input
  std::vector<std::string> outputs;
};

class Graph {
 public:
  class OpCall {
   public:
    OpCall(Graph* g, size_t index) : g_(g), index_(index) {}
    /// Wires the op: input tensor names, output tensor names.
    void operator()(std::vector<std::string> inputs, std::vector<std::string> outputs) const;

   private:
    Graph* g_;
    size_t index_;
  };
  OpCall op(std::string name, std::vector<std::pair<std::string, AttrSpec>> attrs = {});
  const std::vector<OpNode>& nodes() const { return nodes_; }

 private:
  std::vector<OpNode> nodes_;
};

class Rule {
 public:
  explicit Rule(std::string name, int benefit = 1) : name_(std::move(name)), benefit_(benefit) {}
  Graph& source() { return source_; }
  Graph& result() { return result_; }
  void require(Constraint c) { constraints_.push_back(std::move(c)); }
  /// Checks the rule against the registered ops and compiles it into a rewrite pattern.
  std::unique_ptr<RewritePattern> build(IrContext* ctx) const;

 private:
  std::string name_;
  int benefit_;
  Graph source_, result_;
  std::vector<Constraint> constraints_;
};

}  // namespace skiff::ir::drr
