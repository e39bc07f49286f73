// Pack/unpack hooks for the tensors autograd saves (paddle.autograd.saved_tensors_hooks).
//
// Note [saved tensor hooks]: while hooks are pushed, every SavedTensor made from a dense tensor
// stores pack(t) instead of t, and unpack() returns unpack(packed) (checked to have t's shape and
// dtype). The packed form is a Tensor chosen by the hooks (the Python binding makes a 0-element
// handle that owns the Python object pack_hook returned); SavedTensor keeps its usual layout and
// recognizes a packed form by a registry entry keyed by the handle's storage. Hooks are
// per-thread and nest; a packed tensor saved as an input is unpacked without its autograd history,
// so a double backward that would differentiate through it raises (Unimplemented) instead of
// treating it as a constant.
#pragma once

#include <functional>
#include <memory>

#include "skiff/core/tensor.h"

namespace skiff::autograd {

struct SavedTensorHooks {
  std::function<Tensor(const Tensor&)> pack;
  std::function<Tensor(const Tensor&)> unpack;
};

/// Makes `hooks` the innermost hooks of this thread (until the matching pop).
void push_saved_tensor_hooks(std::shared_ptr<const SavedTensorHooks> hooks);
/// Removes the innermost hooks; throws (PreconditionNotMet) when none are pushed.
void pop_saved_tensor_hooks();
/// The innermost hooks of this thread, or null.
const std::shared_ptr<const SavedTensorHooks>& current_saved_tensor_hooks();

}  // namespace skiff::autograd
