"""SpectralNorm (Paddle's paddle.nn.SpectralNorm): forward(weight) = weight / sigma(weight).

As Paddle's spectral_norm kernel: the weight viewed as [h, w] with axis `dim` first; starting
from the parameters weight_u [h] and weight_v [w] (Normal(0, 1), never trained nor updated),
power_iters rounds of v = W^T u / (||W^T u|| + eps), u = W v / (||W v|| + eps); sigma = u^T W v.
u and v are constants for the gradient, which is Paddle's spectral_norm_grad."""
import numpy as np

from ... import _C
from ..initializer.initializer import Normal
from .layers import Layer

__all__ = ["SpectralNorm"]

_ops = _C.ops


def _unit(x, eps):
    norm = _ops.sqrt(_ops.sum(_ops.square(x), [], None, False))
    return _ops.divide(x, _ops.scale(norm, 1.0, float(eps), True))


class SpectralNorm(Layer):
    def __init__(self, weight_shape, dim=0, power_iters=1, epsilon=1e-12, dtype="float32"):
        super().__init__()
        self._weight_shape = [int(s) for s in weight_shape]
        if int(np.prod(self._weight_shape)) <= 0:
            raise ValueError(f"(InvalidArgument) SpectralNorm: argument 'weight_shape' expected "
                             f"positive dims, got {self._weight_shape}")
        rank = len(self._weight_shape)
        if not 0 <= dim < rank:
            raise ValueError(f"(InvalidArgument) SpectralNorm: argument 'dim' expected a value in "
                             f"[0, {rank}), got {dim}")
        if power_iters < 0:
            raise ValueError(f"(InvalidArgument) SpectralNorm: argument 'power_iters' expected a "
                             f"value >= 0, got {power_iters}")
        self._dim, self._power_iters, self._epsilon = dim, power_iters, epsilon
        h = self._weight_shape[dim]
        w = int(np.prod(self._weight_shape)) // h
        self.weight_u = self.create_parameter([h], dtype=dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter([w], dtype=dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_v.stop_gradient = True

    def forward(self, weight):
        if list(weight.shape) != self._weight_shape:
            raise ValueError(f"(InvalidArgument) SpectralNorm: argument 'weight' expected shape "
                             f"{self._weight_shape}, got {list(weight.shape)}")
        mat = weight
        if self._dim != 0:
            rank = len(self._weight_shape)
            mat = _ops.transpose(mat, [self._dim] + [d for d in range(rank) if d != self._dim])
        mat = _ops.reshape(mat, [mat.shape[0], -1])
        const = mat.detach()
        u, v = self.weight_u.detach(), self.weight_v.detach()
        for _ in range(self._power_iters):
            v = _unit(_ops.matmul(const, u, True, False), self._epsilon)
            u = _unit(_ops.matmul(const, v, False, False), self._epsilon)
        sigma = _ops.sum(_ops.multiply(u, _ops.matmul(mat, v, False, False)), [], None, False)
        return _ops.divide(weight, sigma)

    def extra_repr(self):
        return (f"weight_shape={self._weight_shape}, dim={self._dim}, "
                f"power_iters={self._power_iters}")
