"""skiff.linalg: norms over the p_norm op (Paddle lowers linalg.norm with a numeric p to it)."""
import math

from . import _C

_ops = _C.ops
from ._op_functions import matmul  # noqa: E402,F401


def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None):
    """The p-norm over `axis` (an int, a list of ints, or None: every element)."""
    p = float(p)
    if axis is None:
        out = _ops.p_norm(x, p, -1, 1e-12, False, True)
        return _ops.reshape(out, [1] * x.ndim) if keepdim else out
    axes = [axis] if isinstance(axis, int) else list(axis)
    if len(axes) == 1:
        return _ops.p_norm(x, p, axes[0], 1e-12, keepdim, False)
    return _norm_over(x, p, axes, keepdim)


def _norm_over(x, p, axes, keepdim):
    a = _ops.abs(x)
    if math.isinf(p):
        return (_ops.amax if p > 0 else _ops.amin)(a, axes, keepdim)
    if p == 0:
        return _ops.sum(_ops.cast(_ops.not_equal(a, _ops.zeros_like(a)), x.dtype), axes, None, keepdim)
    return _ops.pow(_ops.sum(_ops.pow(a, p), axes, None, keepdim), 1.0 / p)


def matrix_norm(x, p="fro", axis=[-2, -1], keepdim=False, name=None):  # noqa: B006
    if p == "fro":
        return _ops.sqrt(_ops.sum(_ops.square(x), axis, None, keepdim))
    if p in (1, -1, float("inf"), float("-inf")):
        # 1: largest column sum (sum over rows, then max over columns); inf: largest row sum.
        row, col = axis
        first, second = (row, col) if abs(p) == 1 else (col, row)
        red = _ops.amax if p > 0 else _ops.amin
        out = red(_ops.sum(_ops.abs(x), [first], None, True), [second], True)
        return out if keepdim else _ops.squeeze(out, [row, col])
    raise NotImplementedError(f"matrix_norm: p={p!r} is not supported (only 'fro', 1, -1, inf, -inf)")


def norm(x, p=None, axis=None, keepdim=False, name=None):
    """paddle.linalg.norm: Frobenius by default; a numeric p is a vector norm over `axis`
    (every element when axis is None); 'fro' over two axes is the matrix norm."""
    if p is None or p == "fro":
        if axis is None:
            return _ops.sqrt(_ops.sum(_ops.square(x), [], None, keepdim))
        axes = [axis] if isinstance(axis, int) else list(axis)
        return _ops.sqrt(_ops.sum(_ops.square(x), axes, None, keepdim))
    if isinstance(p, str):
        raise ValueError(f"norm: argument 'p' expected 'fro' or a number, got {p!r}")
    return vector_norm(x, p, axis, keepdim)


def multi_dot(x, name=None):
    if len(x) < 2:
        raise ValueError(f"multi_dot: argument 'x' expected at least 2 tensors, got {len(x)}")
    out = x[0]
    for m in x[1:]:
        out = _ops.matmul(out, m)
    return out
