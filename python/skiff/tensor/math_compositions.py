"""Paddle 3.0's elementwise and small tensor-math functions that need no kernel of their own,
as compositions of differentiable ops: logaddexp, nan_to_num(_), deg2rad, rad2deg, inner, fmax,
fmin, hypot(_), copysign(_), signbit, sinc(_), isneginf, isposinf, isreal, isin, trapezoid,
cumulative_trapezoid, cartesian_prod, block_diag, tril_indices, triu_indices, stanh, ldexp(_),
frexp, reduce_as, asinh, acosh, atanh (log1p forms, accurate near their zeros; complex inputs
through asin/acos/atan), atan2, logspace.

Integer inputs of the functions whose result is real-valued (deg2rad, sinc, hypot, copysign,
logaddexp) are computed in float32, as Paddle does. Singular points are taken care of with
`where` over a safe operand, so neither the value nor the gradient turns into NaN where the
function is defined (sinc at 0, nan_to_num's replaced elements). signbit reads the sign of zeros
through 1/x; a NaN is reported as positive whatever its sign bit (no bit view of a tensor).
"""
import builtins
import math

import numpy as np

from .. import _C, _errors
from .index_functions import _write_back

_ops = _C.ops
_T = _C.Tensor
_D = _C.dtype
_FLOATS = (_D.float16, _D.bfloat16, _D.float32, _D.float64)


def _check_tensor(op, arg, x):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument '{arg}' expected a Tensor, got {type(x).__name__}")


def _is_float(x):
    return x.dtype in _FLOATS


def _as_float(x):
    return x if _is_float(x) else _ops.cast(x, "float32")


def _pair(op, x, y):
    """x and y as tensors of one floating dtype (y may be a number)."""
    _check_tensor(op, "x", x)
    if not isinstance(y, _T):
        if isinstance(y, bool) or not isinstance(y, (int, float)):
            raise _errors.InvalidType(f"{op}: argument 'y' expected a Tensor or a number, got "
                                      f"{type(y).__name__}")
        x = _as_float(x)
        return x, _ops.full([], float(y), x.dtype)
    x, y = _as_float(x), _as_float(y)
    if x.dtype != y.dtype:
        wide = _D.float64 if _D.float64 in (x.dtype, y.dtype) else _D.float32
        x, y = _ops.cast(x, wide), _ops.cast(y, wide)
    return x, y


def logaddexp(x, y, name=None):
    """log(exp(x) + exp(y)) computed as max(x, y) + log1p(exp(-|x - y|)); equal infinities give
    that infinity."""
    x, y = _pair("logaddexp", x, y)
    big = _ops.maximum(x, y)
    same = _ops.equal(x, y)  # also inf == inf, whose difference would be NaN
    diff = _ops.where(same, _ops.zeros_like(x), _ops.subtract(x, y))
    return _ops.add(big, _ops.log1p(_ops.exp(_ops.neg(_ops.abs(diff)))))


def _nan_to_num(x, nan, posinf, neginf):
    _check_tensor("nan_to_num", "x", x)
    if not _is_float(x):
        return _ops.assign(x)
    info = np.finfo({_D.float16: np.float16, _D.float32: np.float32,
                     _D.float64: np.float64}.get(x.dtype, np.float32))
    if x.dtype == _D.bfloat16:
        big = 3.3895313892515355e38
    else:
        big = float(info.max)
    hi = big if posinf is None else float(posinf)
    lo = -big if neginf is None else float(neginf)
    out = _ops.where(_ops.isnan(x), _ops.full([], float(nan), x.dtype), x)
    pos = _ops.logical_and(_ops.isinf(x), _ops.greater_than(x, _ops.zeros_like(x)))
    neg = _ops.logical_and(_ops.isinf(x), _ops.less_than(x, _ops.zeros_like(x)))
    out = _ops.where(pos, _ops.full([], hi, x.dtype), out)
    return _ops.where(neg, _ops.full([], lo, x.dtype), out)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None):
    """x with NaN replaced by `nan`, +inf by `posinf` and -inf by `neginf` (the dtype's largest
    and lowest finite values when None); integer tensors come back unchanged."""
    return _nan_to_num(x, nan, posinf, neginf)


def nan_to_num_(x, nan=0.0, posinf=None, neginf=None, name=None):
    """nan_to_num written into x."""
    return _write_back("nan_to_num_", x, _nan_to_num(x, nan, posinf, neginf))


def deg2rad(x, name=None):
    _check_tensor("deg2rad", "x", x)
    return _ops.scale(_as_float(x), math.pi / 180.0, 0.0, True)


def rad2deg(x, name=None):
    _check_tensor("rad2deg", "x", x)
    return _ops.scale(_as_float(x), 180.0 / math.pi, 0.0, True)


def inner(x, y, name=None):
    """Sums of products over the last dims of x and y ([*x[:-1], *y[:-1]]); a 0-D operand
    multiplies."""
    _check_tensor("inner", "x", x)
    _check_tensor("inner", "y", y)
    if x.ndim == 0 or y.ndim == 0:
        return _ops.multiply(x, y)
    if x.shape[-1] != y.shape[-1]:
        raise _errors.InvalidArgument(f"inner: argument 'y' expected the last dim {x.shape[-1]} "
                                      f"of x, got shape {list(y.shape)}")
    n = x.shape[-1]
    out_shape = list(x.shape[:-1]) + list(y.shape[:-1])
    a, b = _ops.reshape(x, [-1, n]), _ops.reshape(y, [-1, n])
    if _is_float(a) and a.dtype == b.dtype:
        out = _ops.matmul(a, b, False, True)
    else:  # no integer matmul kernel: broadcast multiply and sum
        out = _ops.sum(_ops.multiply(_ops.unsqueeze(a, [1]), _ops.unsqueeze(b, [0])), [2], None,
                       False)
    return _ops.reshape(out, out_shape)


def _fextreme(op, x, y, pick):
    _check_tensor(op, "x", x)
    _check_tensor(op, "y", y)
    out = pick(x, y)
    if not (_is_float(x) or _is_float(y)):
        return out
    x_nan, y_nan = _ops.isnan(x), _ops.isnan(y)
    out = _ops.where(x_nan, _ops.add(y, _ops.zeros_like(out)), out)
    return _ops.where(_ops.logical_and(y_nan, _ops.logical_not(x_nan)),
                      _ops.add(x, _ops.zeros_like(out)), out)


def fmax(x, y, name=None):
    """Elementwise maximum that ignores a NaN operand (NaN only where both are NaN)."""
    return _fextreme("fmax", x, y, _ops.maximum)


def fmin(x, y, name=None):
    """Elementwise minimum that ignores a NaN operand (NaN only where both are NaN)."""
    return _fextreme("fmin", x, y, _ops.minimum)


def hypot(x, y, name=None):
    """sqrt(x^2 + y^2) elementwise."""
    x, y = _pair("hypot", x, y)
    return _ops.sqrt(_ops.add(_ops.square(x), _ops.square(y)))


def hypot_(x, y, name=None):
    """hypot written into x."""
    return _write_back("hypot_", x, hypot(x, y))


def _negative(x):
    """True where x's sign is negative, -0.0 included (1 / -0.0 = -inf)."""
    zero = _ops.zeros_like(x)
    if not _is_float(x):
        return _ops.less_than(x, zero)
    is_zero = _ops.equal(x, zero)
    safe = _ops.where(is_zero, x, _ops.ones_like(x))
    return _ops.logical_or(_ops.less_than(x, zero),
                           _ops.logical_and(is_zero, _ops.less_than(_ops.reciprocal(safe), zero)))


def signbit(x, name=None):
    """True where x is negative, -0.0 included (a NaN reads as positive)."""
    _check_tensor("signbit", "x", x)
    if x.dtype in (_D.bool, _D.uint8):
        return _ops.zeros(list(x.shape), "bool")
    return _negative(x)


def copysign(x, y, name=None):
    """|x| with the sign of y (of -0.0 too), elementwise; integers are computed in float32."""
    x, y = _pair("copysign", x, y)
    mag = _ops.abs(x)
    return _ops.where(_negative(y), _ops.neg(mag), mag)


def copysign_(x, y, name=None):
    """copysign written into x."""
    return _write_back("copysign_", x, copysign(x, y))


def sinc(x, name=None):
    """sin(pi x) / (pi x), 1 at 0 (and a zero gradient there)."""
    _check_tensor("sinc", "x", x)
    x = _as_float(x)
    at_zero = _ops.equal(x, _ops.zeros_like(x))
    px = _ops.scale(_ops.where(at_zero, _ops.ones_like(x), x), math.pi, 0.0, True)
    return _ops.where(at_zero, _ops.ones_like(x), _ops.divide(_ops.sin(px), px))


def sinc_(x, name=None):
    """sinc written into x (a floating tensor)."""
    if isinstance(x, _T) and not _is_float(x):
        raise _errors.InvalidType(f"sinc_: argument 'x' expected a floating point tensor, got "
                                  f"{x.dtype}")
    return _write_back("sinc_", x, sinc(x))


def isposinf(x, name=None):
    _check_tensor("isposinf", "x", x)
    if not _is_float(x):
        return _ops.zeros(list(x.shape), "bool")
    return _ops.logical_and(_ops.isinf(x), _ops.greater_than(x, _ops.zeros_like(x)))


def isneginf(x, name=None):
    _check_tensor("isneginf", "x", x)
    if not _is_float(x):
        return _ops.zeros(list(x.shape), "bool")
    return _ops.logical_and(_ops.isinf(x), _ops.less_than(x, _ops.zeros_like(x)))


def isreal(x, name=None):
    """Whether each element is real: true for real dtypes, imag == 0 for complex ones."""
    _check_tensor("isreal", "x", x)
    if x.dtype in (_D.complex64, _D.complex128):
        im = _ops.imag(x)
        return _ops.equal(im, _ops.zeros_like(im))
    return _ops.ones(list(x.shape), "bool")


def isin(x, test_x, assume_unique=False, invert=False, name=None):
    """Whether each element of x occurs in test_x (negated with invert): a binary search of
    the sorted test_x."""
    _check_tensor("isin", "x", x)
    _check_tensor("isin", "test_x", test_x)
    for arg, t in (("x", x), ("test_x", test_x)):
        if t.dtype in (_D.bool, _D.uint8, _D.int8, _D.int16):
            raise _errors.InvalidType(f"isin: argument '{arg}' expected a float or int32/int64 "
                                      f"tensor, got {t.dtype}")
    if test_x.size == 0 or x.size == 0:
        found = _ops.zeros(list(x.shape), "bool")
    else:
        if x.dtype != test_x.dtype:
            wide = _D.float64 if _D.float64 in (x.dtype, test_x.dtype) else \
                (_D.float32 if _is_float(x) or _is_float(test_x) else _D.int64)
            x, test_x = _ops.cast(x, wide), _ops.cast(test_x, wide)
        pool = _ops.sort(_ops.reshape(test_x, [-1]), 0, False, True)
        flat = _ops.reshape(x, [-1])
        pos = _ops.searchsorted(pool, flat, False, False)
        pos = _ops.minimum(pos, _ops.full([], pool.shape[0] - 1, "int64"))
        found = _ops.reshape(_ops.equal(_ops.take_along_axis(pool, pos, 0), flat), list(x.shape))
    return _ops.logical_not(found) if invert else found


def _trapezoid_parts(op, y, x, dx, axis):
    """(the per-interval areas along axis, axis)."""
    _check_tensor(op, "y", y)
    if x is not None and dx is not None:
        raise _errors.InvalidArgument(f"{op}: argument 'dx' expected None when x is given, got {dx!r}")
    if not _is_float(y):
        raise _errors.InvalidType(f"{op}: argument 'y' expected a floating point tensor, got "
                                  f"{y.dtype}")
    if isinstance(axis, bool) or not isinstance(axis, int) or not -y.ndim <= axis < y.ndim:
        raise _errors.InvalidArgument(f"{op}: argument 'axis' expected an int in [{-y.ndim}, "
                                      f"{y.ndim}), got {axis!r}")
    axis %= y.ndim
    n = y.shape[axis]
    lo = _ops.slice(y, [axis], [0], [builtins.max(n - 1, 0)])
    hi = _ops.slice(y, [axis], [builtins.min(1, n)], [n])
    mid = _ops.scale(_ops.add(lo, hi), 0.5, 0.0, True)
    if x is None:
        return _ops.scale(mid, 1.0 if dx is None else float(dx), 0.0, True), axis
    _check_tensor(op, "x", x)
    if x.ndim == 1:
        if x.shape[0] != n:
            raise _errors.InvalidArgument(f"{op}: argument 'x' expected {n} points (y's axis "
                                          f"{axis}), got shape {list(x.shape)}")
        d = _ops.subtract(_ops.slice(x, [0], [builtins.min(1, n)], [n]),
                          _ops.slice(x, [0], [0], [builtins.max(n - 1, 0)]))
        d = _ops.reshape(_ops.cast(d, y.dtype), [d.shape[0] if i == axis else 1
                                                 for i in range(y.ndim)])
    else:
        if list(x.shape) != list(y.shape):
            raise _errors.InvalidArgument(f"{op}: argument 'x' expected a 1-D tensor or y's shape "
                                          f"{list(y.shape)}, got shape {list(x.shape)}")
        d = _ops.cast(_ops.subtract(_ops.slice(x, [axis], [builtins.min(1, n)], [n]),
                                    _ops.slice(x, [axis], [0], [builtins.max(n - 1, 0)])), y.dtype)
    return _ops.multiply(mid, d), axis


def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The trapezoidal-rule integral of y along axis, at sample points x (1-D, or y's shape) or
    with spacing dx (1 when both are None)."""
    parts, axis = _trapezoid_parts("trapezoid", y, x, dx, axis)
    return _ops.sum(parts, [axis], None, False)


def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The running trapezoidal-rule integral of y along axis (one element fewer there)."""
    parts, axis = _trapezoid_parts("cumulative_trapezoid", y, x, dx, axis)
    return _ops.cumsum(parts, axis)


def cartesian_prod(x, name=None):
    """The cartesian product of the 1-D tensors in the list x as rows of [prod(len), len(x)]
    (one tensor is returned as it is)."""
    if isinstance(x, _T) or not isinstance(x, (list, tuple)) or not x:
        raise _errors.InvalidType(f"cartesian_prod: argument 'x' expected a non-empty list of "
                                  f"Tensors, got {type(x).__name__}")
    for i, t in enumerate(x):
        _check_tensor("cartesian_prod", f"x[{i}]", t)
        if t.ndim != 1:
            raise _errors.InvalidArgument(f"cartesian_prod: argument 'x[{i}]' expected a 1-D "
                                          f"tensor, got shape {list(t.shape)}")
        if t.dtype != x[0].dtype:
            raise _errors.InvalidType(f"cartesian_prod: argument 'x[{i}]' expected dtype "
                                      f"{x[0].dtype} (as x[0]), got {t.dtype}")
    if len(x) == 1:
        return x[0]
    sizes = [t.shape[0] for t in x]
    cols = []
    for i, t in enumerate(x):
        shape = [1] * len(x)
        shape[i] = sizes[i]
        cols.append(_ops.reshape(_ops.expand(_ops.reshape(t, shape), sizes), [-1]))
    return _ops.stack(cols, 1)


def block_diag(inputs, name=None):
    """The block-diagonal matrix of the 0-D, 1-D ([1, n]) and 2-D tensors in `inputs`, in their
    promoted dtype."""
    if isinstance(inputs, _T) or not isinstance(inputs, (list, tuple)) or not inputs:
        raise _errors.InvalidType(f"block_diag: argument 'inputs' expected a non-empty list of "
                                  f"Tensors, got {type(inputs).__name__}")
    mats = []
    for i, t in enumerate(inputs):
        _check_tensor("block_diag", f"inputs[{i}]", t)
        if t.ndim > 2:
            raise _errors.InvalidArgument(f"block_diag: argument 'inputs[{i}]' expected a tensor "
                                          f"of rank <= 2, got shape {list(t.shape)}")
        mats.append(_ops.reshape(t, [1, 1]) if t.ndim == 0 else
                    _ops.reshape(t, [1, t.shape[0]]) if t.ndim == 1 else t)
    dtype = mats[0].dtype
    for m in mats[1:]:  # add's promotion rule, read off an empty sum
        dtype = _ops.add(_ops.zeros([0], dtype), _ops.zeros([0], m.dtype)).dtype
    total = builtins.sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        m = _ops.cast(m, dtype) if m.dtype != dtype else m
        r, c = m.shape
        parts = []
        if left:
            parts.append(_ops.zeros([r, left], dtype))
        parts.append(m)
        if total - left - c:
            parts.append(_ops.zeros([r, total - left - c], dtype))
        rows.append(_ops.concat(parts, 1) if len(parts) > 1 else m)
        left += c
    return _ops.concat(rows, 0) if len(rows) > 1 else rows[0]


def _indices(op, row, col, offset, dtype, lower):
    for arg, v in (("row", row), ("col", col), ("offset", offset)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise _errors.InvalidType(f"{op}: argument '{arg}' expected an int, got "
                                      f"{type(v).__name__}")
    if row < 0 or col < 0:
        raise _errors.InvalidArgument(f"{op}: argument '{'row' if row < 0 else 'col'}' expected a "
                                      f"non-negative int, got {builtins.min(row, col)}")
    name = str(dtype).replace("paddle.", "")
    if name not in ("int32", "int64"):
        raise _errors.InvalidType(f"{op}: argument 'dtype' expected int32 or int64, got {dtype}")
    pick = np.tril_indices if lower else np.triu_indices
    r, c = pick(row, offset, col)
    return _C.to_tensor(np.stack([r, c]).astype(name).reshape(2, -1), dtype=getattr(_D, name))


def tril_indices(row, col, offset=0, dtype="int64"):
    """The [2, N] row and column indices of the lower triangle (below diagonal `offset`) of a
    row x col matrix, row by row."""
    return _indices("tril_indices", row, col, offset, dtype, True)


def triu_indices(row, col=None, offset=0, dtype="int64"):
    """The [2, N] indices of the upper triangle (above diagonal `offset`) of a row x col matrix
    (col defaults to row)."""
    return _indices("triu_indices", row, row if col is None else col, offset, dtype, False)


def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    """scale_b * tanh(scale_a * x)."""
    _check_tensor("stanh", "x", x)
    return _ops.scale(_ops.tanh(_ops.scale(_as_float(x), float(scale_a), 0.0, True)),
                      float(scale_b), 0.0, True)


def ldexp(x, y, name=None):
    """x * 2^y (y an integer tensor); the result is floating (float32 for integer x)."""
    _check_tensor("ldexp", "x", x)
    _check_tensor("ldexp", "y", y)
    if y.dtype not in (_D.int8, _D.int16, _D.int32, _D.int64, _D.uint8):
        raise _errors.InvalidType(f"ldexp: argument 'y' expected an integer tensor, got {y.dtype}")
    x = _as_float(x)
    two = _ops.full([], 2.0, x.dtype)
    return _ops.multiply(x, _ops.elementwise_pow(two, _ops.cast(y, x.dtype)))


def ldexp_(x, y, name=None):
    """ldexp written into x (a floating tensor)."""
    if isinstance(x, _T) and not _is_float(x):
        raise _errors.InvalidType(f"ldexp_: argument 'x' expected a floating point tensor, got "
                                  f"{x.dtype}")
    return _write_back("ldexp_", x, ldexp(x, y))


def frexp(x, name=None):
    """(mantissa, exponent) with x = mantissa * 2^exponent, |mantissa| in [0.5, 1) (0 for 0);
    both in x's floating dtype, as Paddle returns them."""
    _check_tensor("frexp", "x", x)
    if not _is_float(x):
        raise _errors.InvalidType(f"frexp: argument 'x' expected a floating point tensor, got "
                                  f"{x.dtype}")
    mag = _ops.abs(x)
    zero = _ops.equal(mag, _ops.zeros_like(mag))
    safe = _ops.where(zero, _ops.ones_like(mag), mag)
    e = _ops.floor(_ops.log2(safe))
    m = _ops.divide(safe, _ops.elementwise_pow(_ops.full_like(e, 2.0), e))
    # log2 may round across a power of two: bring m back into [1, 2)
    up = _ops.greater_equal(m, _ops.full_like(m, 2.0))
    e = _ops.where(up, _ops.scale(e, 1.0, 1.0, True), e)
    m = _ops.where(up, _ops.scale(m, 0.5, 0.0, True), m)
    down = _ops.less_than(m, _ops.ones_like(m))
    e = _ops.where(down, _ops.scale(e, 1.0, -1.0, True), e)
    m = _ops.where(down, _ops.scale(m, 2.0, 0.0, True), m)
    e = _ops.scale(e, 1.0, 1.0, True)  # [1, 2) -> [0.5, 1)
    m = _ops.scale(m, 0.5, 0.0, True)
    m = _ops.where(_ops.less_than(x, _ops.zeros_like(x)), _ops.neg(m), m)
    return _ops.where(zero, _ops.zeros_like(x), m), _ops.where(zero, _ops.zeros_like(x), e)


def reduce_as(x, target, name=None):
    """x summed over the dims that broadcasting would have added to target's shape."""
    _check_tensor("reduce_as", "x", x)
    _check_tensor("reduce_as", "target", target)
    return _ops.reduce_as(x, target)


def _times_i(z, sign=1):
    """sign * i * z for a complex z, as complex(-sign imag, sign real): exact, differentiable,
    signed zeros kept (neg, not scale, whose + 0 bias would turn -0 into +0)."""
    re, im = _ops.real(z), _ops.imag(z)
    if sign > 0:
        return _ops.complex(_ops.neg(im), re)
    return _ops.complex(im, _ops.neg(re))


def asinh(x, name=None):
    """asinh(x) = +-log1p(+-x + x^2 / (1 + sqrt(1 + x^2))), exact near 0; the branches are
    picked by sign without abs, so the gradient at 0 is 1. Complex x: -i asin(i x), numpy's
    principal branch."""
    _check_tensor("asinh", "x", x)
    if x.is_complex():
        return _times_i(_ops.asin(_times_i(x)), -1)
    x = _as_float(x)
    sq = _ops.square(x)
    tail = _ops.divide(sq, _ops.scale(_ops.sqrt(_ops.scale(sq, 1.0, 1.0, True)), 1.0, 1.0, True))
    pos = _ops.log1p(_ops.add(x, tail))
    neg = _ops.neg(_ops.log1p(_ops.subtract(tail, x)))
    return _ops.where(_ops.less_than(x, _ops.zeros_like(x)), neg, pos)


def acosh(x, name=None):
    """acosh(x) = log1p(t + sqrt(t (t + 2))), t = x - 1 (NaN below 1). Complex x: +-i acos(x),
    the sign that gives a real part >= 0 (numpy's principal branch)."""
    _check_tensor("acosh", "x", x)
    if x.is_complex():
        a = _ops.acos(x)
        upper = _ops.less_equal(_ops.imag(a), _ops.zeros_like(_ops.imag(a)))
        return _ops.where(upper, _times_i(a), _times_i(a, -1))
    t = _ops.scale(_as_float(x), 1.0, -1.0, True)
    return _ops.log1p(_ops.add(t, _ops.sqrt(_ops.multiply(t, _ops.scale(t, 1.0, 2.0, True)))))


def atanh(x, name=None):
    """atanh(x) = log1p(2x / (1 - x)) / 2 (+-inf at +-1, NaN outside [-1, 1]). Complex x:
    -i atan(i x), numpy's principal branch."""
    _check_tensor("atanh", "x", x)
    if x.is_complex():
        return _times_i(_ops.atan(_times_i(x)), -1)
    x = _as_float(x)
    ratio = _ops.divide(_ops.scale(x, 2.0, 0.0, True), _ops.scale(x, -1.0, 1.0, True))
    return _ops.scale(_ops.log1p(ratio), 0.5, 0.0, True)


def atan2(x, y, name=None):
    """The angle of the point (y, x): arctan(x / y) in the quadrant of (y, x), in (-pi, pi];
    integer inputs give float64, as Paddle's."""
    _check_tensor("atan2", "x", x)
    _check_tensor("atan2", "y", y)
    if not _is_float(x) and not _is_float(y):
        x, y = _ops.cast(x, "float64"), _ops.cast(y, "float64")
    x, y = _pair("atan2", x, y)
    zero = _ops.zeros_like(_ops.add(x, y))
    y_zero = _ops.equal(y, zero)
    base = _ops.atan(_ops.divide(x, _ops.where(y_zero, _ops.ones_like(zero), _ops.add(y, zero))))
    pi = _ops.full_like(zero, math.pi)
    x_neg = _ops.less_than(x, zero)
    shifted = _ops.where(x_neg, _ops.subtract(base, pi), _ops.add(base, pi))
    out = _ops.where(_ops.less_than(y, zero), shifted, base)
    axis = _ops.where(x_neg, _ops.scale(pi, -0.5, 0.0, True), _ops.scale(pi, 0.5, 0.0, True))
    axis = _ops.where(_ops.equal(x, zero), zero, axis)
    return _ops.where(y_zero, axis, out)


def logspace(start, stop, num, base=10.0, dtype=None, name=None):
    """num points base ** linspace(start, stop, num) (float32 by default)."""
    for arg, v in (("start", start), ("stop", stop), ("base", base)):
        if isinstance(v, _T):
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _errors.InvalidType(f"logspace: argument '{arg}' expected a number or a Tensor, "
                                      f"got {type(v).__name__}")
    n = int(num.item()) if isinstance(num, _T) else num
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise _errors.InvalidArgument(f"logspace: argument 'num' expected a non-negative int, got "
                                      f"{num!r}")
    def val(v):
        return float(v.item()) if isinstance(v, _T) else float(v)
    dt = dtype if dtype is not None else _C.get_default_dtype()
    exps = _ops.linspace(val(start), val(stop), n, "float64")
    out = _ops.elementwise_pow(_ops.full_like(exps, val(base)), exps)
    return _ops.cast(out, dt)


_METHODS = ["logaddexp", "nan_to_num", "nan_to_num_", "deg2rad", "rad2deg", "inner", "fmax",
            "fmin", "hypot", "hypot_", "copysign", "copysign_", "signbit", "sinc", "sinc_",
            "isneginf", "isposinf", "isreal", "isin", "trapezoid", "cumulative_trapezoid", "stanh",
            "ldexp", "ldexp_", "frexp", "reduce_as", "asinh", "acosh", "atanh", "atan2"]
__all__ = _METHODS + ["cartesian_prod", "block_diag", "tril_indices", "triu_indices", "logspace"]
