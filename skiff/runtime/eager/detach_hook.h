// How autograd::detach copies a tensor kind the runtime does not know (a DistTensor lives in
// skiff/dist, above the runtime): the owning library installs a function once.
#pragma once

#include "skiff/core/tensor.h"

namespace skiff::autograd {

using DetachFn = Tensor (*)(const Tensor& t);
/// Installs `fn` for tensors of `kind` (TensorKind::kDist only for now).
void set_detach_for_kind(TensorKind kind, DetachFn fn);

}  // namespace skiff::autograd
