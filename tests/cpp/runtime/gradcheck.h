// Finite-difference gradient checks in float64: the VJP computed by autograd against central
// differences of the forward function, for first and second order.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "skiff/core/tensor.h"

namespace skiff::testing {

using TensorFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

struct GradcheckOptions {
  double eps = 1e-6;
  double rtol = 1e-4;
  double atol = 1e-6;
};

/// Empty on success, else a message naming the input, element and both values. `inputs` are
/// float64 tensors; those with stop_gradient=false are checked.
std::string gradcheck(const TensorFn& fn, const std::vector<Tensor>& inputs,
                      GradcheckOptions options = {});
/// Checks the gradient of the VJP itself (with create_graph), i.e. second derivatives.
std::string gradgradcheck(const TensorFn& fn, const std::vector<Tensor>& inputs,
                          GradcheckOptions options = {});

/// A float64 CPU tensor from values; `requires_grad` sets stop_gradient=false.
Tensor tensor64(const Dims& dims, const std::vector<double>& values, bool requires_grad = false);
/// `t` as float64 (itself when it already is).
Tensor ops_cast64(const Tensor& t);
std::vector<double> values(const Tensor& t);

}  // namespace skiff::testing
