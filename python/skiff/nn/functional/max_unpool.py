"""Paddle's max_unpool1d/2d/3d: the inverse of max pooling with return_mask=True. Each value of
x goes to the flat position its mask index names in a zero output plane (put_along_axis, whose
rule sends the output gradient back to those values); everything else stays 0."""
from ._common_ops import ops as _ops
from .conv_transpose import _ints

__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d"]

_FORMATS = {1: "NCL", 2: "NCHW", 3: "NCDHW"}


def _bad(fn, msg, cls=ValueError):
    raise cls(f"(InvalidArgument) {fn}: {msg}")


def _unpool(fn, dims, x, indices, kernel_size, stride, padding, data_format, output_size):
    if data_format != _FORMATS[dims]:
        _bad(fn, f"argument 'data_format' expected '{_FORMATS[dims]}', got {data_format!r}")
    if len(x.shape) != dims + 2:
        _bad(fn, f"argument 'x' expected a {dims + 2}-D tensor, got shape {list(x.shape)}")
    if list(indices.shape) != list(x.shape):
        _bad(fn, f"argument 'indices' expected x's shape {list(x.shape)}, got "
             f"{list(indices.shape)}")
    if indices.dtype not in ("int32", "int64"):
        _bad(fn, f"argument 'indices' expected dtype int32 or int64, got {indices.dtype}",
             TypeError)
    k = _ints(kernel_size, dims, fn, "kernel_size")
    s = k if stride is None else _ints(stride, dims, fn, "stride")
    p = _ints(padding, dims, fn, "padding")
    sizes = list(x.shape[2:])
    default = [(sizes[i] - 1) * s[i] - 2 * p[i] + k[i] for i in range(dims)]
    if output_size is None:
        out = default
    else:
        out = [int(v) for v in output_size]
        if len(out) == dims + 2:
            out = out[2:]
        if len(out) != dims:
            _bad(fn, f"argument 'output_size' expected {dims} or {dims + 2} values, got "
                 f"{output_size}")
        for i in range(dims):
            lo, hi = default[i] - s[i], default[i] + s[i]
            if not lo < out[i] < hi:
                _bad(fn, f"argument 'output_size' expected values in ({lo}, {hi}) on axis {i}, "
                     f"got {out[i]}")
    if min(out) <= 0:
        _bad(fn, f"the output size {out} is not positive")
    n, c = x.shape[0], x.shape[1]
    plane = 1
    for v in out:
        plane *= v
    idx = _ops.reshape(_ops.cast(indices, "int64"), [n, c, -1])
    if not getattr(idx, "is_symbolic", False) and idx.size > 0:
        lo_i, hi_i = int(_ops.min(idx, [], False)), int(_ops.max(idx, [], False))
        if lo_i < 0 or hi_i >= plane:
            _bad(fn, f"argument 'indices' expected values in [0, {plane}) (the output plane "
                 f"{out}), got {lo_i if lo_i < 0 else hi_i}")
    zeros = _ops.zeros([n, c, plane], x.dtype)
    y = _ops.put_along_axis(zeros, idx, _ops.reshape(x, [n, c, -1]), 2, "assign", True)
    return _ops.reshape(y, [n, c] + out)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
    return _unpool("max_unpool1d", 1, x, indices, kernel_size, stride, padding, data_format,
                   output_size)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
    return _unpool("max_unpool2d", 2, x, indices, kernel_size, stride, padding, data_format,
                   output_size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
    return _unpool("max_unpool3d", 3, x, indices, kernel_size, stride, padding, data_format,
                   output_size)
