// The executor of captured programs (see docs/ARCHITECTURE.md "Static graph"), in the op dialect
// or lowered to the kernel dialect (lower-to-kernel). It turns a program into an instruction list
// once: each kernel.call becomes a call of its resolved kernel (skiff/ops/ir/kernel_call.h), an
// op.* op of an unlowered program a boxed dense op call; parameters, constants, inputs,
// combine/split, transfers and outputs become slot moves. Every value has a reference count (its
// uses); a buffer is released right after its last use, so memory stays bounded on long chains, and
// reused through the caching allocator. The planned peak (from static shapes, before running) and
// the measured peak (live buffers of the last run) are reported. Sequential mode runs program
// order; parallel mode runs independent instructions on a thread pool (random ops keep their
// program order, so results are the same).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/runtime/jit/capture.h"

namespace skiff::executor {

struct ExecutorOptions {
  bool parallel = false;
  int num_threads = 2;
};

class Executor {
 public:
  /// Binds the program's parameters to the tensors in `p.params` (read at every run).
  explicit Executor(const jit::CapturedProgram& p, ExecutorOptions options = {});
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  /// Runs the program on `feeds` (one per op.data, in program order); returns the outputs in
  /// builtin.shadow_output order, then writes the captured parameter updates (unless
  /// `write_updates` is false: write_updates(outputs) does it later).
  /// Thread-safe: the instructions are immutable after construction and each run keeps its own
  /// state (slots, use counts, yields, live-buffer accounting), so any number of threads may run
  /// one executor at once. Runs that write parameter updates race on those parameters as eager
  /// code would; programs without updates (inference) give each thread its own results.
  std::vector<DenseTensor> run(const std::vector<DenseTensor>& feeds,
                               bool write_updates = true) const;
  /// Writes the parameter updates among `outputs` (a run's result) into their parameters.
  void write_updates(const std::vector<DenseTensor>& outputs) const;

  size_t num_instructions() const;
  /// Peak bytes of buffers the program allocates (not inputs, parameters or constants), from the
  /// static shapes in program order; -1 when a shape is dynamic.
  int64_t planned_peak_bytes() const;
  /// The same, measured on the most recent run to finish.
  int64_t measured_peak_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace skiff::executor
