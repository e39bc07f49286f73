// The profiler's mode on the dispatch stack (skiff/ops/dispatch/mode.h): while a profiler
// session runs, every Tensor API op call is an Operator event (name, op id; with record_shapes
// its input shapes and dtypes), and kernel selection underneath tags it with the kernel chosen.
// Sessions enable it everywhere and disable it when they stop, so with no profiler running the
// stack carries nothing for it: an op pays only the stack's one relaxed atomic load.
#pragma once

namespace skiff::ops {

/// Makes every profiler session switch the mode on and off (idempotent; the kernel registry
/// calls it when it is made, the Python binding when it loads). If a session is already
/// running, the mode is enabled now.
void install_profile_mode();

}  // namespace skiff::ops
