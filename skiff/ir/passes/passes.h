// The standard passes and their registration.
//   dce            erase pure ops whose results are unused (nested regions included)
//   cse            merge identical pure ops (same name, operands, attributes, result types)
//   constant-fold  evaluate ops whose operands are constants (FoldInterface first, then the
//                  built-in splat/dense folders) and materialize builtin.constant ops
//   canonicalize   identity ops, transpose of transpose, reshape of reshape, ... plus the
//                  canonicalizers attached to OpInfos, by the greedy driver
//   inplace        mark ops whose records declare `inplace : (x -> out)` when x dies there
//   fuse-linear, fuse-rms-norm, fuse-swiglu, fuse-rotary, fusion  (DRR rules, drr/fusion_rules.h)
#pragma once

#include <memory>

#include "skiff/ir/passes/pass.h"

namespace skiff::ir {

class RewritePatternSet;

std::unique_ptr<Pass> create_dce_pass();
std::unique_ptr<Pass> create_cse_pass();
std::unique_ptr<Pass> create_constant_fold_pass();
std::unique_ptr<Pass> create_canonicalize_pass();
std::unique_ptr<Pass> create_inplace_pass();

/// Adds the canonicalization patterns of the builtin and op dialects and of every OpInfo.
void populate_canonicalization_patterns(RewritePatternSet& patterns);

/// Registers the standard and fusion passes in PassRegistry::global() (idempotent).
void register_standard_passes();

/// The default pipeline: canonicalize, constant-fold, cse, dce (opt level 1).
constexpr const char* kStandardPipeline = "canonicalize,constant-fold,cse,dce";

}  // namespace skiff::ir
