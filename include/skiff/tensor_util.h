// Tensor helpers for C++ programs: host data in and out (paddle.to_tensor, Tensor.numpy) and
// gradient access for training loops (Tensor.grad).
#pragma once

#include <vector>

#include "skiff/core/tensor.h"

namespace skiff {

/// A new CPU tensor of `shape` holding `values` (float, double, int32_t, int64_t, uint8_t).
template <typename T>
Tensor to_tensor(const std::vector<T>& values, const std::vector<int64_t>& shape);
/// The elements of a tensor of dtype T in row-major order (copied to the host).
template <typename T>
std::vector<T> to_vector(const Tensor& t);

/// The accumulated gradient of `t`; undefined if none.
Tensor grad_of(const Tensor& t);
/// Replaces the gradient of `t` (an undefined tensor clears it).
void set_grad(const Tensor& t, Tensor g);
/// Copies `src` into `dst`'s elements in place (cast to dst's dtype; dims must match) and bumps
/// dst's version; no autograd history.
void copy_into(const Tensor& dst, const Tensor& src);

}  // namespace skiff
