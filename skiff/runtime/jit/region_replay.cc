#include "skiff/runtime/jit/region_replay.h"

#include <string>
#include <unordered_map>

#include "skiff/base/error.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/cf.h"
#include "skiff/ops/ir/bridge_util.h"
#include "skiff/ops/ir/op_bridge.h"
#include "skiff/runtime/eager/call_op.h"
#include "skiff/runtime/jit/control_flow.h"

namespace skiff::jit {

namespace br = ops::ir_bridge;

namespace {

// What every recipe of one recorded tree shares: one slot per value, and the outer tensors.
struct RecipeTree {
  int num_slots = 0;
  std::vector<std::pair<int, Tensor>> outer;  // slot -> free variable
  std::vector<Tensor> free;
  std::string random_op;  // the first random op recorded (its replay would draw again)
};

enum class StepKind { kOp, kCombine, kSplit, kConst, kIf, kWhile, kYield };

}  // namespace

struct RegionRecipe {
  struct Step {
    StepKind kind;
    std::string op;  // kOp: the record
    br::AttrMap attrs;
    std::vector<int> in;  // slots (-1: an absent optional input)
    std::vector<int> out;
    Tensor constant;
    std::vector<std::shared_ptr<const RegionRecipe>> blocks;  // kIf: then, else; kWhile: body
    int64_t loop_vars = -1;  // kWhile carrying history: the user's vars come first
  };
  std::vector<Step> steps;
  std::vector<int> args;
  std::shared_ptr<RecipeTree> tree;
};

namespace {

using Env = std::vector<std::vector<Tensor>>;  // per slot: a tensor, or a list (combine)

class Recorder {
 public:
  Recorder(const std::vector<CaptureScope::FreeVariable>& outer)
      : outer_(outer), tree_(std::make_shared<RecipeTree>()) {
    for (const auto& f : outer) tree_->free.push_back(f.tensor);
  }

  std::shared_ptr<RegionRecipe> block(ir::Block* b) {
    auto r = std::make_shared<RegionRecipe>();
    r->tree = tree_;
    for (ir::Value a : b->args()) r->args.push_back(define(a));
    for (ir::Operation* op : *b) r->steps.push_back(step(op));
    return r;
  }

 private:
  RegionRecipe::Step step(ir::Operation* op) {
    RegionRecipe::Step s;
    if (op->isa<ir::IfOp>() || op->isa<ir::WhileOp>()) {
      s.kind = op->isa<ir::IfOp>() ? StepKind::kIf : StepKind::kWhile;
      if (auto n = op->attr("loop_vars")) s.loop_vars = n.cast<ir::IntAttr>().value();
    } else if (op->isa<ir::YieldOp>()) {
      s.kind = StepKind::kYield;
    } else if (op->name() == ir::CombineOp::kName) {
      s.kind = StepKind::kCombine;
    } else if (op->name() == ir::SplitOp::kName) {
      s.kind = StepKind::kSplit;
    } else if (op->name() == ir::ConstantOp::kName) {
      s.kind = StepKind::kConst;
      s.constant =
          Tensor(br::to_dense(op->attr("value"), op->result_type(0).cast<ir::TensorType>()));
    } else {
      const ops::OpSchema* schema = br::schema_of(op);
      SKIFF_ENFORCE(schema != nullptr, kUnimplemented, "cf", "region",
                    "ops with a record inside a differentiated branch or loop body",
                    op->describe());
      s.kind = StepKind::kOp;
      s.op = schema->name;
      if (schema->is_random && tree_->random_op.empty()) tree_->random_op = schema->name;
      s.attrs = br::attr_map(*schema, op->attrs());
    }
    for (ir::Value v : op->operands()) s.in.push_back(read(v));
    for (uint32_t r = 0; r < op->num_regions(); ++r)
      s.blocks.push_back(block(op->region(r).front()));
    for (ir::Value v : op->results()) s.out.push_back(define(v));
    return s;
  }

  int define(ir::Value v) {
    const int s = tree_->num_slots++;
    slot_of_[v.impl()] = s;
    return s;
  }

  int read(ir::Value v) {
    if (!v) return -1;
    auto it = slot_of_.find(v.impl());
    if (it != slot_of_.end()) return it->second;
    for (const auto& f : outer_) {
      if (f.value != v) continue;
      const int s = define(v);
      tree_->outer.emplace_back(s, f.tensor);
      return s;
    }
    SKIFF_THROW(kInternal, "cf", "region", "outer values read through the capture",
                "a value read from outside without a tensor");
  }

  const std::vector<CaptureScope::FreeVariable>& outer_;
  std::shared_ptr<RecipeTree> tree_;
  std::unordered_map<const void*, int> slot_of_;
};

std::vector<Tensor> run(const RegionRecipe& r, Env& env, const std::vector<Tensor>& args);

// A nested region as a function of its arguments, over a copy of the values around it.
std::vector<Tensor> run_nested(const std::shared_ptr<const RegionRecipe>& r,
                               const std::shared_ptr<const Env>& around,
                               const std::vector<Tensor>& args) {
  Env env = *around;
  return run(*r, env, args);
}

void run_step(const RegionRecipe::Step& s, Env& env) {
  switch (s.kind) {
    case StepKind::kOp: {
      TensorLists in;
      for (int k : s.in) in.push_back(k < 0 ? std::vector<Tensor>{} : env[k]);
      TensorLists out = call_op(s.op, in, s.attrs);
      for (size_t j = 0; j < s.out.size(); ++j) env[s.out[j]] = std::move(out[j]);
      return;
    }
    case StepKind::kCombine: {
      std::vector<Tensor> all;
      for (int k : s.in) all.insert(all.end(), env[k].begin(), env[k].end());
      env[s.out[0]] = std::move(all);
      return;
    }
    case StepKind::kSplit:
      for (size_t j = 0; j < s.out.size(); ++j) env[s.out[j]] = {env[s.in[0]].at(j)};
      return;
    case StepKind::kConst:
      env[s.out[0]] = {s.constant};
      return;
    case StepKind::kIf: {
      auto around = std::make_shared<const Env>(env);
      auto branch = [around](std::shared_ptr<const RegionRecipe> b) -> Branch {
        return [around, b] { return run_nested(b, around, {}); };
      };
      std::vector<Tensor> out = cond(env[s.in[0]][0], branch(s.blocks[0]), branch(s.blocks[1]));
      for (size_t j = 0; j < s.out.size(); ++j) env[s.out[j]] = {out[j]};
      return;
    }
    case StepKind::kWhile: {
      // A loop that carried history for its backward is replayed from the user's loop vars
      // (the body's extra history vars get their initial values: dead code).
      const size_t n = s.in.size() - 1;
      const size_t m = s.loop_vars >= 0 ? static_cast<size_t>(s.loop_vars) : n;
      std::vector<Tensor> inits, extras;
      for (size_t k = 0; k < n; ++k) (k < m ? inits : extras).push_back(env[s.in[1 + k]][0]);
      auto around = std::make_shared<const Env>(env);
      auto body = s.blocks[0];
      detail::LoopStep step = [around, body, extras, m](const std::vector<Tensor>& vars) {
        std::vector<Tensor> args = vars;
        args.insert(args.end(), extras.begin(), extras.end());
        std::vector<Tensor> y = run_nested(body, around, args);
        return std::make_pair(y[0], std::vector<Tensor>(y.begin() + 1, y.begin() + 1 + m));
      };
      // A recorded loop with history is replayed with history: ops after it (its backward loop)
      // read the counter and the histories.
      std::vector<Tensor> history;
      std::vector<Tensor> out = detail::captured_while(env[s.in[0]][0], step, inits,
                                                       s.loop_vars >= 0 ? &history : nullptr);
      for (size_t j = 0; j < m; ++j) env[s.out[j]] = {out[j]};
      for (size_t j = 0; j < history.size(); ++j) env[s.out[m + j]] = {history[j]};
      return;
    }
    case StepKind::kYield:
      return;  // read by run()
  }
}

std::vector<Tensor> run(const RegionRecipe& r, Env& env, const std::vector<Tensor>& args) {
  SKIFF_CHECK(args.size() == r.args.size());
  for (size_t i = 0; i < args.size(); ++i) env[r.args[i]] = {args[i]};
  for (const RegionRecipe::Step& s : r.steps) {
    if (s.kind != StepKind::kYield) {
      run_step(s, env);
      continue;
    }
    std::vector<Tensor> yielded;
    for (int k : s.in) yielded.push_back(env[k].at(0));
    return yielded;
  }
  return {};
}

}  // namespace

RecipePtr record_region(ir::Block* block, const std::vector<CaptureScope::FreeVariable>& outer) {
  return Recorder(outer).block(block);
}

const std::vector<Tensor>& free_tensors(const RegionRecipe& r) { return r.tree->free; }

const std::string& random_op_in(const RegionRecipe& r) { return r.tree->random_op; }

std::vector<Tensor> replay(const RecipePtr& r, const std::vector<Tensor>& args) {
  SKIFF_ENFORCE(capturing(), kPrecondition, "cf", "replay", "a capture", "eager mode");
  Env env(r->tree->num_slots);
  for (const auto& [slot, t] : r->tree->outer) env[slot] = {t};
  return run(*r, env, args);
}

}  // namespace skiff::jit
