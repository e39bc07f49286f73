"""Activation functions (Paddle's paddle.nn.functional activations)."""

from ._common_ops import ops as _ops

__all__ = ["relu", "relu6", "leaky_relu", "elu", "selu", "celu", "gelu", "silu", "swish",
           "sigmoid", "log_sigmoid", "tanh", "softplus", "softsign", "hardswish", "hardsigmoid",
           "hardtanh", "hardshrink", "softshrink", "mish", "tanhshrink", "softmax", "log_softmax",
           "glu", "prelu", "relu_", "thresholded_relu", "maxout", "elu_", "hardtanh_",
           "leaky_relu_", "softmax_", "tanh_", "thresholded_relu_", "rrelu", "gumbel_softmax"]


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




# In-place forms: x itself is overwritten and returned; autograd sees the op's own rule.
def elu_(x, alpha=1.0, name=None):
    if alpha < 0:
        raise ValueError(f"(InvalidArgument) elu_: argument 'alpha' expected >= 0 (use elu for a "
                         f"negative alpha), got {alpha}")
    return _ops.elu_(x, alpha)


def hardtanh_(x, min=-1.0, max=1.0, name=None):  # noqa: A002 - Paddle's argument names
    return _ops.clip_(x, min, max)


def leaky_relu_(x, negative_slope=0.01, name=None):
    return _ops.leaky_relu_(x, negative_slope)


def tanh_(x, name=None):
    return _ops.tanh_(x)


def thresholded_relu_(x, threshold=1.0, value=0.0, name=None):
    keep = _ops.greater_than(x, _ops.full_like(x, threshold, x.dtype))
    return _ops.where_(keep, x, _ops.full_like(x, value, x.dtype))


def softmax_(x, axis=-1, dtype=None, name=None):
    """softmax written into x. There is no in-place softmax kernel: where_ with an all-false
    condition stores softmax(x) into x, and its rule sends the gradient to softmax's input."""
    x = _cast_for(x, dtype)
    out = _ops.softmax(x, axis)
    return _ops.where_(_ops.zeros_like(x, "bool"), x, out)


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    """Randomized leaky ReLU: negative inputs scaled by a slope drawn from U(lower, upper) per
    element in training, by (lower + upper) / 2 otherwise."""
    if not isinstance(lower, float) or not isinstance(upper, float):
        raise TypeError(f"(InvalidArgument) rrelu: arguments 'lower' and 'upper' expected "
                        f"floats, got {type(lower).__name__} and {type(upper).__name__}")
    if lower < 0 or lower > 1:
        raise ValueError(f"(InvalidArgument) rrelu: argument 'lower' expected a value in [0, 1], "
                         f"got {lower}")
    if upper < lower:
        raise ValueError(f"(InvalidArgument) rrelu: argument 'upper' expected a value >= lower "
                         f"({lower}), got {upper}")
    if upper > 1:
        raise ValueError(f"(InvalidArgument) rrelu: argument 'upper' expected a value <= 1, got "
                         f"{upper}")
    if training:
        slope = _ops.uniform(list(x.shape), x.dtype, lower, upper, 0)
        neg = _ops.multiply(x, slope)
    else:
        neg = _ops.scale(x, (lower + upper) / 2.0, 0.0, True)
    return _ops.where(_ops.greater_equal(x, _ops.zeros_like(x, x.dtype)), x, neg)


def gumbel_softmax(x, temperature=1.0, hard=False, axis=-1, name=None):
    """softmax((x + g) / temperature), g = -log(-log(U(0, 1))) Gumbel noise; hard=True returns
    the one-hot of the argmax with the soft sample's gradient (straight-through)."""
    rank = len(x.shape)
    if temperature <= 0:
        raise ValueError(f"(InvalidArgument) gumbel_softmax: argument 'temperature' expected a "
                         f"value > 0, got {temperature}")
    if not -max(rank, 1) <= axis < max(rank, 1):
        raise ValueError(f"(InvalidArgument) gumbel_softmax: argument 'axis' expected a value "
                         f"in [{-max(rank, 1)}, {max(rank, 1)}), got {axis}")
    tiny = 1e-20 if x.dtype == "float64" else 1e-10
    u = _ops.uniform(list(x.shape), x.dtype, tiny, 1.0, 0)
    g = _ops.neg(_ops.log(_ops.neg(_ops.log(u))))
    y = _ops.softmax(_ops.scale(_ops.add(x, g), 1.0 / temperature, 0.0, True), axis)
    if not hard:
        return y
    ax = axis % max(rank, 1)
    idx = _ops.unsqueeze(_ops.argmax(y, ax, False, False, "int64"), [ax]) if rank else None
    if idx is None:
        return _ops.add(_ops.subtract(_ops.ones_like(y, y.dtype), y.detach()), y)
    hot = _ops.put_along_axis(_ops.zeros_like(y, y.dtype), idx,
                              _ops.ones_like(idx, y.dtype), ax, "assign", True)
    return _ops.add(_ops.subtract(hot, y.detach()), y)
