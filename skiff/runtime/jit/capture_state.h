// The capture state of a thread: while a CaptureScope is active on it, the capture dispatch mode
// (capture_mode.cc) is enabled there, so every op call appends an IR op instead of running a
// kernel.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/ops/op_schema.h"

namespace skiff::jit {

class CaptureScope;
namespace detail {
extern thread_local CaptureScope* t_capture;
/// Sets this thread's capture and enables the capture dispatch mode while there is one.
void set_capture(CaptureScope* scope);
}

inline bool capturing() { return detail::t_capture != nullptr; }

/// While alive, ops on this thread run eagerly: the capture is set aside and restored after
/// (state that must outlive the program, such as optimizer moments created during a captured
/// training step, is made this way).
class CaptureSuspension {
 public:
  CaptureSuspension() : saved_(detail::t_capture) { detail::set_capture(nullptr); }
  ~CaptureSuspension() { detail::set_capture(saved_); }
  CaptureSuspension(const CaptureSuspension&) = delete;
  CaptureSuspension& operator=(const CaptureSuspension&) = delete;

 private:
  CaptureScope* saved_;
};

/// Appends op `name` to the program being captured. Inputs per tensor argument (as call_op);
/// symbolic inputs are its values, dense ones become parameters of the program. Returns symbolic
/// tensors per output.
std::vector<std::vector<Tensor>> capture_op(std::string_view name,
                                            const std::vector<std::vector<Tensor>>& inputs,
                                            const std::map<std::string, ops::AttrValue>& attrs);

/// An in-place op inside a capture (`x.add_(y)`, a fused optimizer update) is captured as its
/// functional form; this makes `target` stand for the new `value` from here on. A symbolic
/// target's handle is rebound to `value` (handles copied earlier keep the old value, as saved
/// tensors must); a dense target (a parameter, an optimizer moment) reads `value` for the rest
/// of the capture and is overwritten with it after each run of the program. `op`/`arg` name the
/// call in errors (a result that cannot be stored in the target).
void rebind_inplace(const char* op, const char* arg, const Tensor& target, const Tensor& value);
void rebind_inplace(const char* op, const char* arg, const std::vector<Tensor>& targets,
                    const std::vector<Tensor>& values);

/// Static autodiff with sizes known only at run time (a None batch dim): while capturing, the
/// autograd recorder remembers the symbolic outputs of a grad node that have a dynamic dim, so
/// the engine can fill an output gradient nothing reached with zeros of the output's run-time
/// shape (zeros_like) rather than of a static shape. `node` keys the table; `owner` (the node's
/// shared_ptr) guards against a reused address.
void remember_outputs(const std::shared_ptr<const void>& owner,
                      const std::vector<Tensor*>& outputs);
/// Output `i` of the grad node at `node`, remembered above; undefined when none was.
Tensor remembered_output(const void* node, size_t i);

}  // namespace skiff::jit
