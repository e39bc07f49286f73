// How autograd handles a tensor kind the runtime does not know (a DistTensor lives in
// skiff/dist, above the runtime): the owning library installs functions once, for detach, for
// the gradient a leaf of that kind keeps and for the version of its data.
#pragma once

#include <cstdint>
#include <optional>

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

/// The version counter of the memory a tensor of the kind holds (a DistTensor's local value).
using DataVersionFn = uint32_t (*)(const Tensor& t);
/// Installs `fn` for tensors of `kind` (TensorKind::kDist only for now).
void set_data_version_for_kind(TensorKind kind, DataVersionFn fn);
/// The storage version of a dense tensor, the installed function's answer for other kinds, or
/// nullopt (an undefined tensor, a kind without a function).
std::optional<uint32_t> data_version(const Tensor& t);

}  // namespace skiff::autograd
