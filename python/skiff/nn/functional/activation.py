"""Activation functions (Paddle's paddle.nn.functional activations)."""

from ._common_ops import ops as _ops

__all__ = ["relu", "relu6", "leaky_relu", "elu", "selu", "celu", "gelu", "silu", "swish",
           "sigmoid", "log_sigmoid", "tanh", "softplus", "softsign", "hardswish", "hardsigmoid",
           "hardtanh", "hardshrink", "softshrink", "mish", "tanhshrink", "softmax", "log_softmax",
           "glu", "prelu", "relu_", "thresholded_relu", "maxout"]


def _cast_for(x, dtype):
    if dtype is None:
        return x
    return _ops.cast(x, dtype)


def relu(x, name=None):
    return _ops.relu(x)


def relu_(x, name=None):
    return _ops.relu_(x)


def relu6(x, name=None):
    return _ops.relu6(x)


def leaky_relu(x, negative_slope=0.01, name=None):
    return _ops.leaky_relu(x, negative_slope)


def elu(x, alpha=1.0, name=None):
    return _ops.elu(x, alpha)


def selu(x, scale=1.0507009873554804934193349852946,
         alpha=1.6732632423543772848170429916717, name=None):
    if scale <= 1.0:
        raise ValueError(f"selu: argument 'scale' expected > 1.0, got {scale}")
    if alpha < 0:
        raise ValueError(f"selu: argument 'alpha' expected >= 0, got {alpha}")
    return _ops.scale(_ops.elu(x, alpha), scale, 0.0, True)


def _inplace_into(x, out, inplace):
    """Paddle's `inplace=True`: the result written into x, which is returned."""
    if not inplace:
        return out
    from ...tensor.creation import assign
    return assign(out, x)


def celu(x, alpha=1.0, inplace=False, name=None):
    if alpha == 0:
        raise ZeroDivisionError("celu: argument 'alpha' must not be 0")
    out = _ops.scale(_ops.elu(_ops.scale(x, 1.0 / alpha, 0.0, True), 1.0), alpha, 0.0, True)
    return _inplace_into(x, out, inplace)


def gelu(x, approximate=False, name=None):
    return _ops.gelu(x, approximate)


def silu(x, inplace=False, name=None):
    if inplace:
        return _ops.silu_(x)
    return _ops.silu(x)


def swish(x, name=None):
    return _ops.silu(x)


def sigmoid(x, name=None):
    return _ops.sigmoid(x)


def log_sigmoid(x, name=None):
    # log(sigmoid(x)) = -softplus(-x), stable for large |x|
    return _ops.neg(_ops.softplus(_ops.neg(x), 1.0, 20.0))


def tanh(x, name=None):
    return _ops.tanh(x)


def softplus(x, beta=1, threshold=20, name=None):
    return _ops.softplus(x, float(beta), float(threshold))


def softsign(x, name=None):
    return _ops.divide(x, _ops.scale(_ops.abs(x), 1.0, 1.0, True))


def hardswish(x, name=None):
    return _ops.hardswish(x)


def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None):
    return _ops.hardsigmoid(x, slope, offset)


def hardtanh(x, min=-1.0, max=1.0, name=None):  # noqa: A002 - Paddle's argument names
    return _ops.clip(x, min, max)


def hardshrink(x, threshold=0.5, name=None):
    keep = _ops.greater_than(_ops.abs(x), _ops.full_like(x, threshold, x.dtype))
    return _ops.where(keep, x, _ops.zeros_like(x, x.dtype))


def softshrink(x, threshold=0.5, name=None):
    if threshold < 0:
        raise ValueError(f"softshrink: argument 'threshold' expected >= 0, got {threshold}")
    shrunk = _ops.subtract(x, _ops.multiply(_ops.sign(x), _ops.full_like(x, threshold, x.dtype)))
    keep = _ops.greater_than(_ops.abs(x), _ops.full_like(x, threshold, x.dtype))
    return _ops.where(keep, shrunk, _ops.zeros_like(x, x.dtype))


def thresholded_relu(x, threshold=1.0, value=0.0, name=None):
    keep = _ops.greater_than(x, _ops.full_like(x, threshold, x.dtype))
    return _ops.where(keep, x, _ops.full_like(x, value, x.dtype))


def mish(x, name=None):
    return _ops.mish(x)


def tanhshrink(x, name=None):
    return _ops.tanhshrink(x)


def softmax(x, axis=-1, dtype=None, name=None):
    return _ops.softmax(_cast_for(x, dtype), axis)


def log_softmax(x, axis=-1, dtype=None, name=None):
    return _ops.log_softmax(_cast_for(x, dtype), axis)


def glu(x, axis=-1, name=None):
    a, b = _ops.chunk(x, 2, axis)
    return _ops.multiply(a, _ops.sigmoid(b))


def prelu(x, weight, data_format="NCHW", name=None):
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError(f"prelu: argument 'data_format' got unknown format {data_format!r}")
    w = weight
    n = weight.shape[0] if weight.shape else 1
    if n > 1 and len(x.shape) > 1:
        shape = [1] * len(x.shape)
        channel_axis = 1 if data_format[1] == "C" else len(x.shape) - 1
        shape[channel_axis] = n
        w = _ops.reshape(weight, shape)
    neg = _ops.multiply(w, x)
    return _ops.where(_ops.greater_than(x, _ops.zeros_like(x, x.dtype)), x, neg)


def maxout(x, groups, axis=1, name=None):
    shape = list(x.shape)
    ax = axis % len(shape)
    c = shape[ax]
    if c % groups != 0:
        raise ValueError(f"maxout: the channel count {c} is not divisible by groups {groups}")
    new_shape = shape[:ax] + [c // groups, groups] + shape[ax + 1:]
    return _ops.max(_ops.reshape(x, new_shape), [ax + 1], False)


