// How autograd handles a tensor kind the runtime does not know (a DistTensor lives in
// skiff/dist, above the runtime): the owning library installs functions once, for detach and
// for the gradient a leaf of that kind keeps.
#pragma once

#include "skiff/core/tensor.h"

namespace skiff::autograd {

using DetachFn = Tensor (*)(const Tensor& t);
/// Installs `fn` for tensors of `kind` (TensorKind::kDist only for now).
void set_detach_for_kind(TensorKind kind, DetachFn fn);

/// The gradient a leaf of the kind keeps, made from the gradient backward brings (a DistTensor
/// leaf's grad carries the leaf's placements: Partial gradients are reduced).
using LeafGradFn = Tensor (*)(const Tensor& leaf, const Tensor& grad);
/// Installs `fn` for leaves of `kind` (TensorKind::kDist only for now).
void set_leaf_grad_for_kind(TensorKind kind, LeafGradFn fn);
/// `grad` as the leaf keeps it (unchanged for kinds without a function).
Tensor leaf_grad(const Tensor& leaf, const Tensor& grad);

}  // namespace skiff::autograd
