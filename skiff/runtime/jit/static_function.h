// to_static: a callable that captures its function once per input signature, lowers the program
// to the kernel dialect, and runs it with the executor afterwards (paddle.jit.to_static for C++
// callables).
// Guards: the dtype and dims of every input, where a -1 in the InputSpec matches any size; a
// call that matches no cached program captures again (num_captures() counts them).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "skiff/runtime/executor/executor.h"
#include "skiff/runtime/jit/capture.h"

namespace skiff::jit {

/// A captured program lowered to the kernel dialect, with its executor (built once).
class CompiledProgram {
 public:
  /// `in_place_updates`: let updates of parameters write their buffers during the run
  /// (jit/inplace_updates.h); off for programs whose runs may be discarded (run_guarded).
  explicit CompiledProgram(CapturedProgram p, executor::ExecutorOptions options = {},
                           bool in_place_updates = true);
  /// Runs the program on one dense tensor per input; returns its outputs other than the
  /// parameter updates, which it writes back into their parameters.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs);
  /// A run that counts only if every guard holds: guard (k, v) says output k (one element)
  /// equals v. On a mismatch nothing is written back, the random generator is restored to its
  /// state before the run, and nullopt is returned (the program was captured for another path
  /// through data-dependent Python code).
  std::optional<std::vector<Tensor>> run_guarded(
      const std::vector<Tensor>& inputs, const std::vector<std::pair<size_t, double>>& guards);
  /// The lowered program.
  const CapturedProgram& program() const { return program_; }
  const executor::Executor& executor() const { return *exec_; }

 private:
  CapturedProgram program_;
  std::unique_ptr<executor::Executor> exec_;
  std::vector<bool> is_update_;  // per output
  bool in_place_updates_;
  std::vector<DenseTensor> feeds(const std::vector<Tensor>& inputs) const;
  std::vector<Tensor> results(std::vector<DenseTensor> out) const;
};

class StaticFunction {
 public:
  /// Without specs, each new input signature (exact dims) is captured on its own.
  StaticFunction(Function fn, std::vector<InputSpec> specs = {},
                 executor::ExecutorOptions options = {});

  /// Thread-safe: the cache lookup and a capture run under a lock, the program outside it.
  std::vector<Tensor> operator()(const std::vector<Tensor>& inputs);

  int num_captures() const {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int>(entries_.size());
  }
  /// The program captured for the most recent call.
  const CapturedProgram& last_program() const;
  const executor::Executor& last_executor() const;

 private:
  struct Entry {
    std::vector<InputSpec> specs;
    std::unique_ptr<CompiledProgram> compiled;
  };
  Function fn_;
  std::vector<InputSpec> specs_;
  executor::ExecutorOptions options_;
  mutable std::mutex mu_;                      // guards entries_
  std::vector<std::unique_ptr<Entry>> entries_;  // never removed: an Entry* stays valid
  std::atomic<Entry*> last_{nullptr};
};

/// paddle.jit.to_static over a C++ callable.
inline StaticFunction to_static(Function fn, std::vector<InputSpec> specs = {},
                                executor::ExecutorOptions options = {}) {
  return StaticFunction(std::move(fn), std::move(specs), options);
}

}  // namespace skiff::jit
