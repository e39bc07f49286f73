// The bridge between the IR's `op` dialect and the ops layer (library skiff_op_dialect, which
// links skiff_ir and skiff_ops; skiff_ir itself knows nothing of kernels). It attaches to every
// op.* op that has an op record:
//   InferMetaInterface     the record's infer-meta function (skiff/ops/meta) on IR types, with
//                          the dense API's input promotion; dynamic dims (-1) propagate.
//   FoldInterface          runs the op's CPU kernel when every operand is a constant and the
//                          results are small enough (flag ir_fold_max_elements); never for
//                          random or side-effecting ops. Results are dense<...> constants.
//   KernelSelectInterface  kernel name, the data_type operand and the kernel dtype rule.
// Usage: ir::load_all_dialects(&ctx); ops::ir_bridge::attach_op_interfaces(&ctx);
#pragma once

#include "skiff/core/dtype.h"
#include "skiff/ir/core/context.h"
#include "skiff/ir/core/operation.h"
#include "skiff/ops/op_schema.h"

namespace skiff::ops::ir_bridge {

/// Attaches the interfaces above to every registered op.* op with a record, then the IR's own
/// rules to the ops without one (data, print, swiglu, rotary_embedding). Idempotent.
void attach_op_interfaces(ir::IrContext* ctx);

/// The ops-layer schema of an op.* op, or nullptr for IR-only ops.
const OpSchema* schema_of(ir::Operation* op);

/// The dtype that keys the kernel of a built op.* op (the record's data_type rule).
DType kernel_dtype(ir::Operation* op);

/// Bit k set: operand k of the op.* op is cast to the kernel dtype first (the record's promote).
uint32_t promote_mask(ir::Operation* op);

/// Largest number of result elements a fold may produce (SKIFF_IR_FOLD_MAX_ELEMENTS).
int64_t fold_max_elements();

}  // namespace skiff::ops::ir_bridge
