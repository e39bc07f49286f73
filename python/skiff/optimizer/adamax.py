"""Adamax (Paddle's paddle.optimizer.Adamax), Paddle's placement of epsilon (inside the max, not
added to |g| as torch does):
  moment = beta1 * moment + (1 - beta1) * g
  inf_norm = max(beta2 * inf_norm + epsilon, |g|)
  param -= lr / (1 - beta1_pow) * moment / inf_norm;  beta1_pow *= beta1"""
from ..nn.functional._common_ops import ops as _ops
from ._elementwise import (ElementwiseOptimizer, as_float, check_betas, check_learning_rate,
                           write)

__all__ = ["Adamax"]


class Adamax(ElementwiseOptimizer):
    """Accumulators `<param>_moment_0`, `<param>_inf_norm_0` and the [1]-shaped
    `<param>_beta1_pow_acc_0` (starting at beta1, so it holds beta1^t during step t)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        learning_rate = check_learning_rate("Adamax", learning_rate)
        self._set_group_defaults(**check_betas("Adamax", beta1, beta2, epsilon))
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _update(self, group, param, p, g, lr):
        b1 = as_float("Adamax", "beta1", group["beta1"])
        b2 = as_float("Adamax", "beta2", group["beta2"])
        moment = self._add_accumulator("moment", param)
        inf_norm = self._add_accumulator("inf_norm", param)
        beta1_pow = self._add_accumulator("beta1_pow_acc", param, b1, shape=[1])
        m = moment * b1 + g * (1.0 - b1)
        u = _ops.maximum(inf_norm * b2 + as_float("Adamax", "epsilon", group["epsilon"]),
                         _ops.abs(g))
        write(moment, m)
        write(inf_norm, u)
        step = lr / (1.0 - beta1_pow)
        write(beta1_pow, beta1_pow * b1)
        return p - step * (m / u)
