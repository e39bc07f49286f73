// Result-type rules for the IR core tests, which link skiff_ir alone (no op records, no kernels):
// the role MLIR's test dialect plays. Deliberately small and test-only: elementwise results take
// the operand of larger rank, matmul contracts the last axes, reductions keep or drop axes. The
// real rules are the records' infer-meta (skiff/ops/meta), attached by the ops layer.
#pragma once

#include "skiff/ir/core/context.h"

namespace skiff::ir {

/// Attaches the rules to the op.* ops the IR tests build (and the IR-only ops' own rules).
void attach_test_infer_meta(IrContext* ctx);

}  // namespace skiff::ir
