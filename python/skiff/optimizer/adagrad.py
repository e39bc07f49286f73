"""Adagrad (Paddle's paddle.optimizer.Adagrad):
moment += g^2; param -= lr * g / (sqrt(moment) + epsilon)."""
from ..nn.functional._common_ops import ops as _ops
from ._elementwise import ElementwiseOptimizer, check_learning_rate, check_range, write

__all__ = ["Adagrad"]


class Adagrad(ElementwiseOptimizer):
    """Accumulator `<param>_moment_0`, starting at initial_accumulator_value."""

    def __init__(self, learning_rate, epsilon=1.0e-6, parameters=None, weight_decay=None,
                 grad_clip=None, name=None, initial_accumulator_value=0.0,
                 multi_precision=False):
        learning_rate = check_learning_rate("Adagrad", learning_rate)
        self._epsilon = check_range("Adagrad", "epsilon", epsilon, low=0.0)
        self.initial_accumulator_value = check_range(
            "Adagrad", "initial_accumulator_value", initial_accumulator_value, low=0.0)
        self._multi_precision = bool(multi_precision)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _defaults(self):
        d = super()._defaults()
        d.update(epsilon=self._epsilon, initial_accumulator_value=self.initial_accumulator_value)
        return d

    def _update(self, group, param, p, g, lr):
        moment = self._add_accumulator("moment", param,
                                       float(group["initial_accumulator_value"]))
        moment_out = moment + g * g
        write(moment, moment_out)
        return p - lr * g / (_ops.sqrt(moment_out) + float(group["epsilon"]))
