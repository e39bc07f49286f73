"""Lamb (Paddle's paddle.optimizer.Lamb), layer-wise adaptive Adam:
  m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2
  r = (m / (1 - beta1_pow)) / (sqrt(v / (1 - beta2_pow)) + epsilon) + lamb_weight_decay * param
  trust = ||param|| / ||r|| when both norms are > 0, else 1
  param -= lr * trust * r;  beta1_pow *= beta1, beta2_pow *= beta2
The decay is skipped for parameters exclude_from_weight_decay_fn(param) accepts, and so is the
trust ratio (it is 1) for parameters without decay unless always_adapt."""
from ..nn.functional._common_ops import ops as _ops
from ._elementwise import (ElementwiseOptimizer, as_float, check_betas, check_learning_rate,
                           check_range, write)

__all__ = ["Lamb"]


class Lamb(ElementwiseOptimizer):
    """Accumulators `<param>_moment1_0`, `_moment2_0` and the [1]-shaped `_beta1_pow_acc_0`,
    `_beta2_pow_acc_0` (starting at beta1, beta2). Regularization comes only from
    lamb_weight_decay (and a parameter's own ParamAttr regularizer), as in Paddle."""

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999,
                 epsilon=1e-6, parameters=None, grad_clip=None, exclude_from_weight_decay_fn=None,
                 multi_precision=False, always_adapt=False, name=None):
        learning_rate = check_learning_rate("Lamb", learning_rate)
        if exclude_from_weight_decay_fn is not None and not callable(exclude_from_weight_decay_fn):
            from .. import _errors
            raise _errors.InvalidType("Lamb: argument 'exclude_from_weight_decay_fn' expected a "
                                      "callable or None, got "
                                      f"{type(exclude_from_weight_decay_fn).__name__}")
        self._set_group_defaults(
            **check_betas("Lamb", beta1, beta2, epsilon),
            lamb_weight_decay=check_range("Lamb", "lamb_weight_decay", lamb_weight_decay, low=0.0),
            exclude_from_weight_decay_fn=exclude_from_weight_decay_fn,
            always_adapt=bool(always_adapt))
        self._multi_precision = bool(multi_precision)
        super().__init__(learning_rate, parameters, None, grad_clip, name)

    def _update(self, group, param, p, g, lr):
        b1 = as_float("Lamb", "beta1", group["beta1"])
        b2 = as_float("Lamb", "beta2", group["beta2"])
        eps = as_float("Lamb", "epsilon", group["epsilon"])
        decay = float(group["lamb_weight_decay"])
        exclude = group["exclude_from_weight_decay_fn"]
        if exclude is not None and exclude(param):
            decay = 0.0
        moment1 = self._add_accumulator("moment1", param)
        moment2 = self._add_accumulator("moment2", param)
        beta1_pow = self._add_accumulator("beta1_pow_acc", param, b1, shape=[1])
        beta2_pow = self._add_accumulator("beta2_pow_acc", param, b2, shape=[1])
        m = moment1 * b1 + g * (1.0 - b1)
        v = moment2 * b2 + g * g * (1.0 - b2)
        write(moment1, m)
        write(moment2, v)
        r = (m / (1.0 - beta1_pow)) / (_ops.sqrt(v / (1.0 - beta2_pow)) + eps)
        if decay:
            r = r + p * decay
        write(beta1_pow, beta1_pow * b1)
        write(beta2_pow, beta2_pow * b2)
        if not decay and not group["always_adapt"]:
            return p - lr * r
        p_norm = _ops.sqrt((p * p).sum())
        r_norm = _ops.sqrt((r * r).sum())
        ok = (p_norm > 0) & (r_norm > 0)
        one = _ops.full_like(p_norm, 1.0)
        trust = _ops.where(ok, p_norm / _ops.where(ok, r_norm, one), one)
        return p - (lr * trust) * r
