#include "skiff/ops/ir/op_bridge.h"

#include <string>

#include "skiff/base/error.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/core/op_schema.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ops/ir/bridge_util.h"
#include "skiff/ops/ir/fold.h"

namespace skiff::ops::ir_bridge {

namespace {
const BridgeEntry* entry_of(OpId id) {
  static const std::vector<const BridgeEntry*> by_id = [] {
    std::vector<const BridgeEntry*> v(all_op_schemas().size(), nullptr);
    for (const BridgeEntry& e : bridge_entries()) v[e.id] = &e;
    return v;
  }();
  return id < by_id.size() ? by_id[id] : nullptr;
}
}  // namespace

const OpSchema* schema_of(ir::Operation* op) {
  std::string_view name = op->name();
  if (name.substr(0, 3) != "op.") return nullptr;
  return find_op_schema(name.substr(3));
}

DType kernel_dtype(ir::Operation* op) {
  const OpSchema* s = schema_of(op);
  SKIFF_ENFORCE(s != nullptr, kNotFound, op->describe(), "op", "an op with an op record",
                op->name());
  return entry_of(s->id)->kernel_dtype(op);
}

uint32_t promote_mask(ir::Operation* op) {
  const OpSchema* s = schema_of(op);
  return s ? entry_of(s->id)->promote_mask : 0;
}

void attach_op_interfaces(ir::IrContext* ctx) {
  for (const BridgeEntry& e : bridge_entries()) {
    const OpSchema& s = op_schema(e.id);
    ir::OpInfo* info = ctx->find_op(str("op.", s.name));
    if (!info) continue;
    info->attach_interface<ir::InferMetaInterface>(ir::InferMetaConcept{e.infer});
    const OpId id = e.id;
    info->attach_interface<ir::FoldInterface>(
        ir::FoldConcept{[id](ir::Operation* op, std::span<const ir::Attribute> operands,
                             std::vector<ir::Attribute>& results) {
          return kernel_fold(id, op, operands, results);
        }});
    std::string kernel =
        info->schema && !info->schema->kernel.empty() ? std::string(info->schema->kernel) : s.name;
    const KernelDTypeFn kd = e.kernel_dtype;
    info->attach_interface<ir::KernelSelectInterface>(ir::KernelSelectConcept{
        kernel, e.data_type_operand, [kd](ir::Operation* op) { return to_ir(kd(op)); }});
  }
  ir::attach_ir_only_infer_meta(ctx);
}

}  // namespace skiff::ops::ir_bridge
