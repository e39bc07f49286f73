// Lowering from the op dialect to the kernel dialect (pass "lower-to-kernel"), on a program whose
// values assign-places has placed (assign_places.h; an unplaced value is PreconditionNotMet):
//   - every op.* op becomes kernel.call {op_name, kernel_name, kernel_key = #kernel.key<BACKEND,
//     DTYPE>, the op's attributes}: BACKEND that of its results' place, DTYPE from the record's
//     kernel dtype rule; a kernel must be registered for them (else NotFound names the op, the
//     dtype, the place and the kernels that exist);
//   - promoted inputs of another dtype get an explicit cast kernel call in front (what the dense
//     API does inside the call).
// The executor runs lowered and unlowered programs alike.
#pragma once

#include <memory>
#include <optional>

#include "skiff/core/place.h"
#include "skiff/ir/core/program.h"
#include "skiff/ir/passes/pass.h"

namespace skiff::ops::ir_bridge {

std::unique_ptr<ir::Pass> create_lower_to_kernel_pass();
/// Registers "assign-places" and "lower-to-kernel" with the pass registry (idempotent).
void register_lowering_pass();
/// Adds assign-places (on `place`, by default the default place when it runs) and
/// lower-to-kernel to `pm`.
void add_lowering(ir::PassManager& pm, std::optional<Place> place = std::nullopt);

}  // namespace skiff::ops::ir_bridge
