"""Paddle's paddle.nn.utils.spectral_norm: w = w_orig / sigma(w_orig), sigma estimated by power
iteration on buffers u [h] and v [w] of the weight viewed as an [h, w] matrix (axis `dim`
first). In training each call runs n_power_iterations updates of u and v (no gradient, kept
in the buffers); sigma = u^T W v then differentiates through W only, as Paddle's."""
from ... import _C
from ._reparam_checks import reparametrized_parameter

__all__ = ["spectral_norm"]

_ops = _C.ops


def _normalize(x, eps):
    from ..functional import normalize
    return normalize(x, axis=0, epsilon=eps)


class SpectralNorm:
    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise ValueError(f"(InvalidArgument) spectral_norm: argument 'n_power_iterations' "
                             f"expected a positive int, got {n_power_iterations}")
        self.name, self.n_power_iterations, self.dim, self.eps = (name, n_power_iterations, dim,
                                                                  eps)

    def matrix(self, weight):
        w = weight
        if self.dim != 0:
            rank = len(w.shape)
            w = _ops.transpose(w, [self.dim] + [d for d in range(rank) if d != self.dim])
        return _ops.reshape(w, [w.shape[0], -1])

    def compute_weight(self, layer, do_power_iteration):
        from ...autograd import no_grad
        from ...tensor.creation import assign
        weight = getattr(layer, self.name + "_orig")
        u = getattr(layer, self.name + "_u")
        v = getattr(layer, self.name + "_v")
        mat = self.matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    assign(_normalize(_ops.matmul(mat, u, True, False), self.eps), v)
                    assign(_normalize(_ops.matmul(mat, v, False, False), self.eps), u)
            u, v = _ops.assign(u), _ops.assign(v)
        sigma = _ops.sum(_ops.multiply(u, _ops.matmul(mat, v, False, False)), [], None, False)
        return _ops.divide(weight, sigma)

    def __call__(self, layer, inputs):
        object.__setattr__(layer, self.name,
                           self.compute_weight(layer, do_power_iteration=layer.training))

    @staticmethod
    def apply(layer, name, n_power_iterations, dim, eps):
        from ...autograd import no_grad
        from ... import normal
        weight = reparametrized_parameter(layer, name, SpectralNorm, "spectral_norm")
        rank = len(weight.shape)
        if not -rank <= dim < rank:
            raise ValueError(f"(InvalidArgument) spectral_norm: argument 'dim' expected a value "
                             f"in [{-rank}, {rank}), got {dim}")
        fn = SpectralNorm(name, n_power_iterations, dim % rank, eps)
        with no_grad():
            h, w = fn.matrix(weight).shape
            u = _normalize(normal(0.0, 1.0, [h]).astype(weight.dtype), eps)
            v = _normalize(normal(0.0, 1.0, [w]).astype(weight.dtype), eps)
        del layer._parameters[name]
        layer.add_parameter(name + "_orig", weight)
        object.__setattr__(layer, name, _ops.scale(weight, 1.0, 0.0, True))
        layer.register_buffer(name + "_u", u)
        layer.register_buffer(name + "_v", v)
        layer.register_forward_pre_hook(fn)
        return fn


def spectral_norm(layer, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """dim defaults to 1 for Linear (weight [in, out]) and the transposed convolutions
    (weight [in, out, ...]), else 0."""
    if dim is None:
        from ..layer.common import Linear
        from ..layer.conv3d import Conv3DTranspose
        from ..layer.conv_family import Conv1DTranspose, Conv2DTranspose
        transposed = (Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, Linear)
        dim = 1 if isinstance(layer, transposed) else 0
    SpectralNorm.apply(layer, name, n_power_iterations, dim, eps)
    return layer
