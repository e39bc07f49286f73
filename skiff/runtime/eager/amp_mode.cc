#include "skiff/runtime/eager/amp_mode.h"

#include <utility>

#include "skiff/base/error.h"
#include "skiff/base/str.h"
#include "skiff/ops/dispatch/mode.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/call_op.h"
#include "skiff/runtime/eager/engine.h"

namespace skiff::amp {

namespace {

thread_local AmpState t_state;

bool castable(DType d) {
  return d == DType::kFloat16 || d == DType::kBFloat16 || d == DType::kFloat32;
}

class AmpMode final : public dispatch::Mode {
 public:
  std::string_view name() const override { return "amp"; }
  int order() const override { return dispatch::order::kAmp; }

  void handle(dispatch::OpCall& call, const dispatch::Next& next) override {
    const ops::OpSchema& s = call.schema();
    if (call.inplace() || s.name == "cast" || autograd::running_rules()) return next(call);
    const dispatch::TensorLists& inputs = call.inputs();
    std::vector<DType> floats;
    for (const auto& list : inputs) {
      for (const Tensor& t : list) {
        if (t.defined() && castable(t.dtype())) floats.push_back(t.dtype());
      }
    }
    const DType dest = dest_dtype(t_state, op_class(t_state, s), floats);
    bool differs = false;
    for (DType d : floats) differs = differs || d != dest;
    if (dest == DType::kUndefined || !differs) return next(call);
    // The casts and the op re-enter the stack from the top (capture records them) without AMP.
    dispatch::ThreadModeSuspension off(*this);
    dispatch::TensorLists cast_inputs = inputs;
    for (auto& list : cast_inputs) {
      for (Tensor& t : list) {
        if (t.defined() && castable(t.dtype()) && t.dtype() != dest) t = skiff::cast(t, dest);
      }
    }
    call.set_outputs(call_op(s.name, cast_inputs, call.attrs()));
  }
};

AmpMode g_amp_mode;

}  // namespace

const AmpState& thread_state() { return t_state; }

AmpState set_thread_state(AmpState state) {
  SKIFF_ENFORCE(state.dtype == DType::kFloat16 || state.dtype == DType::kBFloat16,
                kInvalidArgument, "auto_cast", "dtype", "float16 or bfloat16",
                dtype_name(state.dtype));
  for (const std::string& op : state.white) {
    SKIFF_ENFORCE(state.black.count(op) == 0, kInvalidArgument, "auto_cast", "custom_white_list",
                  "no op also in custom_black_list", op);
  }
  AmpState previous = std::exchange(t_state, std::move(state));
  const bool on = t_state.level != Level::kO0;
  if (on && !dispatch::enabled_on_thread(g_amp_mode)) dispatch::enable_on_thread(g_amp_mode);
  if (!on) dispatch::disable_on_thread(g_amp_mode);
  return previous;
}

ops::AmpClass op_class(const AmpState& state, const ops::OpSchema& schema) {
  if (state.white.count(schema.name)) return ops::AmpClass::kWhite;
  if (state.black.count(schema.name)) return ops::AmpClass::kBlack;
  return ops::amp_class(schema.id, state.dtype);
}

DType dest_dtype(const AmpState& state, ops::AmpClass cls, const std::vector<DType>& floats) {
  if (state.level == Level::kO0 || floats.empty()) return DType::kUndefined;
  if (cls == ops::AmpClass::kBlack) return DType::kFloat32;
  if (state.level == Level::kO2 && !state.use_promote) return state.dtype;
  if (cls == ops::AmpClass::kWhite) return state.dtype;
  if (state.level == Level::kOD) return DType::kFloat32;
  for (DType d : floats) {
    if (d == DType::kFloat32) return DType::kFloat32;
  }
  return state.dtype;
}

}  // namespace skiff::amp
