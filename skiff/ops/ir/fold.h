// The FoldInterface implementation of op.* ops (see op_bridge.h).
#pragma once

#include <span>
#include <vector>

#include "skiff/ir/core/operation.h"
#include "skiff/ops/op_schema.h"

namespace skiff::ops::ir_bridge {

/// Folds `op` (record `id`) by running its CPU kernel on the constant `operands`; false when it
/// does not apply. Fills one dense<...> attribute per result.
bool kernel_fold(OpId id, ir::Operation* op, std::span<const ir::Attribute> operands,
                 std::vector<ir::Attribute>& results);

}  // namespace skiff::ops::ir_bridge
