// The one entry of every generated Tensor API function into the mode stack (mode.h):
//   Tensor add(const Tensor& x, const Tensor& y) { return dispatch::call<AddOp>({x, y}); }
// `AddOp` is the struct the generator (tools/gen_ops.py) emits per op and variant:
//   kName, kId, kInplace; using Result (the API's return type); struct Args (the API's
//   parameters, by reference where the API takes references);
//   static Result kernel(const Args&);                       the dense op, typed
//   template <class Run> static Result autograd(const Args&, Run&& run);
//                                      run() runs the rest of the stack; records a grad node
//   static void box_inputs(const Args&, TensorLists&);  box_attrs(const Args&, Attrs&);
//   static void box_outputs(const Result&, TensorLists&);  static Result
//   unbox_outputs(TensorLists&&); static const Tensor& input_handle(const Args&, size_t k, size_t
//   i);
// With no mode but autograd and kernel, call<Op> inlines to the typed autograd step around the
// typed kernel (what the generated code was before the stack); otherwise the whole stack runs.
#pragma once

#include <optional>
#include <utility>

#include "skiff/base/error.h"
#include "skiff/ops/dispatch/mode.h"

namespace skiff::dispatch {

namespace detail {

template <class Op>
struct Steps {
  using Args = typename Op::Args;
  using Result = typename Op::Result;
  using Slot = std::optional<Result>;

  static const Args& args(const OpCall& c) { return *static_cast<const Args*>(c.typed_args()); }
  static Slot& slot(OpCall& c) { return *static_cast<Slot*>(c.typed_result()); }

  static void kernel(OpCall& c) {
    slot(c).emplace(Op::kernel(args(c)));
    c.mark_done();
  }
  static void autograd(OpCall& c, const Next& next) {
    Result r = Op::autograd(args(c), [&]() -> Result {
      next(c);
      SKIFF_ENFORCE(c.has_outputs(), kInternal, Op::kName, "dispatch",
                    "outputs from the modes below autograd", "none");
      return std::move(*slot(c));
    });
    slot(c).emplace(std::move(r));
    c.mark_done();
  }
  static void box_inputs(const OpCall& c, TensorLists& out) { Op::box_inputs(args(c), out); }
  static void box_attrs(const OpCall& c, Attrs& out) { Op::box_attrs(args(c), out); }
  static void box_outputs(const OpCall& c, TensorLists& out) {
    Op::box_outputs(**static_cast<const Slot*>(const_cast<OpCall&>(c).typed_result()), out);
  }
  static void unbox_outputs(OpCall& c, TensorLists&& outs) {
    slot(c).emplace(Op::unbox_outputs(c, std::move(outs)));
    c.mark_done();
  }
  static const Tensor& input_handle(const OpCall& c, size_t k, size_t i) {
    return Op::input_handle(args(c), k, i);
  }

  static constexpr OpSteps kTable{Op::kName,      Op::kId,      Op::kInplace, &kernel,
                                  &autograd,      &box_inputs,  &box_attrs,   &box_outputs,
                                  &unbox_outputs, &input_handle};
};

// Out of line: the stack walk must not bloat the inlined fast path of every op.
template <class Op>
[[gnu::noinline]] typename Op::Result call_modes(const typename Op::Args& args) {
  std::optional<typename Op::Result> result;
  OpCall call(Steps<Op>::kTable, &args, &result);
  run(call);
  return std::move(*result);
}

}  // namespace detail

template <class Op>
inline typename Op::Result call(const typename Op::Args& args) {
  if (!intercepted()) [[likely]]
    return Op::autograd(args, [&] { return Op::kernel(args); });
  return detail::call_modes<Op>(args);
}

}  // namespace skiff::dispatch
