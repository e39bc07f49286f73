#include "skiff/ops/ir/kernel_call.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/builtin_types.h"
#include "skiff/ops/ir/bridge_util.h"
#include "skiff/ops/kernel_registry.h"

namespace skiff::ops::ir_bridge {

Place to_place(const ir::Place& place) { return Place::parse(place.to_string()); }

namespace {

// A result's metas (one per element of a vec) and whether a dim is dynamic; sets `place` from
// the first placed tensor met.
bool metas_of(ir::Type t, std::vector<TensorMeta>& out, std::optional<Place>& place) {
  if (auto vt = t.dyn_cast<ir::VectorType>()) {
    bool dynamic = false;
    for (ir::Type e : vt.elements()) dynamic = metas_of(e, out, place) || dynamic;
    return dynamic;
  }
  auto p = t.dyn_cast<ir::DenseTensorOnPlaceType>();
  SKIFF_ENFORCE(p, kTypeError, "kernel.call", "result", "a placed tensor", ir::to_string(t));
  if (!place) place = to_place(p.place());
  out.push_back(to_meta(p.tensor()));
  return p.tensor().is_dynamic();
}

}  // namespace

ResolvedCall resolve_call(ir::KernelCallOp call) {
  ir::Operation* op = call.operation();
  const std::string op_name = call.op_name();
  ResolvedCall r;
  r.schema = op_name.starts_with("op.") ? find_op_schema(op_name.substr(3)) : nullptr;
  SKIFF_ENFORCE(r.schema != nullptr, kUnimplemented, "executor", "kernel.call",
                "a call of an op with a record", op_name);
  r.attrs = attr_map(*r.schema, op->attrs());
  ir::KernelKeyAttr key = call.kernel_key();
  r.backend = parse_backend(key.backend());
  std::optional<Place> place;
  for (uint32_t j = 0; j < op->num_results(); ++j) {
    r.metas.emplace_back();
    r.dynamic = metas_of(op->result_type(j), r.metas.back(), place) || r.dynamic;
  }
  r.place = place.value_or(Place());
  r.dtype = from_ir(key.dtype());
  KernelFn fn = KernelRegistry::global().find(r.schema->id, r.backend, r.dtype);
  if (fn != nullptr) {
    r.kernel = resolve_kernel(r.schema->id, fn,
                              KernelContext{r.place, r.backend, r.schema->name.c_str()}, r.attrs);
  }
  return r;
}

}  // namespace skiff::ops::ir_bridge
