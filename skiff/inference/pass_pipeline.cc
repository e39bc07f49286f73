#include "skiff/inference/pass_pipeline.h"

#include <algorithm>
#include <unordered_set>

#include "skiff/base/error.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/passes/pass.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/ops/ir/lower_to_kernel.h"
#include "skiff/runtime/executor/executor.h"

namespace skiff::inference {

namespace {
constexpr const char* kFoldParams = "fold-params";

// Passes of the registry a pipeline may name (the fusions whose results have kernels).
const std::vector<std::pair<std::string, std::string>>& registry_passes() {
  static const std::vector<std::pair<std::string, std::string>> list = {
      {"canonicalize", "identity ops, reshape of reshape, transpose of transpose, ..."},
      {"constant-fold", "ops on constants evaluated into builtin.constant"},
      {"cse", "identical pure ops merged"},
      {"dce", "unused pure ops erased"},
      {"fuse-linear", "matmul(x, w) + b -> linear (oneDNN matmul with bias)"},
      {"fuse-rms-norm", "x * rsqrt(mean(x*x) + eps) * w -> rms_norm"},
  };
  return list;
}
}  // namespace

std::vector<std::string> default_passes(bool mkldnn) {
  std::vector<std::string> p = {"canonicalize", "constant-fold", kFoldParams, "cse", "dce"};
  if (mkldnn) {
    p.insert(p.end(), {"fuse-linear", "fuse-rms-norm"});
  }
  return p;
}

std::vector<std::pair<std::string, std::string>> known_passes() {
  auto list = registry_passes();
  list.insert(list.begin() + 2,
              {kFoldParams, "ops on parameters only evaluated at load into new parameters"});
  return list;
}

int fold_params(jit::CapturedProgram& p) {
  ir::Block* top = p.program->block();
  // Values computed from parameters and constants only, and the ops computing them.
  std::unordered_set<const void*> param_derived, constant;
  std::unordered_set<const ir::Operation*> foldable;
  for (ir::Operation* op = top->front(); op; op = op->next()) {
    if (op->name() == ir::ParameterOp::kName) {
      param_derived.insert(op->result(0).impl());
      continue;
    }
    if (op->name() == ir::ConstantOp::kName) {
      constant.insert(op->result(0).impl());
      continue;
    }
    if (op->num_regions() != 0 || !op->name().starts_with("op.") || !ir::is_pure(op)) continue;
    bool all = op->num_operands() > 0, any_param = false;
    for (ir::Value v : op->operands()) {
      if (!v) continue;
      const bool from_param = param_derived.count(v.impl()) != 0;
      any_param = any_param || from_param;
      all = all && (from_param || constant.count(v.impl()) != 0);
    }
    if (!all || !any_param) continue;
    foldable.insert(op);
    for (ir::Value r : op->results()) param_derived.insert(r.impl());
  }
  // The frontier: results of folded ops that an op outside the folded set uses.
  std::vector<ir::Value> frontier;
  std::vector<std::pair<size_t, uint32_t>> where;  // (op index in the block, result index)
  size_t index = 0;
  for (ir::Operation* op = top->front(); op; op = op->next(), ++index) {
    if (!foldable.count(op)) continue;
    for (uint32_t r = 0; r < op->num_results(); ++r) {
      ir::Value v = op->result(r);
      bool outside = false;
      for (ir::OpOperand& use : v.uses()) {
        ir::Operation* user = use.owner();
        while (user->parent_op() && user->parent_block() != top) user = user->parent_op();
        outside = outside || !foldable.count(user);
      }
      if (outside) {
        frontier.push_back(v);
        where.emplace_back(index, r);
      }
    }
  }
  if (frontier.empty()) return 0;
  // Evaluate them: a copy of the program whose outputs are the frontier values, pruned to what
  // they need (parameters and folded ops only), lowered and run once.
  jit::CapturedProgram sub;
  sub.context = p.context;
  sub.program = p.program->clone();
  std::vector<ir::Operation*> ops;
  for (ir::Operation* op = sub.program->block()->front(); op; op = op->next()) ops.push_back(op);
  for (ir::Operation* op : ops) {
    if (op->name() == ir::ShadowOutputOp::kName) op->erase();
  }
  ir::Builder b(sub.context.get(), sub.program->block());
  for (size_t k = 0; k < where.size(); ++k) {
    ir::ShadowOutputOp::build(b, ops[where[k].first]->result(where[k].second), str("folded", k));
    sub.outputs.push_back(str("folded", k));
  }
  ir::PassManager prune(sub.context.get());
  prune.add_pass(ir::create_dce_pass());
  prune.run(*sub.program);
  std::vector<ir::Operation*> rest;
  for (ir::Operation* op = sub.program->block()->front(); op; op = op->next()) rest.push_back(op);
  for (ir::Operation* op : rest) {
    if (op->use_empty() && op->name() != ir::ShadowOutputOp::kName &&
        (op->name() == ir::ParameterOp::kName || op->name() == "op.data")) {
      op->erase();
    }
  }
  sub.params = p.params;
  ir::PassManager lower(sub.context.get());
  lower.add_pass(ops::ir_bridge::create_lower_to_kernel_pass());
  lower.run(*sub.program);
  std::vector<DenseTensor> values = executor::Executor(sub).run({});
  SKIFF_CHECK(values.size() == frontier.size());
  // Bind them as parameters of the program; the folded ops die.
  std::unordered_set<std::string> names;
  for (const auto& kv : p.params) names.insert(kv.first);
  ir::Builder top_builder(p.context.get());
  top_builder.set_insertion_point_to_start(top);
  int next_name = 0;
  for (size_t k = 0; k < frontier.size(); ++k) {
    std::string name;
    do {
      name = str("folded", next_name++);
    } while (names.count(name));
    names.insert(name);
    ir::ParameterOp param = ir::ParameterOp::build(top_builder, name, frontier[k].type());
    frontier[k].replace_all_uses_with(param.operation()->result(0));
    p.params.emplace_back(name, Tensor(values[k].contiguous()));
  }
  ir::PassManager dce(p.context.get());
  dce.add_pass(ir::create_dce_pass());
  dce.run(*p.program);
  return static_cast<int>(frontier.size());
}

void run_passes(jit::CapturedProgram& p, const std::vector<std::string>& passes,
                const std::function<void(const std::string&, const std::string&)>& after) {
  ir::register_standard_passes();
  for (const std::string& name : passes) {
    const auto& known = registry_passes();
    const bool in_registry =
        std::any_of(known.begin(), known.end(), [&](const auto& kv) { return kv.first == name; });
    if (name == kFoldParams) {
      fold_params(p);
    } else {
      if (!in_registry) {
        std::string names;
        for (const auto& kv : known_passes()) names += (names.empty() ? "" : ", ") + kv.first;
        SKIFF_THROW(kInvalidArgument, "inference passes", "pass", str("one of ", names),
                    str("'", name, "'"));
      }
      ir::PassManager pm(p.context.get());
      pm.add_pass(ir::PassRegistry::global().create(name));
      pm.run(*p.program);
    }
    if (after) after(name, p.program->print());
  }
  // Parameters no op reads any more (folded away) are let go.
  std::unordered_set<std::string> used;
  for (ir::Operation* op = p.program->block()->front(); op; op = op->next()) {
    if (op->name() == ir::ParameterOp::kName) used.insert(ir::ParameterOp(op).param_name());
  }
  std::erase_if(p.params, [&](const auto& kv) { return !used.count(kv.first); });
}

}  // namespace skiff::inference
