#include "skiff/runtime/jit/inplace_updates.h"

#include <unordered_map>

#include "skiff/ir/dialects/builtin.h"
#include "skiff/ops/inplace.h"
#include "skiff/ops/ir/op_bridge.h"

namespace skiff::jit {

namespace {

// True when every use of `v` (and of views of it) comes before `op` in its block.
bool read_only_before(ir::Value v, ir::Operation* op, ir::Operation* except) {
  for (ir::OpOperand& use : v.uses()) {
    ir::Operation* user = use.owner();
    if (user == except) continue;
    if (user->parent_block() != op->parent_block() || !user->is_before_in_block(op)) return false;
    const ops::OpSchema* s = ops::ir_bridge::schema_of(user);
    if (s != nullptr && s->is_view) {
      for (ir::Value r : user->results()) {
        if (!read_only_before(r, op, nullptr)) return false;
      }
    }
  }
  return true;
}

// The op operand that in-place-only op `op` writes into its result `result` (through the
// record's inplace pairs), or -1.
int written_operand(ir::Operation* op, uint32_t result) {
  const ops::OpSchema* s = ops::ir_bridge::schema_of(op);
  const ops::InplaceInfo* info = s != nullptr ? ops::inplace_info(s->id) : nullptr;
  if (info == nullptr || info->api != s->name) return -1;
  const std::string& out = s->outputs[result].name;
  for (const auto& [in, o] : info->pairs) {
    if (o != out) continue;
    int k = 0;
    for (const ops::ArgSchema& a : s->args) {
      if (!ops::is_tensor_kind(a.kind)) continue;
      if (a.name == in) return k;
      ++k;
    }
  }
  return -1;
}

}  // namespace

int write_updates_in_place(CapturedProgram& p) {
  ir::Block* block = p.program->block();
  std::unordered_map<const TensorImpl*, ir::Value> param_value;
  std::unordered_map<std::string, ir::Value> output_value;
  for (ir::Operation* op = block->front(); op; op = op->next()) {
    if (op->name() == ir::ParameterOp::kName) {
      const std::string& name = ir::ParameterOp(op).param_name();
      for (const auto& [n, t] : p.params) {
        if (n == name) param_value[t.impl()] = op->result(0);
      }
    } else if (op->name() == ir::ShadowOutputOp::kName) {
      output_value[op->attr_of<ir::StrAttr>("name").value()] = op->operand(0);
    }
  }
  int dropped = 0;
  for (const auto& [name, param] : p.updates) {
    auto pv = param_value.find(param.impl());
    if (pv == param_value.end()) continue;
    // final value <- (split <-) in-place-only op <- (combine <-) op.assign(param)
    ir::Value final_value = output_value.at(name);
    ir::Operation* def = final_value.defining_op();
    if (def == nullptr) continue;
    uint32_t element = 0;
    bool listed = false;
    if (def->name() == ir::SplitOp::kName) {
      element = final_value.index();
      listed = true;
      final_value = def->operand(0);
      def = final_value.defining_op();
      if (def == nullptr) continue;
    }
    const int k = written_operand(def, final_value.index());
    if (k < 0) continue;
    ir::Value copy = def->operand(static_cast<uint32_t>(k));
    ir::Operation* combine = nullptr;
    if (listed) {
      combine = copy.defining_op();
      if (combine == nullptr || combine->name() != ir::CombineOp::kName || !copy.has_one_use() ||
          element >= combine->num_operands()) {
        continue;
      }
      copy = combine->operand(element);
    }
    ir::Operation* assign = copy.defining_op();
    if (assign == nullptr || assign->name() != "op.assign" || assign->operand(0) != pv->second ||
        !copy.has_one_use() || !read_only_before(pv->second, def, assign)) {
      continue;
    }
    copy.replace_all_uses_with(pv->second);
    assign->erase();
    ++dropped;
  }
  return dropped;
}

}  // namespace skiff::jit
