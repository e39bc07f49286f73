// VJP rules of skiff/ops/yaml/math_functions.yaml that do not fit one expression: logit.
// Written against the op API, so they are differentiable themselves.
#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"

namespace skiff {

Tensor logit_grad(const Tensor& grad, const Tensor& x, float eps) {
  // grad / (x (1 - x)) inside [eps, 1 - eps], 0 outside (Paddle's logit_grad)
  const Tensor inside = logical_and(greater_equal(x, full_like(x, Scalar(static_cast<double>(eps)))),
                                    less_equal(x, full_like(x, Scalar(1.0 - eps))));
  const Tensor g = divide(grad, multiply(x, scale(x, Scalar(-1.0), Scalar(1.0))));
  return where(inside, g, zeros_like(g));
}

}  // namespace skiff
