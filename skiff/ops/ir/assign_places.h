// Pass "assign-places": puts a device place into the IR types, so that lowering (lower-to-kernel)
// and the executor read where each value lives from the program instead of assuming a device.
// Every tensor value (op results and block arguments, vec values element by element) becomes a
// placed tensor !kernel.dense<PLACE, tensor<...>>; values already placed keep their place.
// Constants stay host data (their dense attribute), and each gets a kernel.transfer to PLACE
// that its users read instead. Op-dialect ops on placed types still verify: the verifier leaves
// other dialects' types to them (skiff/ir/core/verifier.cc), and lowering replaces the ops.
#pragma once

#include <memory>

#include "skiff/core/place.h"
#include "skiff/ir/dialects/kernel.h"
#include "skiff/ir/passes/pass.h"

namespace skiff::ops::ir_bridge {

/// The IR place of a device place ("cpu", "emu_npu:0").
ir::Place to_ir_place(const Place& place);

std::unique_ptr<ir::Pass> create_assign_places_pass(const Place& place);
/// The registered "assign-places": the process's default place (ops::default_place(), the
/// device paddle.set_device chose) when the pass runs.
std::unique_ptr<ir::Pass> create_assign_places_pass();

}  // namespace skiff::ops::ir_bridge
