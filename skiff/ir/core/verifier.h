// The verifier: SSA dominance (uses see values defined earlier in their block or in an enclosing
// block before the op that holds the region), op-specific verify functions, trait verifiers and
// terminator placement, and result types against the op's infer-meta (Note [Types agree with
// infer-meta] in verifier.cc). Throws skiff::Error naming the op, its location and what was
// expected.
#pragma once

namespace skiff::ir {

class Operation;
class Type;
struct OpInfo;
/// Maps a type to the one infer-meta reads (e.g. a placed tensor to its tensor type).
using TypeReader = Type (*)(Type);

/// Verifies `op` and everything nested in it.
void verify(Operation* op);

/// Runs the InferMetaInterface of `rule` (when attached) on `op`'s operand types and attributes
/// and checks `op`'s result types against what it infers; `read` (when given) maps operand and
/// result types first (kernel.call reads placed tensors as their tensor types, so it is checked
/// by the rule of the op it lowers). Throws naming the op and the operand (infer-meta's own
/// argument) or the result at fault.
void verify_against_infer_meta(Operation* op, const OpInfo* rule, TypeReader read = nullptr);

}  // namespace skiff::ir
