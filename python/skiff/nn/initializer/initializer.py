"""Parameter initializers (Paddle's paddle.nn.initializer).

An initializer is called on a parameter (`init(param)`) and fills it in place; create_parameter
instead asks it for a fresh value (`init._value(shape, dtype)`), which avoids writing twice.
Random initializers draw from the device generator, so skiff.seed makes them repeatable."""
import math

import numpy as np

__all__ = ["Initializer", "Constant", "Normal", "TruncatedNormal", "Uniform", "XavierNormal",
           "XavierUniform", "KaimingNormal", "KaimingUniform", "Assign", "Orthogonal", "Dirac",
           "calculate_gain", "set_global_initializer"]


def _ops():
    from ... import _C
    return _C.ops


def _compute_fans(shape):
    """Paddle's fans: [in, out] for 2-D weights (Linear is [in, out]); conv [out, in, k...]."""
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[2:]))
    return shape[1] * receptive, shape[0] * receptive


def calculate_gain(nonlinearity, param=None):
    """Paddle's recommended gains for nonlinearities."""
    if param is None:
        param = 0.01
    elif not isinstance(param, (bool, int, float)):
        raise TypeError(f"calculate_gain: argument 'param' expected a number, got "
                        f"{type(param).__name__}")
    gains = {"sigmoid": 1, "linear": 1, "conv1d": 1, "conv2d": 1, "conv3d": 1,
             "conv1d_transpose": 1, "conv2d_transpose": 1, "conv3d_transpose": 1,
             "tanh": 5.0 / 3, "relu": math.sqrt(2.0),
             "leaky_relu": math.sqrt(2.0 / (1 + param ** 2)), "selu": 3.0 / 4}
    if nonlinearity not in gains:
        raise ValueError(f"calculate_gain: nonlinearity {nonlinearity!r} is not supported "
                         f"(one of {sorted(gains)})")
    return gains[nonlinearity]


class Initializer:
    """Base class: subclasses implement _value(shape, dtype) -> Tensor."""

    def __call__(self, param, block=None):
        from .._assign import assign_into
        value = self._value(list(param.shape), param.dtype)
        assign_into(param, value)
        return param

    def _value(self, shape, dtype):
        raise NotImplementedError(f"{type(self).__name__} does not implement _value")

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({fields})"


def _random_dtype(dtype):
    """Random ops run in float32/float64; other float dtypes are cast after."""
    from ... import float32, float64
    return dtype if dtype in (float32, float64) else float32


def _finish(t, dtype):
    return t if t.dtype == dtype else _ops().cast(t, dtype)


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def _value(self, shape, dtype):
        return _ops().full(shape, self.value, dtype)


class Normal(Initializer):
    def __init__(self, mean=0.0, std=1.0, name=None):
        if std < 0:
            raise ValueError(f"Normal: argument 'std' expected >= 0, got {std}")
        self.mean = mean
        self.std = std

    def _value(self, shape, dtype):
        rd = _random_dtype(dtype)
        return _finish(_ops().gaussian(shape, float(self.mean), float(self.std), 0, rd), dtype)


class TruncatedNormal(Initializer):
    """Normal(mean, std) restricted to [mean + a*std, mean + b*std] by redrawing (Paddle's
    defaults a=-2, b=2)."""

    def __init__(self, mean=0.0, std=1.0, a=-2.0, b=2.0, name=None):
        if std < 0:
            raise ValueError(f"TruncatedNormal: argument 'std' expected >= 0, got {std}")
        if a >= b:
            raise ValueError(f"TruncatedNormal: argument 'a' ({a}) must be less than 'b' ({b})")
        self.mean = mean
        self.std = std
        self.a = a
        self.b = b

    def _value(self, shape, dtype):
        ops = _ops()
        rd = _random_dtype(dtype)
        z = ops.gaussian(shape, 0.0, 1.0, 0, rd)
        lo = ops.full([], float(self.a), rd)
        hi = ops.full([], float(self.b), rd)
        for _ in range(12):  # each pass keeps >= 95% (|a|,|b| >= 2 by default)
            bad = ops.logical_or(ops.less_than(z, lo), ops.greater_than(z, hi))
            # Recorded in a static startup program, every pass is taken (no value to test).
            if not z.is_symbolic and not bool(ops.any(bad, [], False)):
                break
            z = ops.where(bad, ops.gaussian(shape, 0.0, 1.0, 0, rd), z)
        z = ops.clip(z, float(self.a), float(self.b))
        return _finish(ops.scale(z, float(self.std), float(self.mean), True), dtype)


class Uniform(Initializer):
    def __init__(self, low=-1.0, high=1.0, name=None):
        if low > high:
            raise ValueError(f"Uniform: argument 'low' ({low}) must be <= 'high' ({high})")
        self.low = low
        self.high = high

    def _value(self, shape, dtype):
        rd = _random_dtype(dtype)
        return _finish(_ops().uniform(shape, rd, float(self.low), float(self.high), 0), dtype)


class XavierNormal(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self.fan_in = fan_in
        self.fan_out = fan_out
        self.gain = gain

    def _value(self, shape, dtype):
        fi, fo = _compute_fans(shape)
        fi = fi if self.fan_in is None else self.fan_in
        fo = fo if self.fan_out is None else self.fan_out
        std = self.gain * math.sqrt(2.0 / float(fi + fo))
        return Normal(0.0, std)._value(shape, dtype)


class XavierUniform(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self.fan_in = fan_in
        self.fan_out = fan_out
        self.gain = gain

    def _value(self, shape, dtype):
        fi, fo = _compute_fans(shape)
        fi = fi if self.fan_in is None else self.fan_in
        fo = fo if self.fan_out is None else self.fan_out
        limit = self.gain * math.sqrt(6.0 / float(fi + fo))
        return Uniform(-limit, limit)._value(shape, dtype)


class KaimingNormal(Initializer):
    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu"):
        self.fan_in = fan_in
        self.negative_slope = negative_slope
        self.nonlinearity = nonlinearity

    def _value(self, shape, dtype):
        fi = _compute_fans(shape)[0] if self.fan_in is None else self.fan_in
        gain = calculate_gain(self.nonlinearity, self.negative_slope)
        return Normal(0.0, gain / math.sqrt(float(fi)))._value(shape, dtype)


class KaimingUniform(Initializer):
    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu"):
        self.fan_in = fan_in
        self.negative_slope = negative_slope
        self.nonlinearity = nonlinearity

    def _value(self, shape, dtype):
        fi = _compute_fans(shape)[0] if self.fan_in is None else self.fan_in
        gain = calculate_gain(self.nonlinearity, self.negative_slope)
        limit = gain * math.sqrt(3.0 / float(fi))
        return Uniform(-limit, limit)._value(shape, dtype)


class Assign(Initializer):
    """Fills with a given value (numpy array, list, number or Tensor) of the parameter's shape."""

    def __init__(self, value, name=None):
        self.value = value

    def _value(self, shape, dtype):
        from ... import Tensor, to_tensor
        v = self.value
        if isinstance(v, Tensor):
            v = v.numpy()
        arr = np.asarray(v)
        if list(arr.shape) != list(shape):
            if arr.size == int(np.prod(shape)) and arr.ndim <= 1 and len(shape) <= 1:
                arr = arr.reshape(shape)
            else:
                raise ValueError(f"Assign: the value of shape {list(arr.shape)} does not match "
                                 f"the parameter shape {list(shape)}")
        return to_tensor(np.ascontiguousarray(arr), dtype=dtype)


class Orthogonal(Initializer):
    def __init__(self, gain=1.0, name=None):
        self.gain = gain

    def _value(self, shape, dtype):
        if len(shape) < 2:
            raise ValueError(f"Orthogonal: the parameter must have rank >= 2, got shape {shape}")
        rows = shape[0]
        cols = int(np.prod(shape[1:]))
        flat = Normal(0.0, 1.0)._value([max(rows, cols), min(rows, cols)], _random_dtype(dtype))
        q, r = np.linalg.qr(flat.numpy().astype(np.float64))
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        from ... import to_tensor
        return to_tensor((self.gain * q).reshape(shape).astype(np.float32), dtype=dtype)


class Dirac(Initializer):
    def __init__(self, groups=1, name=None):
        self.groups = groups

    def _value(self, shape, dtype):
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"Dirac: the parameter must have rank 3, 4 or 5, got shape {shape}")
        arr = np.zeros(shape, np.float32)
        out_per_group = shape[0] // self.groups
        min_dim = min(out_per_group, shape[1])
        centers = [s // 2 for s in shape[2:]]
        for g in range(self.groups):
            for d in range(min_dim):
                arr[(g * out_per_group + d, d) + tuple(centers)] = 1
        from ... import to_tensor
        return to_tensor(arr, dtype=dtype)


_global_weight_initializer = None
_global_bias_initializer = None


def set_global_initializer(weight_init, bias_init=None):
    """Default initializers for parameters created without one (None resets)."""
    global _global_weight_initializer, _global_bias_initializer
    for arg, v in (("weight_init", weight_init), ("bias_init", bias_init)):
        if v is not None and not isinstance(v, Initializer):
            raise TypeError(f"set_global_initializer: argument '{arg}' expected an Initializer or "
                            f"None, got {type(v).__name__}")
    _global_weight_initializer = weight_init
    _global_bias_initializer = bias_init


def global_initializer(is_bias):
    return _global_bias_initializer if is_bias else _global_weight_initializer
