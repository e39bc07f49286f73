// Small building blocks VJP rules share, written against the public op API so that they work
// on eager tensors and, later, on captured IR values alike.
#pragma once

#include "skiff/core/tensor.h"

namespace skiff {

/// `grad` summed down to `like`'s shape (undoing numpy broadcasting); `grad` itself when the
/// shapes already match.
Tensor unbroadcast(const Tensor& grad, const Tensor& like);

}  // namespace skiff
