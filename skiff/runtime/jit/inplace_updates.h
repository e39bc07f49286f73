// "In place where safe" for captured programs: capture makes an in-place-only op (a fused
// optimizer update) functional by giving it op.assign copies of the tensors it writes; when such
// a copy is of a parameter the program writes back anyway (a parameter update), and nothing reads
// the parameter after the op, the copy is dropped and the op writes the parameter's own buffer
// (the executor then skips the write-back of a buffer onto itself). Saves a copy of every
// parameter and optimizer moment per training step.
#pragma once

#include "skiff/runtime/jit/capture.h"

namespace skiff::jit {

/// Rewrites `p` in place; returns how many copies were dropped.
int write_updates_in_place(CapturedProgram& p);

}  // namespace skiff::jit
