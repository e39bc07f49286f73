"""Adadelta (Paddle's paddle.optimizer.Adadelta):
  avg_squared_grad = rho * avg_squared_grad + (1 - rho) * g^2
  update = -sqrt((avg_squared_update + epsilon) / (avg_squared_grad + epsilon)) * g
  avg_squared_update = rho * avg_squared_update + (1 - rho) * update^2
  param += lr * update"""
from .. import _errors
from ..nn.functional._common_ops import ops as _ops
from ._elementwise import ElementwiseOptimizer, check_learning_rate, check_range, write

__all__ = ["Adadelta"]


class Adadelta(ElementwiseOptimizer):
    """Accumulators `<param>__avg_squared_grad_0` and `<param>__avg_squared_update_0` (Paddle's
    accumulator names start with an underscore, hence the double one)."""

    def __init__(self, learning_rate=0.001, epsilon=1.0e-6, rho=0.95, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        learning_rate = check_learning_rate("Adadelta", learning_rate)
        if epsilon is None or rho is None:
            raise _errors.InvalidArgument(
                f"Adadelta: {'epsilon' if epsilon is None else 'rho'} is not set")
        self._set_group_defaults(
            epsilon=check_range("Adadelta", "epsilon", epsilon, low=0.0),
            rho=check_range("Adadelta", "rho", rho, low=0.0, high=1.0, high_open=False))
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _update(self, group, param, p, g, lr):
        rho, eps = float(group["rho"]), float(group["epsilon"])
        sq_grad = self._add_accumulator("_avg_squared_grad", param)
        sq_update = self._add_accumulator("_avg_squared_update", param)
        sg = sq_grad * rho + g * g * (1.0 - rho)
        update = -_ops.sqrt((sq_update + eps) / (sg + eps)) * g
        write(sq_grad, sg)
        write(sq_update, sq_update * rho + update * update * (1.0 - rho))
        return p + lr * update
