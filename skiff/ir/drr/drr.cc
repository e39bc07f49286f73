#include "skiff/ir/drr/drr.h"

#include <algorithm>
#include <map>
#include <set>

#include "skiff/base/error.h"
#include "skiff/ir/core/context.h"
#include "skiff/ir/core/op_base.h"
#include "skiff/ir/core/op_schema.h"
#include "skiff/ir/passes/pattern.h"

namespace skiff::ir::drr {

AttrSpec bind(std::string name) { return AttrSpec{AttrSpec::kBind, std::move(name), {}, {}}; }
AttrSpec equals(Attribute v) { return AttrSpec{AttrSpec::kConst, {}, v, {}}; }
AttrSpec compute(AttrFn fn) { return AttrSpec{AttrSpec::kCompute, {}, {}, std::move(fn)}; }

Graph::OpCall Graph::op(std::string name, std::vector<std::pair<std::string, AttrSpec>> attrs) {
  nodes_.push_back(OpNode{std::move(name), std::move(attrs), {}, {}});
  return OpCall(this, nodes_.size() - 1);
}

void Graph::OpCall::operator()(std::vector<std::string> inputs,
                               std::vector<std::string> outputs) const {
  g_->nodes_[index_].inputs = std::move(inputs);
  g_->nodes_[index_].outputs = std::move(outputs);
}

Value MatchContext::tensor(const std::string& name) const {
  for (const auto& [n, v] : tensors_) {
    if (n == name) return v;
  }
  SKIFF_THROW(kNotFound, "drr", name, "a tensor of the source pattern", "no such name");
}
Attribute MatchContext::attr(const std::string& name) const {
  for (const auto& [n, a] : attrs_) {
    if (n == name) return a;
  }
  SKIFF_THROW(kNotFound, "drr", name, "an attribute bound by the source pattern", "no such name");
}
TensorType MatchContext::type(const std::string& name) const {
  Value v = tensor(name);
  return v ? v.type().dyn_cast<TensorType>() : TensorType();
}
int64_t MatchContext::rank(const std::string& name) const {
  TensorType t = type(name);
  return t ? t.rank() : -1;
}
double MatchContext::attr_double(const std::string& name) const {
  Attribute a = attr(name);
  if (auto i = a.dyn_cast<IntAttr>()) return static_cast<double>(i.value());
  auto f = a.dyn_cast<FloatAttr>();
  SKIFF_ENFORCE(f, kTypeError, "drr", name, "a number", "another attribute kind");
  return f.value();
}
std::vector<int64_t> MatchContext::attr_ints(const std::string& name) const {
  auto a = attr(name).dyn_cast<ArrayAttr>();
  SKIFF_ENFORCE(a, kTypeError, "drr", name, "an array", "another attribute kind");
  return a.ints();
}

// The compiled pattern ----------------------------------------------------------------------------
class RulePattern : public RewritePattern {
 public:
  RulePattern(IrContext* ctx, std::string name, int benefit, const Graph& src, const Graph& res,
              std::vector<Constraint> constraints, size_t anchor)
      : RewritePattern(src.nodes()[anchor].name, benefit, std::move(name)),
        ctx_(ctx),
        src_(src.nodes()),
        res_(res.nodes()),
        constraints_(std::move(constraints)),
        anchor_(anchor) {
    for (size_t i = 0; i < src_.size(); ++i) {
      for (const auto& o : src_[i].outputs) producer_[o] = i;
    }
  }

  bool match_and_rewrite(Operation* op, PatternRewriter& rewriter) const override {
    State st;
    st.matched.assign(src_.size(), nullptr);
    if (!match_node(anchor_, op, st)) return false;
    if (std::count(st.matched.begin(), st.matched.end(), nullptr) != 0) return false;
    if (!intermediates_private(st)) return false;
    MatchContext m;
    m.ctx_ = ctx_;
    m.tensors_.assign(st.tensors.begin(), st.tensors.end());
    m.attrs_.assign(st.attrs.begin(), st.attrs.end());
    for (const auto& c : constraints_) {
      if (!c(m)) return false;
    }
    rewrite(op, st, m, rewriter);
    return true;
  }

 private:
  struct State {
    std::vector<Operation*> matched;
    std::map<std::string, Value> tensors;
    std::map<std::string, Attribute> attrs;
  };

  static bool bind_tensor(State& st, const std::string& name, Value v) {
    if (name.empty()) return !v;
    auto [it, inserted] = st.tensors.emplace(name, v);
    return inserted || it->second == v;
  }

  bool match_node(size_t n, Operation* op, State& st) const {
    const OpNode& node = src_[n];
    if (op->name() != node.name) return false;
    if (st.matched[n]) return st.matched[n] == op;
    if (std::find(st.matched.begin(), st.matched.end(), op) != st.matched.end()) return false;
    if (op->num_operands() != node.inputs.size() || op->num_results() != node.outputs.size()) {
      return false;
    }
    st.matched[n] = op;
    for (const auto& [aname, spec] : node.attrs) {
      Attribute a = op->attr(aname);
      if (!a) return false;
      if (spec.kind == AttrSpec::kConst && a != spec.value) return false;
      if (spec.kind == AttrSpec::kBind) {
        auto [it, inserted] = st.attrs.emplace(spec.name, a);
        if (!inserted && it->second != a) return false;
      }
    }
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (!bind_tensor(st, node.outputs[i], op->result(static_cast<uint32_t>(i)))) return false;
    }
    if (node.inputs.size() == 2 && op->has_trait<CommutativeTrait>()) {
      State saved = st;
      if (match_inputs(node, op, st, false)) return true;
      st = std::move(saved);
      return match_inputs(node, op, st, true);
    }
    return match_inputs(node, op, st, false);
  }

  bool match_inputs(const OpNode& node, Operation* op, State& st, bool swapped) const {
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      Value v = op->operand(static_cast<uint32_t>(swapped ? 1 - i : i));
      const std::string& name = node.inputs[i];
      if (!bind_tensor(st, name, v)) return false;
      auto p = producer_.find(name);
      if (p == producer_.end()) continue;
      Operation* def = v ? v.defining_op() : nullptr;
      if (!def || !match_node(p->second, def, st)) return false;
    }
    return true;
  }

  // Values produced inside the match (except by the anchor) must not escape it.
  bool intermediates_private(const State& st) const {
    for (size_t n = 0; n < src_.size(); ++n) {
      if (n == anchor_) continue;
      Operation* op = st.matched[n];
      for (uint32_t i = 0; i < op->num_results(); ++i) {
        for (OpOperand& u : op->result(i).uses()) {
          if (std::find(st.matched.begin(), st.matched.end(), u.owner()) == st.matched.end()) {
            return false;
          }
        }
      }
    }
    return true;
  }

  Attribute resolve(const AttrSpec& spec, const State& st, const MatchContext& m) const {
    switch (spec.kind) {
      case AttrSpec::kBind:
        return st.attrs.at(spec.name);
      case AttrSpec::kConst:
        return spec.value;
      case AttrSpec::kCompute:
        return spec.fn(m);
    }
    return Attribute();
  }

  void rewrite(Operation* anchor, State& st, const MatchContext& m,
               PatternRewriter& rewriter) const {
    rewriter.set_insertion_point(anchor);
    rewriter.set_loc(anchor->loc());
    std::map<std::string, Value> produced;
    auto lookup = [&](const std::string& name) -> Value {
      if (name.empty()) return Value();
      auto it = produced.find(name);
      return it != produced.end() ? it->second : st.tensors.at(name);
    };
    for (const OpNode& node : res_) {
      const OpInfo* info = ctx_->op_info(node.name);
      std::vector<Value> inputs;
      for (const auto& in : node.inputs) inputs.push_back(lookup(in));
      std::vector<NamedAttribute> attrs;
      for (const auto& [aname, spec] : node.attrs) {
        attrs.push_back({StrAttr::get(ctx_, aname), resolve(spec, st, m)});
      }
      fill_default_attrs(info, attrs);
      std::vector<Type> types;
      bool known = true;
      for (const auto& o : node.outputs) {
        auto it = st.tensors.find(o);
        known = known && it != st.tensors.end() && it->second;
        if (known) types.push_back(it->second.type());
      }
      Operation* op = known ? rewriter.create(info, inputs, types, std::move(attrs))
                            : rewriter.create_inferred(node.name, inputs, std::move(attrs));
      for (size_t i = 0; i < node.outputs.size(); ++i) {
        produced[node.outputs[i]] = op->result(static_cast<uint32_t>(i));
      }
    }
    for (const auto& [name, v] : produced) {
      auto it = st.tensors.find(name);
      if (it != st.tensors.end() && it->second) rewriter.replace_all_uses_with(it->second, v);
    }
    // Erase sinks first: the anchor, then the other matched ops in reverse declaration order.
    rewriter.erase_op(anchor);
    for (size_t n = src_.size(); n-- > 0;) {
      if (n != anchor_ && st.matched[n]->use_empty()) rewriter.erase_op(st.matched[n]);
    }
  }

  IrContext* ctx_;
  std::vector<OpNode> src_, res_;
  std::vector<Constraint> constraints_;
  size_t anchor_;
  std::map<std::string, size_t> producer_;
};

std::unique_ptr<RewritePattern> Rule::build(IrContext* ctx) const {
  const auto& src = source_.nodes();
  const auto& res = result_.nodes();
  SKIFF_ENFORCE(!src.empty() && !res.empty(), kInvalidArgument, "drr", name_,
                "a source and a result pattern", "an empty one");
  std::set<std::string> consumed, src_tensors, produced;
  for (const auto& n : src) {
    SKIFF_ENFORCE(ctx->find_op(n.name), kNotFound, "drr", name_, "registered source ops", n.name);
    for (const auto& i : n.inputs) consumed.insert(i), src_tensors.insert(i);
    for (const auto& o : n.outputs) {
      SKIFF_ENFORCE(produced.insert(o).second, kInvalidArgument, "drr", name_,
                    "each source tensor produced once", o);
      src_tensors.insert(o);
    }
  }
  std::vector<size_t> sinks;
  for (size_t i = 0; i < src.size(); ++i) {
    bool used = std::any_of(src[i].outputs.begin(), src[i].outputs.end(),
                            [&](const std::string& o) { return consumed.count(o) != 0; });
    if (!used) sinks.push_back(i);
  }
  SKIFF_ENFORCE(sinks.size() == 1, kInvalidArgument, "drr", name_,
                "a source pattern with exactly one sink op", str(sinks.size(), " sinks"));
  std::set<std::string> available(src_tensors);
  std::set<std::string> replaced;
  for (const auto& n : res) {
    SKIFF_ENFORCE(ctx->find_op(n.name), kNotFound, "drr", name_, "registered result ops", n.name);
    for (const auto& i : n.inputs) {
      SKIFF_ENFORCE(i.empty() || available.count(i), kInvalidArgument, "drr", name_,
                    "result inputs bound by the source or earlier result ops", i);
    }
    for (const auto& o : n.outputs) {
      if (src_tensors.count(o)) replaced.insert(o);
      available.insert(o);
    }
  }
  for (const auto& o : src[sinks[0]].outputs) {
    SKIFF_ENFORCE(replaced.count(o), kInvalidArgument, "drr", name_,
                  "every output of the anchor op replaced by the result pattern", o);
  }
  return std::make_unique<RulePattern>(ctx, name_, benefit_, source_, result_, constraints_,
                                       sinks[0]);
}

}  // namespace skiff::ir::drr
