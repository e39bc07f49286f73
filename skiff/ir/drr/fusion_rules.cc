#include "skiff/ir/drr/fusion_rules.h"

#include "skiff/ir/drr/drr.h"
#include "skiff/ir/passes/pass.h"
#include "skiff/ir/passes/pattern.h"

namespace skiff::ir {

using drr::bind;
using drr::MatchContext;

void add_linear_fusion(RewritePatternSet& patterns) {
  // op.linear takes weight as [in_features, out_features]: only untransposed matmuls fuse.
  IrContext* ctx = patterns.context();
  drr::Rule rule("matmul_add_to_linear");
  auto& src = rule.source();
  Attribute no = BoolAttr::get(ctx, false);
  src.op("op.matmul", {{"transpose_x", drr::equals(no)}, {"transpose_y", drr::equals(no)}})(
      {"x", "w"}, {"mm"});
  src.op("op.add")({"mm", "b"}, {"out"});
  // A 2-D weight and a bias: one dim broadcast over the rows, matching the output's last dim.
  rule.require([](const MatchContext& m) {
    auto w = m.type("w"), b = m.type("b"), out = m.type("out");
    return w && w.rank() == 2 && b && out && b.rank() == 1 && b.shape()[0] == out.shape().back() &&
           out == m.type("mm");
  });
  rule.result().op("op.linear")({"x", "w", "b"}, {"out"});
  patterns.add(rule.build(ctx));
}

void add_rms_norm_fusion(RewritePatternSet& patterns) {
  IrContext* ctx = patterns.context();
  drr::Rule rule("rms_norm_fusion");
  auto& src = rule.source();
  src.op("op.multiply")({"x", "x"}, {"sq"});
  src.op("op.mean", {{"axis", bind("axis")}, {"keepdim", drr::equals(BoolAttr::get(ctx, true))}})(
      {"sq"}, {"ms"});
  src.op("op.full", {{"fill_value", bind("eps")}})({}, {"eps_t"});
  src.op("op.add")({"ms", "eps_t"}, {"ms_eps"});
  src.op("op.rsqrt")({"ms_eps"}, {"inv"});
  src.op("op.multiply")({"x", "inv"}, {"normed"});
  src.op("op.multiply")({"normed", "w"}, {"out"});
  rule.require([](const MatchContext& m) {
    std::vector<int64_t> axis = m.attr_ints("axis");
    int64_t rank = m.rank("x");
    auto w = m.type("w");
    return axis.size() == 1 && (axis[0] == -1 || axis[0] == rank - 1) && w && w.rank() == 1 &&
           m.type("eps_t").numel() == 1;
  });
  auto& res = rule.result();
  res.op("op.rms_norm", {{"epsilon", drr::compute([](const MatchContext& m) -> Attribute {
                            return FloatAttr::get(m.context(), m.attr_double("eps"));
                          })}})({"x", "w"}, {"out", "inv_rms"});
  patterns.add(rule.build(ctx));
}

void add_swiglu_fusion(RewritePatternSet& patterns) {
  drr::Rule rule("swiglu_fusion");
  auto& src = rule.source();
  src.op("op.silu")({"a"}, {"act"});
  src.op("op.multiply")({"act", "b"}, {"out"});
  rule.require([](const MatchContext& m) { return m.type("a") == m.type("b"); });
  rule.result().op("op.swiglu")({"a", "b"}, {"out"});
  patterns.add(rule.build(patterns.context()));
}

void add_rotary_fusion(RewritePatternSet& patterns) {
  IrContext* ctx = patterns.context();
  drr::Rule rule("rotary_embedding_fusion");
  auto& src = rule.source();
  src.op("op.split", {{"sections", bind("sections")}, {"axis", bind("split_axis")}})({"x"},
                                                                                     {"halves"});
  src.op("builtin.split")({"halves"}, {"x1", "x2"});
  src.op("op.scale", {{"scale", bind("neg")}, {"bias", bind("bias")}})({"x2"}, {"neg_x2"});
  src.op("builtin.combine")({"neg_x2", "x1"}, {"parts"});
  src.op("op.concat", {{"axis", bind("cat_axis")}})({"parts"}, {"rot"});
  src.op("op.multiply")({"x", "cos"}, {"xc"});
  src.op("op.multiply")({"rot", "sin"}, {"rs"});
  src.op("op.add")({"xc", "rs"}, {"out"});
  rule.require([](const MatchContext& m) {
    int64_t rank = m.rank("x");
    auto last = [&](double a) { return a == -1 || a == static_cast<double>(rank - 1); };
    std::vector<int64_t> sec = m.attr_ints("sections");
    return sec.size() == 2 && sec[0] == sec[1] && last(m.attr_double("split_axis")) &&
           last(m.attr_double("cat_axis")) && m.attr_double("neg") == -1.0 &&
           m.attr_double("bias") == 0.0 && m.type("out") == m.type("x");
  });
  rule.result().op("op.rotary_embedding")({"x", "cos", "sin"}, {"out"});
  patterns.add(rule.build(ctx));
}

void add_all_fusions(RewritePatternSet& patterns) {
  add_linear_fusion(patterns);
  add_rms_norm_fusion(patterns);
  add_swiglu_fusion(patterns);
  add_rotary_fusion(patterns);
}

namespace {
class FusionPass : public Pass {
 public:
  using Populate = void (*)(RewritePatternSet&);
  FusionPass(std::string name, Populate populate) : Pass(std::move(name), 2), populate_(populate) {}
  void run(Operation* module) override {
    RewritePatternSet patterns(module->context());
    populate_(patterns);
    GreedyResult r = apply_patterns_greedily(module, patterns);
    add_statistic("fused", r.rewrites);
  }

 private:
  Populate populate_;
};

void add(PassRegistry& r, const char* name, const char* desc, FusionPass::Populate p) {
  r.add(name, desc, [name, p] { return std::make_unique<FusionPass>(name, p); });
}
}  // namespace

void register_fusion_passes(PassRegistry& r) {
  add(r, "fuse-linear", "matmul + add -> op.linear", add_linear_fusion);
  add(r, "fuse-rms-norm", "unfused RMSNorm -> op.rms_norm", add_rms_norm_fusion);
  add(r, "fuse-swiglu", "silu(a) * b -> op.swiglu", add_swiglu_fusion);
  add(r, "fuse-rotary", "x*cos + rotate_half(x)*sin -> op.rotary_embedding", add_rotary_fusion);
  add(r, "fusion", "every DRR fusion rule", add_all_fusions);
}

}  // namespace skiff::ir
