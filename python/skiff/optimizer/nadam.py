"""NAdam (Paddle's paddle.optimizer.NAdam), Adam with Nesterov momentum:
  mu_t = beta1 (1 - 0.5 * 0.96^(t * momentum_decay)),  mu_{t+1} likewise
  mu_product *= mu_t
  m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2
  param -= lr * (mu_{t+1} m / (1 - mu_product mu_{t+1}) + (1 - mu_t) g / (1 - mu_product))
               / (sqrt(v / (1 - beta2^t)) + epsilon)
The powers are tensors (0.96^t kept as momentum_decay_pow), as Paddle's accumulators."""
from ..nn.functional._common_ops import ops as _ops
from ._elementwise import (ElementwiseOptimizer, as_float, check_betas, check_learning_rate,
                           check_range, write)

__all__ = ["NAdam"]

_DECAY_BASE = 0.96


class NAdam(ElementwiseOptimizer):
    """Accumulators `<param>_momentum_decay_pow_0`, `_beta2_pow_0`, `_mu_product_0` (param-shaped,
    starting at 1, as Paddle's), `_moment1_0`, `_moment2_0`."""

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, epsilon=1.0e-8,
                 momentum_decay=0.004, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        learning_rate = check_learning_rate("NAdam", learning_rate)
        self._set_group_defaults(
            **check_betas("NAdam", beta1, beta2, epsilon),
            momentum_decay=check_range("NAdam", "momentum_decay", momentum_decay, low=0.0))
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _update(self, group, param, p, g, lr):
        b1 = as_float("NAdam", "beta1", group["beta1"])
        b2 = as_float("NAdam", "beta2", group["beta2"])
        eps = as_float("NAdam", "epsilon", group["epsilon"])
        psi = float(group["momentum_decay"])
        decay_pow = self._add_accumulator("momentum_decay_pow", param, 1.0)
        beta2_pow = self._add_accumulator("beta2_pow", param, 1.0)
        mu_product = self._add_accumulator("mu_product", param, 1.0)
        moment1 = self._add_accumulator("moment1", param)
        moment2 = self._add_accumulator("moment2", param)
        decay_pow_t = decay_pow * _DECAY_BASE
        mu_t = (1.0 - _ops.pow(decay_pow_t, psi) * 0.5) * b1
        mu_next = (1.0 - _ops.pow(decay_pow_t * _DECAY_BASE, psi) * 0.5) * b1
        mu_prod_t = mu_product * mu_t
        beta2_pow_t = beta2_pow * b2
        m = moment1 * b1 + g * (1.0 - b1)
        v = moment2 * b2 + g * g * (1.0 - b2)
        for acc, value in ((decay_pow, decay_pow_t), (beta2_pow, beta2_pow_t),
                           (mu_product, mu_prod_t), (moment1, m), (moment2, v)):
            write(acc, value)
        m_hat = mu_next * m / (1.0 - mu_prod_t * mu_next) + (1.0 - mu_t) * g / (1.0 - mu_prod_t)
        return p - lr * m_hat / (_ops.sqrt(v / (1.0 - beta2_pow_t)) + eps)
