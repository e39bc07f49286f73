"""What a tensor or a dtype is (Paddle's paddle/tensor/attribute.py and paddle.finfo/iinfo):
is_empty, is_integer, is_floating_point, is_tensor, tolist, and the numeric limits of a dtype.

finfo/iinfo hold Paddle's fields as plain Python numbers; the float limits are numpy's (bfloat16,
which numpy lacks, from its 8-bit exponent and 7-bit mantissa).
"""
import numpy as np

from .. import _C

_T = _C.Tensor
_D = _C.dtype
_INTEGER = (_D.uint8, _D.int8, _D.int16, _D.int32, _D.int64)


def _check_tensor(op, x):
    if not isinstance(x, _T):
        raise TypeError(f"{op}: expected Tensor, but received type of x: {type(x).__name__}")


def is_empty(x, name=None):
    """A 0-D bool tensor: whether x has no elements."""
    _check_tensor("is_empty", x)
    return _C.to_tensor(x.size == 0, dtype="bool")


def is_integer(x):
    """Whether x's dtype is an integer type (uint8, int8, int16, int32, int64; not bool)."""
    _check_tensor("is_integer", x)
    return x.dtype in _INTEGER


def is_floating_point(x):
    _check_tensor("is_floating_point", x)
    return x.dtype.is_floating_point


def is_tensor(x):
    return isinstance(x, _T)


def tolist(x):
    """x's values as nested Python lists (a number for a 0-D tensor)."""
    _check_tensor("tolist", x)
    return np.asarray(x).tolist()


def _dtype_of(op, dtype):
    if isinstance(dtype, _D):
        return dtype
    if isinstance(dtype, str):
        try:
            return getattr(_D, dtype)
        except AttributeError:
            pass
    raise TypeError(f"{op}: argument 'dtype' expected a paddle dtype or its name, got {dtype!r}")


class finfo:  # noqa: N801 (Paddle's name)
    """The numeric limits of a float dtype: bits, eps, min, max, tiny (= smallest_normal),
    resolution (10 ** -precision) and dtype (its name)."""

    def __init__(self, dtype):
        d = _dtype_of("finfo", dtype)
        if not d.is_floating_point:
            raise ValueError(f"finfo: argument 'dtype' expected a floating point dtype, got {d.name}")
        self.dtype = d.name
        if d == _D.bfloat16:
            self.bits, self.eps, self.resolution = 16, 2.0 ** -7, 0.01
            self.max = float((2 - 2.0 ** -7) * 2.0 ** 127)
            self.smallest_normal = self.tiny = 2.0 ** -126
        else:
            info = np.finfo(d.name)
            self.bits = int(info.bits)
            self.eps = float(info.eps)
            self.resolution = 10.0 ** -int(info.precision)
            self.max = float(info.max)
            self.smallest_normal = self.tiny = float(info.tiny)
        self.min = -self.max

    def __repr__(self):
        return (f"paddle.finfo(min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"resolution={self.resolution:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, bits={self.bits}, dtype={self.dtype})")


class iinfo:  # noqa: N801 (Paddle's name)
    """The limits of an integer dtype: bits, min, max and dtype (its name)."""

    def __init__(self, dtype):
        d = _dtype_of("iinfo", dtype)
        if d not in _INTEGER:
            raise ValueError(f"iinfo: argument 'dtype' expected an integer dtype (uint8, int8, "
                             f"int16, int32, int64), got {d.name}")
        info = np.iinfo(d.name)
        self.dtype = d.name
        self.bits, self.min, self.max = int(info.bits), int(info.min), int(info.max)

    def __repr__(self):
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"


__all__ = ["is_empty", "is_integer", "tolist", "finfo", "iinfo"]
_METHODS = ["is_empty", "is_integer", "is_floating_point", "is_tensor"]
