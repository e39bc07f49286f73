#include "skiff/inference/pass_pipeline.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "skiff/base/error.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/passes/pass.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/ops/generated/dense/all.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/ops/ir/lower_to_kernel.h"
#include "skiff/ops/op_schema.h"
#include "skiff/runtime/eager/amp_mode.h"
#include "skiff/runtime/executor/executor.h"

namespace skiff::inference {

namespace {

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
  std::vector<std::string> p = {"canonicalize", "constant-fold", kFoldParamsPass, "cse", "dce"};
  if (mkldnn) {
    p.insert(p.end(), {"fuse-linear", "fuse-rms-norm"});
  }
  return p;
}

std::vector<std::pair<std::string, std::string>> known_passes() {
  auto list = registry_passes();
  list.insert(list.begin() + 2,
              {kFoldParamsPass, "ops on parameters only evaluated at load into new parameters"});
  list.push_back({kWeightOnlyInt8Pass,
                  "linear/matmul with a float parameter weight -> weight_only_linear on int8 rows "
                  "quantized at load (per-channel scales)"});
  list.push_back({kWeightOnlyInt4Pass, "the same with int4 weights"});
  list.push_back({kLlmInt8Pass,
                  "linear/matmul with a float parameter weight -> llm_int8_linear (LLM.int8: int8 "
                  "weights, activations quantized per row at run time, outlier columns in float)"});
  list.push_back({kCpuBfloat16Pass,
                  "auto_cast O1 in bfloat16: white-list ops (matmul, linear, conv2d) on bfloat16 "
                  "operands, casts where dtypes meet, float32 outputs"});
  return list;
}

namespace {

// The parameter behind `v` when it is one (its builtin.parameter in the top block).
const Tensor* parameter_tensor(const jit::CapturedProgram& p, ir::Value v, std::string* name) {
  ir::Operation* def = v ? v.defining_op() : nullptr;
  if (def == nullptr || def->name() != ir::ParameterOp::kName) return nullptr;
  *name = ir::ParameterOp(def).param_name();
  for (const auto& [n, t] : p.params) {
    if (n == *name) return &t;
  }
  return nullptr;
}

bool flag(ir::Operation* op, std::string_view attr) {
  ir::BoolAttr a = op->attr_of<ir::BoolAttr>(attr);
  return a && a.value();
}

}  // namespace

namespace {

// The linears of weight_only_quantize / llm_int8_quantize: weights quantized with `algo`, each
// op rewritten into `op` (a record name) on (x, qweight, bias, qscale) with `attrs`.
int quantize_linears(jit::CapturedProgram& p, const std::string& algo, const std::string& op_name,
                     const std::map<std::string, ops::AttrValue>& attrs) {
  const ops::OpSchema* schema = ops::find_op_schema(op_name);
  SKIFF_CHECK(schema != nullptr);
  ir::Block* top = p.program->block();
  std::unordered_set<std::string> names;
  for (const auto& kv : p.params) names.insert(kv.first);
  // One quantized copy per weight parameter, shared by every op that reads it (tied weights).
  std::map<std::string, std::pair<ir::Value, ir::Value>> quantized;
  std::vector<std::pair<std::string, Tensor>> added;
  ir::Builder pb(p.context.get());
  pb.set_insertion_point_to_start(top);
  std::vector<ir::Operation*> ops;
  for (ir::Operation* op = top->front(); op; op = op->next()) ops.push_back(op);
  int rewritten = 0;
  for (ir::Operation* op : ops) {
    const bool linear = op->name() == "op.linear";
    const bool matmul =
        op->name() == "op.matmul" && !flag(op, "transpose_x") && !flag(op, "transpose_y");
    if (!linear && !matmul) continue;
    std::string wname;
    const Tensor* w = parameter_tensor(p, op->operand(1), &wname);
    ir::TensorType xt = op->operand(0).type().dyn_cast<ir::TensorType>();
    if (w == nullptr || w->rank() != 2 || !is_floating(w->dtype()) ||
        w->dtype() == DType::kFloat64 || !xt) {
      continue;
    }
    // x's last dim must be the weight's rows (matmul of a 1-D x is left alone), and x, the
    // weight and the bias one dtype (weight_only_linear computes in x's dtype, unpromoted).
    if (xt.rank() < 2 || xt.shape().back() != w->dims()[0]) continue;
    if (ops::ir_bridge::from_ir(xt.dtype()) != w->dtype()) continue;
    if (linear && op->num_operands() > 2 && op->operand(2)) {
      ir::TensorType bt = op->operand(2).type().dyn_cast<ir::TensorType>();
      if (!bt || ops::ir_bridge::from_ir(bt.dtype()) != w->dtype()) continue;
    }
    auto it = quantized.find(wname);
    if (it == quantized.end()) {
      auto [q, scale] = ops::dense::weight_quantize(w->dense(), algo, -1);
      std::pair<ir::Value, ir::Value> vals;
      for (int k = 0; k < 2; ++k) {
        std::string name = str(wname, k == 0 ? ".qweight" : ".qscale");
        while (names.count(name)) name += "_";
        names.insert(name);
        const DenseTensor& t = k == 0 ? q : scale;
        ir::Value v =
            ir::ParameterOp::build(pb, name, ops::ir_bridge::to_ir_type(p.context.get(), t.meta()))
                .operation()
                ->result(0);
        (k == 0 ? vals.first : vals.second) = v;
        added.emplace_back(name, Tensor(t));
      }
      it = quantized.emplace(wname, vals).first;
    }
    ir::Builder b(p.context.get());
    b.set_insertion_point(op);
    ir::Value bias = linear && op->num_operands() > 2 ? op->operand(2) : ir::Value();
    const ir::Value operands[] = {op->operand(0), it->second.first, bias, it->second.second};
    ir::Operation* q =
        b.create_inferred(str("op.", op_name), operands,
                          ops::ir_bridge::to_ir_attrs(p.context.get(), *schema, attrs));
    q->set_loc(op->loc());
    op->result(0).replace_all_uses_with(q->result(0));
    op->erase();
    ++rewritten;
  }
  p.params.insert(p.params.end(), added.begin(), added.end());
  // The float weights nothing reads any more go (run_passes then drops their tensors).
  std::vector<ir::Operation*> dead;
  for (ir::Operation* op = top->front(); op; op = op->next()) {
    if (op->name() == ir::ParameterOp::kName && op->use_empty() &&
        quantized.count(ir::ParameterOp(op).param_name())) {
      dead.push_back(op);
    }
  }
  for (ir::Operation* op : dead) op->erase();
  return rewritten;
}

}  // namespace

int weight_only_quantize(jit::CapturedProgram& p, int bits) {
  return quantize_linears(
      p, bits == 8 ? "weight_only_int8" : "weight_only_int4", "weight_only_linear",
      {{"weight_dtype", std::string(bits == 8 ? "int8" : "int4")}, {"group_size", int64_t{-1}}});
}

int llm_int8_quantize(jit::CapturedProgram& p, float threshold) {
  return quantize_linears(p, "llm.int8", "llm_int8_linear",
                          {{"threshold", static_cast<double>(threshold)}});
}

namespace {

DType value_dtype(ir::Value v) {
  ir::TensorType t = v ? v.type().dyn_cast<ir::TensorType>() : ir::TensorType();
  return t ? ops::ir_bridge::from_ir(t.dtype()) : DType::kUndefined;
}

bool castable(DType d) {
  return d == DType::kFloat16 || d == DType::kBFloat16 || d == DType::kFloat32;
}

}  // namespace

int mixed_precision(jit::CapturedProgram& p, DType dtype, const std::set<std::string>& white,
                    const std::set<std::string>& black) {
  SKIFF_ENFORCE(dtype == DType::kBFloat16 || dtype == DType::kFloat16, kInvalidArgument,
                "mixed precision", "dtype", "bfloat16 or float16", dtype_name(dtype));
  for (const auto* list : {&white, &black}) {
    for (const std::string& op : *list) {
      SKIFF_ENFORCE(ops::find_op_schema(op) != nullptr, kInvalidArgument, "mixed precision",
                    list == &white ? "white_list" : "black_list", "names of ops",
                    str("'", op, "', which is no op"));
      SKIFF_ENFORCE(list == &black || black.count(op) == 0, kInvalidArgument, "mixed precision",
                    "white_list", "no op also in black_list", op);
    }
  }
  amp::AmpState state;
  state.level = amp::Level::kO1;
  state.dtype = dtype;
  state.white = white;
  state.black = black;
  ir::IrContext* ctx = p.context.get();
  const ops::OpSchema* cast_schema = ops::find_op_schema("cast");
  SKIFF_CHECK(cast_schema != nullptr);
  // A value the rewrite computes in another dtype, keyed by the float32 value every op that
  // is not rewritten still reads (a cast back, which DCE drops when nothing reads it).
  std::unordered_map<const void*, ir::Value> lowered;
  std::map<std::pair<const void*, DType>, ir::Value> casts;  // one cast per value and dtype
  ir::Builder b(ctx);
  auto cast = [&](ir::Value v, DType to) {
    auto [it, fresh] = casts.try_emplace({v.impl(), to});
    if (fresh) {
      const std::map<std::string, ops::AttrValue> attrs = {{"dtype", to}};
      it->second = b.create_inferred("op.cast", std::span<const ir::Value>(&v, 1),
                                     ops::ir_bridge::to_ir_attrs(ctx, *cast_schema, attrs))
                       ->result(0);
    }
    return it->second;
  };
  std::vector<ir::Operation*> ops;
  for (ir::Operation* op = p.program->block()->front(); op; op = op->next()) ops.push_back(op);
  int rewritten = 0;
  for (ir::Operation* op : ops) {
    if (!op->name().starts_with("op.") || op->num_regions() != 0 || op->name() == "op.cast") {
      continue;
    }
    const ops::OpSchema* schema = ops::find_op_schema(op->name().substr(3));
    if (schema == nullptr) continue;
    // What each operand is in the dtypes the rewrite gave it, as eager AMP would see it.
    std::vector<ir::Value> seen;
    std::vector<DType> floats;
    for (uint32_t i = 0; i < op->num_operands(); ++i) {
      ir::Value& v = seen.emplace_back(op->operand(i));
      if (!v) continue;
      if (auto it = lowered.find(v.impl()); it != lowered.end()) v = it->second;
      if (castable(value_dtype(v))) floats.push_back(value_dtype(v));
    }
    const DType dest = amp::dest_dtype(state, amp::op_class(state, *schema), floats);
    if (dest == DType::kUndefined) continue;
    b.set_insertion_point(op);
    std::vector<ir::Value> operands;
    bool changed = false;
    for (uint32_t i = 0; i < op->num_operands(); ++i) {
      ir::Value v = seen[i];
      if (v && castable(value_dtype(v)) && value_dtype(v) != dest) {
        v = value_dtype(op->operand(i)) == dest ? op->operand(i) : cast(v, dest);
      }
      changed = changed || v != op->operand(i);
      operands.push_back(v);
    }
    if (!changed) continue;
    ir::Operation* n = b.create_inferred(op->name(), operands, op->attrs());
    n->set_loc(op->loc());
    for (uint32_t r = 0; r < op->num_results(); ++r) {
      ir::Value old = op->result(r), now = n->result(r);
      if (old.type() == now.type()) {
        old.replace_all_uses_with(now);
        continue;
      }
      ir::Value back = cast(now, value_dtype(old));
      old.replace_all_uses_with(back);
      lowered[back.impl()] = now;
    }
    op->erase();
    ++rewritten;
  }
  ir::PassManager dce(ctx);
  dce.add_pass(ir::create_dce_pass());
  dce.run(*p.program);
  return rewritten;
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
  ops::ir_bridge::add_lowering(lower);
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
    if (name == kFoldParamsPass) {
      fold_params(p);
    } else if (name == kWeightOnlyInt8Pass || name == kWeightOnlyInt4Pass) {
      weight_only_quantize(p, name == kWeightOnlyInt8Pass ? 8 : 4);
    } else if (name == kLlmInt8Pass) {
      llm_int8_quantize(p);
    } else if (name == kCpuBfloat16Pass) {
      mixed_precision(p, DType::kBFloat16);
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
  // Parameters no op reads any more (folded away, or cast to bfloat16) are let go.
  std::unordered_set<std::string> used;
  std::vector<ir::Operation*> unused;
  for (ir::Operation* op = p.program->block()->front(); op; op = op->next()) {
    if (op->name() != ir::ParameterOp::kName) continue;
    if (op->use_empty()) {
      unused.push_back(op);
    } else {
      used.insert(ir::ParameterOp(op).param_name());
    }
  }
  for (ir::Operation* op : unused) op->erase();
  std::erase_if(p.params, [&](const auto& kv) { return !used.count(kv.first); });
}

}  // namespace skiff::inference
