// Splits a captured program that computes a forward pass and its backward into two programs
// (Paddle's forward/backward program split for to_static training): the forward program runs
// when the static function is called and also outputs the values the backward needs ("saved"
// values, like the tensors an eager grad node saves); the backward program runs when gradients
// arrive and takes the saved values as inputs, so nothing is computed twice.
#pragma once

#include <string>
#include <vector>

#include "skiff/runtime/jit/capture.h"

namespace skiff::jit {

struct SplitProgram {
  /// Inputs: the source's inputs that the forward part reads. Outputs: the forward outputs (in
  /// the order asked for), then `saved0`, `saved1`, ...; it keeps the parameter updates.
  CapturedProgram forward;
  /// Inputs: `saved0`, ..., then the source's remaining inputs (the output gradients) in
  /// program order. Outputs: every other output of the source, in program order.
  CapturedProgram backward;
  size_t num_saved = 0;
};

/// The forward part is what `forward_outputs` and the parameter updates depend on; the backward
/// part is what the other outputs need beyond it (the backward, and forward-independent ops only
/// the backward uses); ops neither needs are dropped. Control-flow ops move as a whole.
SplitProgram split_forward_backward(const CapturedProgram& p,
                                    const std::vector<std::string>& forward_outputs);

}  // namespace skiff::jit
