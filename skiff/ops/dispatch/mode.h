// The dispatch mode stack: every call of the Tensor op API (`skiff::add`, generated from the op
// records) enters here once and passes through an ordered stack of modes, outermost first:
//
//   capture -> amp -> distributed -> autograd -> profile -> kernel
//
// Each mode sees the op (id, schema, name) and its arguments, typed or boxed on demand, and
// either handles the call or passes it down (`next(call)`), possibly after replacing the kernel
// at the bottom (capture appends an IR op instead of running one). Autograd and kernel are always
// on the stack; the others are enabled per thread (capture) or process-wide (a profiler).
//
// A new mode is a subclass of Mode, enabled at run time; it changes no generated text. With no
// mode enabled beyond autograd, a call costs one thread-local load and one relaxed atomic load
// more than the typed autograd + kernel code it runs (dispatch::call in call.h): no boxing.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/ops/op_schema.h"

namespace skiff::dispatch {

using TensorLists = std::vector<std::vector<Tensor>>;
using Attrs = std::map<std::string, ops::AttrValue>;

/// Where a mode sits on the stack (smaller is outer). Values between them are free for new
/// modes (a device plugin just above kernel, a functionalization pass between capture and amp).
namespace order {
inline constexpr int kCapture = 100;
inline constexpr int kAmp = 200;
inline constexpr int kDistributed = 300;
inline constexpr int kAutograd = 400;
inline constexpr int kProfile = 500;
inline constexpr int kKernel = 1000;
}  // namespace order

class OpCall;
class Next;

/// The per-op steps the generator emits (one static table per op and variant): the typed kernel
/// and autograd steps, and boxing of arguments and results for modes that want lists.
struct OpSteps {
  const char* name;  // the API name: "add", "add_", "fused_adamw_"
  ops::OpId id;      // the record's id (an in-place variant shares its op's)
  bool inplace;      // writes some inputs (InplaceInfo of `id` names them)
  void (*kernel)(OpCall& call);
  void (*autograd)(OpCall& call, const Next& next);
  void (*box_inputs)(const OpCall& call, TensorLists& out);
  void (*box_attrs)(const OpCall& call, Attrs& out);
  void (*box_outputs)(const OpCall& call, TensorLists& out);
  void (*unbox_outputs)(OpCall& call, TensorLists&& outs);
  /// The caller's own handle of element `i` of tensor argument `k` (a mode that rebinds what
  /// an in-place call wrote, as capture does, must write to it rather than to a boxed copy).
  const Tensor& (*input_handle)(const OpCall& call, size_t k, size_t i);
};

/// One op call on its way down the stack. Arguments stay typed (a pointer to the generated
/// argument struct); inputs() and attrs() box them the first time a mode asks.
class OpCall {
 public:
  OpCall(const OpSteps& steps, const void* args, void* result)
      : steps_(&steps), args_(args), result_(result) {}
  OpCall(const OpCall&) = delete;
  OpCall& operator=(const OpCall&) = delete;

  ops::OpId id() const { return steps_->id; }
  std::string_view name() const { return steps_->name; }
  bool inplace() const { return steps_->inplace; }
  const ops::OpSchema& schema() const { return ops::op_schema(steps_->id); }
  const OpSteps& steps() const { return *steps_; }

  /// Tensors per tensor argument, in record order (one for Tensor, zero or one for Tensor?).
  const TensorLists& inputs() const;
  /// Attributes by name (every non-tensor argument).
  const Attrs& attrs() const;
  /// The caller's handle behind inputs()[k][i].
  const Tensor& input_handle(size_t k, size_t i) const { return steps_->input_handle(*this, k, i); }

  /// For a mode that handles the call itself: the results per output of the record.
  void set_outputs(TensorLists&& outs);
  bool has_outputs() const { return done_; }
  /// The results (boxed) once a lower mode or the kernel produced them.
  TensorLists outputs() const;

  /// Replaces the kernel at the bottom of the stack for this call: `fn(call, ctx)` must
  /// set_outputs. Modes between still run (autograd records what the replacement returns).
  using KernelFn = void (*)(OpCall& call, void* ctx);
  void replace_kernel(KernelFn fn, void* ctx) {
    kernel_fn_ = fn;
    kernel_ctx_ = ctx;
  }
  bool kernel_replaced() const { return kernel_fn_ != nullptr; }

  // For the generated steps.
  const void* typed_args() const { return args_; }
  void* typed_result() { return result_; }
  void mark_done() { done_ = true; }
  void run_kernel();

 private:
  const OpSteps* steps_;
  const void* args_;
  void* result_;
  bool done_ = false;
  KernelFn kernel_fn_ = nullptr;
  void* kernel_ctx_ = nullptr;
  mutable std::optional<TensorLists> inputs_;
  mutable std::optional<Attrs> attrs_;
};

class Mode;

/// The modes below the current one; calling it passes the call down.
class Next {
 public:
  Next(Mode* const* modes, size_t size, size_t index) : modes_(modes), size_(size), index_(index) {}
  void operator()(OpCall& call) const;

 private:
  Mode* const* modes_;
  size_t size_;
  size_t index_;
};

/// A dispatch mode. handle() either produces the call's outputs itself (call.set_outputs) or
/// passes it down with next(call); it may do work before and after.
class Mode {
 public:
  virtual ~Mode() = default;
  virtual std::string_view name() const = 0;
  /// Position on the stack (dispatch::order): fixed for the mode's lifetime.
  virtual int order() const = 0;
  virtual void handle(OpCall& call, const Next& next) = 0;
};

/// Enables `mode` on this thread (capture: a CaptureScope's thread). Enabling it twice or more
/// than 8 thread modes is an error; disable() of a mode that is not enabled does nothing.
void enable_on_thread(Mode& mode);
void disable_on_thread(Mode& mode);
bool enabled_on_thread(const Mode& mode);

/// Enables `mode` on every thread (a profiler). The mode must outlive every call that may see
/// it (make it a static object): a call on another thread may still be inside it right after
/// disable_everywhere returns.
void enable_everywhere(Mode& mode);
void disable_everywhere(Mode& mode);

/// While alive, `mode` is disabled on this thread and re-enabled after if it was on.
class ThreadModeSuspension {
 public:
  explicit ThreadModeSuspension(Mode& mode);
  ~ThreadModeSuspension();
  ThreadModeSuspension(const ThreadModeSuspension&) = delete;
  ThreadModeSuspension& operator=(const ThreadModeSuspension&) = delete;

 private:
  Mode& mode_;
  bool was_enabled_;
};

/// The modes a call on this thread passes through now, outermost first (autograd and kernel
/// included): for tests and error messages.
std::vector<std::string> active_modes();

namespace detail {
// Trivial (zero-initialized) so that reading it from another file needs no TLS wrapper call.
struct ThreadModes {
  uint32_t size;
  Mode* modes[8];
};
extern thread_local ThreadModes t_modes;
extern std::atomic<uint32_t> g_everywhere;
/// Walks the whole stack (thread and process-wide modes, autograd, kernel) for `call`.
void run(OpCall& call);
/// Errors unless `outs` has one entry per output of `op`, one tensor for each non-list output.
void check_outputs(const OpCall& call, const TensorLists& outs,
                   std::initializer_list<bool> is_list);
}  // namespace detail

/// True when some mode besides autograd and kernel must see calls on this thread.
inline bool intercepted() {
  return detail::t_modes.size != 0 || detail::g_everywhere.load(std::memory_order_relaxed) != 0;
}

}  // namespace skiff::dispatch
