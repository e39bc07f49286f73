"""SGD and Momentum (Paddle's paddle.optimizer.SGD / Momentum) over the fused kernels."""
from ..nn.functional._common_ops import ops as _ops
from .optimizer import Optimizer

__all__ = ["SGD", "Momentum"]


class SGD(Optimizer):
    """param -= lr * (grad + weight_decay * param)."""

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = multi_precision

    def _apply(self, group, entries):
        buckets = self._buckets(entries, lambda e: (self._param_lr(group, e[0]), e[2]))
        for (lr, coeff), items in buckets.items():
            _ops.fused_sgd_([p for p, _, _ in items], [g for _, g, _ in items],
                            self._lr_tensor(lr), coeff)


class Momentum(Optimizer):
    """velocity = momentum * velocity + (grad + weight_decay * param);
    param -= lr * velocity (or lr * (grad + momentum * velocity) with use_nesterov)."""

    _acc_names = ("velocity",)

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False,
                 weight_decay=None, grad_clip=None, multi_precision=False, rescale_grad=1.0,
                 use_multi_tensor=False, name=None):
        if momentum is None:
            raise ValueError("momentum is not set")
        self._momentum = float(momentum)
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = float(rescale_grad)
        self._multi_precision = multi_precision
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _defaults(self):
        d = super()._defaults()
        d.update(momentum=self._momentum, use_nesterov=self._use_nesterov,
                 rescale_grad=self._rescale_grad)
        return d

    def _apply(self, group, entries):
        mu = float(group["momentum"])
        nesterov = bool(group["use_nesterov"])
        rescale = float(group["rescale_grad"])
        buckets = self._buckets(entries, lambda e: (self._param_lr(group, e[0]), e[2]))
        for (lr, coeff), items in buckets.items():
            params = [p for p, _, _ in items]
            grads = [g if rescale == 1.0 else _ops.scale(g, rescale, 0.0, True)
                     for _, g, _ in items]
            vel = [self._add_accumulator("velocity", p) for p in params]
            _ops.fused_momentum_(params, grads, vel, self._lr_tensor(lr), mu, nesterov, coeff)
