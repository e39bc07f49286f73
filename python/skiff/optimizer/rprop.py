"""Rprop (Paddle's paddle.optimizer.Rprop, for full-batch training): every element keeps its own
learning rate, starting at learning_rate, and the previous gradient:
  g * prev > 0: lr_e = min(lr_e * eta_plus, lr_max)
  g * prev < 0: lr_e = max(lr_e * eta_minus, lr_min), and g counts as 0 (no step, no memory)
  param -= sign(g) * lr_e;  prev = g
(torch.optim.Rprop with step_sizes = learning_rate_range is the same update)."""
from .. import _errors
from ..nn.functional._common_ops import ops as _ops
from ._elementwise import ElementwiseOptimizer, as_float, check_learning_rate, write

__all__ = ["Rprop"]


class Rprop(ElementwiseOptimizer):
    """Accumulators `<param>__prevs_0` (the previous gradient) and `<param>__learning_rates_0`
    (the per-element learning rates)."""

    def __init__(self, learning_rate=0.001, learning_rate_range=(1e-5, 50), parameters=None,
                 etas=(0.5, 1.2), grad_clip=None, multi_precision=False, name=None):
        learning_rate = check_learning_rate("Rprop", learning_rate)
        lo, hi = (as_float("Rprop", "learning_rate_range", v) for v in learning_rate_range)
        eta_minus, eta_plus = (as_float("Rprop", "etas", v) for v in etas)
        if not 0.0 <= lo <= hi:
            raise _errors.InvalidArgument(f"Rprop: 'learning_rate_range' expected 0 <= min <= max, "
                                          f"got {tuple(learning_rate_range)}")
        if not 0.0 < eta_minus < 1.0 < eta_plus:
            raise _errors.InvalidArgument(f"Rprop: 'etas' expected 0 < etas[0] < 1 < etas[1], "
                                          f"got {tuple(etas)}")
        self._set_group_defaults(learning_rate_range=(lo, hi), etas=(eta_minus, eta_plus))
        super().__init__(learning_rate, parameters, None, grad_clip, name)

    def _update(self, group, param, p, g, lr):
        (lo, hi), (eta_minus, eta_plus) = group["learning_rate_range"], group["etas"]
        prev = self._add_accumulator("_prevs", param)
        rates = self._add_accumulator("_learning_rates", param,
                                      fill_value=float(self._param_lr(group, param)))
        sign = _ops.sign(g * prev)
        zero = _ops.zeros_like(g)
        factor = _ops.where(sign > 0, _ops.full_like(g, eta_plus),
                            _ops.where(sign < 0, _ops.full_like(g, eta_minus), _ops.ones_like(g)))
        new_rates = _ops.clip(rates * factor, lo, hi)
        g = _ops.where(sign < 0, zero, g)
        write(rates, new_rates)
        write(prev, g)
        return p - _ops.sign(g) * new_rates
