// Lowering from the op dialect to the kernel dialect (pass "lower-to-kernel"), for the CPU place:
//   - every op.* op becomes kernel.call {op_name, kernel_name, kernel_key = #kernel.key<cpu,
//     DTYPE>, the op's attributes}, DTYPE from the record's kernel dtype rule; a kernel must be
//     registered for it (else NotFound names the op, the dtype and the kernels that exist);
//   - promoted inputs of another dtype get an explicit cast kernel call in front (what the dense
//     API does inside the call);
//   - tensor values become placed tensors (!kernel.dense<cpu, ...>): op.data and parameters are
//     retyped, constants are placed by a kernel.transfer, vec values follow their elements.
// The executor runs lowered and unlowered programs alike.
#pragma once

#include <memory>

#include "skiff/ir/core/program.h"
#include "skiff/ir/passes/pass.h"

namespace skiff::ops::ir_bridge {

std::unique_ptr<ir::Pass> create_lower_to_kernel_pass();
/// Registers "lower-to-kernel" with the pass registry (idempotent).
void register_lowering_pass();

}  // namespace skiff::ops::ir_bridge
