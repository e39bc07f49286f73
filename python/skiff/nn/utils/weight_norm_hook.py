"""Paddle's paddle.nn.utils.weight_norm / remove_weight_norm: w = g * v / ||v||.

The parameter `name` is replaced by `name_g` (the norms, one per slice along `dim`, or one for
the whole tensor when dim is None) and `name_v` (the direction); a forward pre-hook recomputes
the plain attribute `name` from them before every call, so gradients reach g and v. Norms
are Paddle's: sqrt(sum v^2 + 1e-12) per slice, ||v|| + 1e-12 for the whole tensor."""
from ... import _C
from ._reparam_checks import reparametrized_parameter

__all__ = ["weight_norm", "remove_weight_norm"]

_ops = _C.ops


def _move_front(x, dim):
    """x with axis `dim` first, and the permutation that undoes it (its own inverse)."""
    perm = list(range(len(x.shape)))
    perm[0], perm[dim] = dim, 0
    return _ops.transpose(x, perm), perm


def _slice_norms(p, dim):
    """The norm of each slice of p along `dim` ([shape[dim]]), or of all of p (dim -1: 0-D)."""
    if dim == -1:
        return _ops.sqrt(_ops.scale(_ops.sum(_ops.square(p), [], None, False), 1.0, 1e-12, True))
    front, _ = _move_front(p, dim) if dim else (p, None)
    mat = _ops.reshape(front, [front.shape[0], -1])
    return _ops.sqrt(_ops.scale(_ops.sum(_ops.square(mat), [1], None, False), 1.0, 1e-12, True))


def _weight_norm(v, g, dim):
    if dim == -1:
        norm = _ops.scale(_ops.sqrt(_ops.sum(_ops.square(v), [], None, False)), 1.0, 1e-12, True)
        return _ops.multiply(_ops.divide(v, norm), g)
    shape = [1] * len(v.shape)
    shape[dim] = v.shape[dim]
    scale = _ops.divide(g, _slice_norms(v, dim))
    return _ops.multiply(v, _ops.reshape(scale, shape))


class WeightNorm:
    def __init__(self, name, dim):
        self.name = name
        self.dim = dim

    def compute_weight(self, layer):
        return _weight_norm(getattr(layer, self.name + "_v"), getattr(layer, self.name + "_g"),
                            self.dim)

    @staticmethod
    def apply(layer, name, dim):
        from ...tensor.creation import assign
        from ...autograd import no_grad
        w = reparametrized_parameter(layer, name, WeightNorm, "weight_norm")
        rank = len(w.shape)
        if dim is None:
            dim = -1
        if not -rank <= dim < rank:
            raise ValueError(f"(InvalidArgument) weight_norm: argument 'dim' expected a value in "
                             f"[{-rank}, {rank}) or None, got {dim}")
        if dim != -1:
            dim %= rank
        fn = WeightNorm(name, dim)
        del layer._parameters[name]
        with no_grad():
            g_value = _slice_norms(w, dim)
        v = layer.create_parameter(list(w.shape), dtype=w.dtype)
        g = layer.create_parameter(list(g_value.shape), dtype=w.dtype)
        layer.add_parameter(name + "_v", v)
        layer.add_parameter(name + "_g", g)
        with no_grad():
            assign(w, v)
            assign(g_value, g)
        object.__setattr__(layer, name, fn.compute_weight(layer))
        layer.register_forward_pre_hook(fn)
        return fn

    def remove(self, layer):
        from ...tensor.creation import assign
        from ...autograd import no_grad
        with no_grad():
            w_value = self.compute_weight(layer)
        object.__delattr__(layer, self.name)
        del layer._parameters[self.name + "_g"]
        del layer._parameters[self.name + "_v"]
        w = layer.create_parameter(list(w_value.shape), dtype=w_value.dtype)
        layer.add_parameter(self.name, w)
        with no_grad():
            assign(w_value, w)

    def __call__(self, layer, inputs):
        object.__setattr__(layer, self.name, self.compute_weight(layer))


def weight_norm(layer, name="weight", dim=0):
    """Reparameterises layer.<name> as g * v / ||v|| (norms over all axes but `dim`)."""
    WeightNorm.apply(layer, name, dim)
    return layer


def remove_weight_norm(layer, name="weight"):
    """Folds g and v back into one parameter `name`."""
    for key, hook in layer._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(layer)
            del layer._forward_pre_hooks[key]
            return layer
    raise ValueError(f"(NotFound) remove_weight_norm: weight_norm of {name!r} not found in "
                     f"{type(layer).__name__}")
