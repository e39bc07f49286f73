#include "skiff/runtime/jit/partition.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "skiff/base/error.h"
#include "skiff/ir/core/builtin_types.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/op_dialect.h"

namespace skiff::jit {

namespace {

// Values an op reads (absent optional operands are skipped), including those its nested ops
// read from outside it.
std::vector<ir::Value> external_operands(ir::Operation* op) {
  std::vector<ir::Value> out;
  for (ir::Value v : op->operands()) {
    if (v) out.push_back(v);
  }
  if (op->num_regions() == 0) return out;
  op->walk([&](ir::Operation* inner) {
    if (inner == op) return;
    for (ir::Value v : inner->operands()) {
      if (!v) continue;
      ir::Block* block = v.parent_block();
      ir::Operation* owner = block != nullptr ? block->parent_op() : nullptr;
      const bool inside = owner != nullptr && (owner == op || owner->is_inside(op));
      if (!inside) out.push_back(v);
    }
  });
  return out;
}

bool is_source(std::string_view name) {
  return name == ir::ParameterOp::kName || name == ir::ConstantOp::kName;
}

}  // namespace

SplitProgram split_forward_backward(const CapturedProgram& p,
                                    const std::vector<std::string>& forward_outputs) {
  ir::Block* block = p.program->block();
  std::vector<ir::Operation*> ops;
  for (ir::Operation* op = block->front(); op; op = op->next()) ops.push_back(op);

  std::unordered_set<std::string> fwd_names(forward_outputs.begin(), forward_outputs.end());
  for (const auto& u : p.updates) fwd_names.insert(u.first);
  std::unordered_map<std::string, ir::Operation*> output_op;
  for (ir::Operation* op : ops) {
    if (op->name() == ir::ShadowOutputOp::kName) {
      output_op[op->attr_of<ir::StrAttr>("name").value()] = op;
    }
  }
  for (const std::string& n : forward_outputs) {
    SKIFF_ENFORCE(output_op.count(n), kNotFound, "split_forward_backward", "forward_outputs",
                  "names of program outputs", n);
  }

  // The forward part: every op the forward outputs and updates depend on, found backwards.
  std::unordered_set<ir::Operation*> forward;
  std::vector<ir::Operation*> stack;
  for (const std::string& n : fwd_names) stack.push_back(output_op.at(n));
  while (!stack.empty()) {
    ir::Operation* op = stack.back();
    stack.pop_back();
    if (!forward.insert(op).second) continue;
    for (ir::Value v : external_operands(op)) {
      if (ir::Operation* def = v.defining_op()) stack.push_back(def);
    }
  }

  // The backward part: what the other outputs need, up to the forward part; program inputs
  // the forward part does not read (the output gradients) stay inputs even when unused. Ops
  // neither part needs are dropped.
  std::unordered_set<ir::Operation*> backward;
  for (ir::Operation* op : ops) {
    const bool other_output = op->name() == ir::ShadowOutputOp::kName && !forward.count(op);
    if (other_output || (op->name() == ir::op::DataOp::kName && !forward.count(op))) {
      stack.push_back(op);
    }
  }
  while (!stack.empty()) {
    ir::Operation* op = stack.back();
    stack.pop_back();
    if (forward.count(op) || !backward.insert(op).second) continue;
    for (ir::Value v : external_operands(op)) {
      if (ir::Operation* def = v.defining_op()) stack.push_back(def);
    }
  }

  // Saved: values forward ops make (not parameters or constants, which the backward re-binds)
  // that backward ops read. A builtin.combine the backward reads (a tensor list) is rebuilt in
  // the backward from its saved elements: a list is not a tensor a program can output.
  std::vector<ir::Value> saved;
  std::unordered_set<const void*> saved_set;
  std::unordered_set<ir::Operation*> recombined;
  std::function<void(ir::Value)> read_by_backward = [&](ir::Value v) {
    ir::Operation* def = v.defining_op();
    if (def == nullptr || !forward.count(def) || is_source(def->name())) return;
    if (def->name() == ir::CombineOp::kName) {
      if (recombined.insert(def).second) {
        for (ir::Value e : def->operands()) read_by_backward(e);
      }
      return;
    }
    if (saved_set.insert(v.impl()).second) saved.push_back(v);
  };
  for (ir::Operation* op : ops) {
    if (!backward.count(op) || is_source(op->name())) continue;
    for (ir::Value v : external_operands(op)) read_by_backward(v);
  }

  SplitProgram r;
  r.num_saved = saved.size();
  std::unordered_map<std::string, Tensor> bound(p.params.begin(), p.params.end());
  auto start = [&](CapturedProgram& out) {
    out.context = p.context;
    out.program = std::make_unique<ir::Program>(p.context.get());
  };
  auto note = [&](CapturedProgram& out, ir::Operation* op) {
    if (op->name() == ir::ParameterOp::kName) {
      const std::string& name = ir::ParameterOp(op).param_name();
      out.params.emplace_back(name, bound.at(name));
    } else if (op->name() == ir::op::DataOp::kName) {
      out.inputs.push_back(ir::op::DataOp(op).name());
    }
  };

  // Forward: its ops in order, its outputs, then the saved values.
  start(r.forward);
  {
    ir::Builder b(p.context.get(), r.forward.program->block());
    ir::IrMapping map;
    for (ir::Operation* op : ops) {
      if (!forward.count(op) || op->name() == ir::ShadowOutputOp::kName) continue;
      b.clone(op, map);
      note(r.forward, op);
    }
    for (const std::string& n : forward_outputs) {
      b.clone(output_op.at(n), map);
      r.forward.outputs.push_back(n);
    }
    for (const auto& u : p.updates) {
      b.clone(output_op.at(u.first), map);
      r.forward.outputs.push_back(u.first);
      r.forward.updates.push_back(u);
    }
    for (size_t i = 0; i < saved.size(); ++i) {
      std::string name = str("saved", i);
      ir::ShadowOutputOp::build(b, map.lookup_or_self(saved[i]), name);
      r.forward.outputs.push_back(name);
    }
  }

  // Backward: the saved values as inputs, then the other ops (sources cloned where used).
  start(r.backward);
  {
    ir::Builder b(p.context.get(), r.backward.program->block());
    ir::IrMapping map;
    for (size_t i = 0; i < saved.size(); ++i) {
      auto t = saved[i].type().cast<ir::TensorType>();
      std::string name = str("saved", i);
      ir::Type type = t;
      std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
      ir::Value v = ir::op::DataOp::build_typed(b, {&type, 1}, name, shape, t.dtype()).out();
      map.map(saved[i], v);
      r.backward.inputs.push_back(name);
    }
    std::unordered_set<ir::Operation*> used_sources;
    for (ir::Operation* op : ops) {
      if ((!backward.count(op) && !recombined.count(op)) || is_source(op->name())) continue;
      for (ir::Value v : external_operands(op)) {
        ir::Operation* def = v.defining_op();
        if (def && is_source(def->name())) used_sources.insert(def);
      }
    }
    for (ir::Operation* op : ops) {
      if (used_sources.count(op)) {
        b.clone(op, map);
        note(r.backward, op);
      }
    }
    for (ir::Operation* op : ops) {
      if (recombined.count(op)) b.clone(op, map);
    }
    for (ir::Operation* op : ops) {
      if (!backward.count(op) || is_source(op->name())) continue;
      b.clone(op, map);
      note(r.backward, op);
      if (op->name() == ir::ShadowOutputOp::kName) {
        r.backward.outputs.push_back(op->attr_of<ir::StrAttr>("name").value());
      }
    }
  }
  r.forward.program->verify();
  r.backward.program->verify();
  return r;
}

}  // namespace skiff::jit
