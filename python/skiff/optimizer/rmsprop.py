"""RMSProp (Paddle's paddle.optimizer.RMSProp). Paddle's formula, not torch's: epsilon is inside
the square root and the learning rate is inside the momentum buffer:
  mean_square = rho * mean_square + (1 - rho) * g^2
  centered:  mean_grad = rho * mean_grad + (1 - rho) * g;  denom = sqrt(mean_square - mean_grad^2
             + epsilon), else denom = sqrt(mean_square + epsilon)
  momentum = momentum_coeff * momentum + lr * g / denom;  param -= momentum"""
from .. import _errors
from ..nn.functional._common_ops import ops as _ops
from ._elementwise import ElementwiseOptimizer, check_learning_rate, check_range, write

__all__ = ["RMSProp"]


class RMSProp(ElementwiseOptimizer):
    """Accumulators `<param>_momentum_0`, `_mean_square_0`, `_mean_grad_0` (all three, as
    Paddle creates them whether or not centered)."""

    def __init__(self, learning_rate, rho=0.95, epsilon=1.0e-6, momentum=0.0, centered=False,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        learning_rate = check_learning_rate("RMSProp", learning_rate)
        for arg, value in (("rho", rho), ("epsilon", epsilon), ("momentum", momentum)):
            if value is None:
                raise _errors.InvalidArgument(f"RMSProp: {arg} is not set")
        self._set_group_defaults(rho=check_range("RMSProp", "rho", rho, low=0.0),
                                 epsilon=check_range("RMSProp", "epsilon", epsilon, low=0.0),
                                 momentum=check_range("RMSProp", "momentum", momentum, low=0.0),
                                 centered=bool(centered))
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _update(self, group, param, p, g, lr):
        rho, eps = float(group["rho"]), float(group["epsilon"])
        momentum = self._add_accumulator("momentum", param)
        mean_square = self._add_accumulator("mean_square", param)
        mean_grad = self._add_accumulator("mean_grad", param)
        ms = mean_square * rho + g * g * (1.0 - rho)
        write(mean_square, ms)
        if group["centered"]:
            mg = mean_grad * rho + g * (1.0 - rho)
            write(mean_grad, mg)
            denom = _ops.sqrt(ms - mg * mg + eps)
        else:
            denom = _ops.sqrt(ms + eps)
        mom = momentum * float(group["momentum"]) + lr * g / denom
        write(momentum, mom)
        return p - mom
