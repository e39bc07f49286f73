"""RAdam (Paddle's paddle.optimizer.RAdam), rectified Adam:
  m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2;  m_hat = m / (1 - beta1^t)
  rho_inf = 2 / (1 - beta2) - 1;  rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)
  rho_t > 5: param -= lr * m_hat * r_t * sqrt(1 - beta2^t) / (sqrt(v) + epsilon),
             r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
  else:      param -= lr * m_hat
t beta2^t / (1 - beta2^t) is Paddle's `rho` accumulator, advanced by its recurrence
rho <- (rho (beta2 - beta2^t) + beta2^t) / (1 - beta2^t). The branch is a `where`, so the update
has no data-dependent Python control flow (it captures under to_static)."""
from ..nn.functional._common_ops import ops as _ops
from ._elementwise import (ElementwiseOptimizer, as_float, check_betas, check_learning_rate,
                           write)

__all__ = ["RAdam"]


class RAdam(ElementwiseOptimizer):
    """Accumulators `<param>_beta1_pow_0`, `_beta2_pow_0`, `_rho_0` (param-shaped, starting at 1
    as Paddle's), `_moment1_0`, `_moment2_0`."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1.0e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        learning_rate = check_learning_rate("RAdam", learning_rate)
        self._set_group_defaults(**check_betas("RAdam", beta1, beta2, epsilon))
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _update(self, group, param, p, g, lr):
        b1 = as_float("RAdam", "beta1", group["beta1"])
        b2 = as_float("RAdam", "beta2", group["beta2"])
        eps = as_float("RAdam", "epsilon", group["epsilon"])
        beta1_pow = self._add_accumulator("beta1_pow", param, 1.0)
        beta2_pow = self._add_accumulator("beta2_pow", param, 1.0)
        rho = self._add_accumulator("rho", param, 1.0)
        moment1 = self._add_accumulator("moment1", param)
        moment2 = self._add_accumulator("moment2", param)
        b1p = beta1_pow * b1
        b2p = beta2_pow * b2
        rho_acc = (rho * (b2 - b2p) + b2p) / (1.0 - b2p)
        m = moment1 * b1 + g * (1.0 - b1)
        v = moment2 * b2 + g * g * (1.0 - b2)
        for acc, value in ((beta1_pow, b1p), (beta2_pow, b2p), (rho, rho_acc), (moment1, m),
                           (moment2, v)):
            write(acc, value)
        m_hat = m / (1.0 - b1p)
        rho_inf = 2.0 / (1.0 - b2) - 1.0
        rho_t = rho_inf - rho_acc * 2.0
        rectified = rho_t > 5.0
        safe_rho = _ops.where(rectified, rho_t, _ops.full_like(rho_t, 5.0))
        r_t = _ops.sqrt((safe_rho - 4.0) * (safe_rho - 2.0) * rho_inf /
                        ((rho_inf - 4.0) * (rho_inf - 2.0) * safe_rho))
        adaptive = _ops.sqrt(1.0 - b2p) / (_ops.sqrt(v) + eps)
        return p - lr * _ops.where(rectified, m_hat * r_t * adaptive, m_hat)
