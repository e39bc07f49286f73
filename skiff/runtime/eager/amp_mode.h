// Auto mixed precision as a dispatch mode (skiff/ops/dispatch/mode.h, order kAmp): Paddle's
// paddle.amp.auto_cast, per thread. While a thread's level is not O0, every op call on it passes
// through the AMP mode, which picks the dtype the op's floating inputs run in
// (dest_dtype: Paddle's GetAmpDestDtype of eager/amp_utils.h) and, when some input differs,
// casts them (the `cast` op, so autograd records the casts and gradients flow back in each
// input's own dtype; capture records them as op.cast in the IR) and calls the op again on the
// cast inputs with AMP suspended.
//
// Levels: O1 casts white ops' inputs to the AMP dtype and black ops' to float32; promote ops
// run in float32 when some floating input is float32, else in the AMP dtype. O2 is O1 plus
// decorate()'s low-precision parameters (paddle.amp.decorate), or, with use_promote off,
// everything but black ops in the AMP dtype. OD runs only white ops in the AMP dtype. Only
// float16, bfloat16 and float32 inputs are cast (float64 and integers never); in-place calls
// and the ops of gradient rules (backward runs in the forward's dtypes) are left alone.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/ops/amp_class.h"
#include "skiff/ops/op_schema.h"

namespace skiff::amp {

enum class Level : uint8_t { kO0, kOD, kO1, kO2 };

/// One thread's auto_cast settings.
struct AmpState {
  Level level = Level::kO0;
  DType dtype = DType::kFloat16;  // float16 or bfloat16
  bool use_promote = true;
  std::set<std::string> white;  // custom_white_list: op names run in `dtype`
  std::set<std::string> black;  // custom_black_list: op names run in float32
};

/// This thread's state (level O0 when auto_cast was never entered on it).
const AmpState& thread_state();
/// Installs `state` on this thread (the AMP mode is on the stack unless its level is O0) and
/// returns the previous one. An AMP dtype other than float16/bfloat16, or an op in both custom
/// lists, is an InvalidArgument error.
AmpState set_thread_state(AmpState state);

/// auto_cast for a C++ scope: installs a state and restores the previous one on exit.
class AutoCastGuard {
 public:
  explicit AutoCastGuard(AmpState state) : previous_(set_thread_state(std::move(state))) {}
  ~AutoCastGuard() { set_thread_state(std::move(previous_)); }
  AutoCastGuard(const AutoCastGuard&) = delete;
  AutoCastGuard& operator=(const AutoCastGuard&) = delete;

 private:
  AmpState previous_;
};

/// The class of `schema` under `state`: the record's, overridden by the custom lists.
ops::AmpClass op_class(const AmpState& state, const ops::OpSchema& schema);
/// The dtype the floating inputs of an op of class `cls` run in, given the dtypes of its
/// floating inputs; kUndefined when nothing is to be cast (no floating input, level O0).
DType dest_dtype(const AmpState& state, ops::AmpClass cls, const std::vector<DType>& floats);

}  // namespace skiff::amp
