// The verifier: SSA dominance (uses see values defined earlier in their block or in an enclosing
// block before the op that holds the region), op-specific verify functions, trait verifiers and
// terminator placement. Throws skiff::Error naming the op, its location and what was expected.
#pragma once

namespace skiff::ir {

class Operation;

/// Verifies `op` and everything nested in it.
void verify(Operation* op);

}  // namespace skiff::ir
