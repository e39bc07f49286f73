"""Paddle's fractional_max_pool2d/3d (Graham's fractional max pooling, pseudo-random windows).

The windows are Paddle's kernel's, computed in float32 as it does: alpha = (in - k) / (out -
(k > 0)), and for output index i, start = ceil(alpha * (i + u) - 1) and end = ceil(alpha *
(i + 1 + u) - 1) (or start + k with a kernel_size), clipped to the input; without a kernel
size u is scaled by min((in // out + 2) / alpha - 1, (in + 1 - in // out) / alpha - (out - 1)).
u is random_u, or one U(0, 1) draw per call. The windows then go through pool_mask's gather,
so the mask and the gradient are the first maximum's, as Paddle's."""
import numpy as np

from ._common_ops import ops as _ops
from .pool_mask import _gather_max, _table

__all__ = ["fractional_max_pool2d", "fractional_max_pool3d"]


def _bad(fn, msg):
    raise ValueError(f"(InvalidArgument) {fn}: {msg}")


def _axis(n_in, n_out, k, u):
    f32 = np.float32
    alpha = f32(n_in - k) / f32(n_out - (1 if k > 0 else 0))
    if k == 0:
        base = n_in // n_out
        u_max = min(f32(base + 2) / alpha - f32(1), f32(n_in + 1 - base) / alpha - f32(n_out - 1))
        u = f32(u) * f32(u_max)
    idx = np.arange(n_out, dtype=f32)
    start = np.ceil(alpha * (idx + f32(u)) - f32(1)).astype(np.int64)
    if k > 0:
        end = np.ceil(alpha * (idx + f32(u)) - f32(1) + f32(k)).astype(np.int64)
    else:
        end = np.ceil(alpha * (idx + f32(1) + f32(u)) - f32(1)).astype(np.int64)
    start, end = np.maximum(start, 0), np.minimum(end, n_in)
    width = max(int((end - start).max()), 1)
    coords = start[:, None] + np.arange(width)[None, :]
    return np.where(coords < end[:, None], coords, -1)


def _fractional(fn, dims, x, output_size, kernel_size, random_u, return_mask):
    if len(x.shape) != dims + 2:
        _bad(fn, f"argument 'x' expected a {dims + 2}-D tensor, got shape {list(x.shape)}")
    sizes = list(x.shape[2:])
    if isinstance(output_size, int):
        output_size = [output_size] * dims
    output_size = list(output_size)
    if len(output_size) != dims:
        _bad(fn, f"argument 'output_size' expected an int or {dims} values, got {output_size}")
    out = [sizes[i] if o is None else int(o) for i, o in enumerate(output_size)]
    if kernel_size is None:
        k = [0] * dims
    elif isinstance(kernel_size, int):
        k = [kernel_size] * dims
    else:
        k = [int(v) for v in kernel_size]
        if len(k) != dims:
            _bad(fn, f"argument 'kernel_size' expected an int or {dims} values, got {k}")
    if min(out) <= 0 or min(k) < 0:
        _bad(fn, f"arguments 'output_size' and 'kernel_size' expected positive values, got "
             f"{out} and {k}")
    names = ["depth", "height", "width"][3 - dims:]
    for i in range(dims):
        if sizes[i] < out[i] - 1 + k[i]:
            _bad(fn, f"input_{names[i]} [{sizes[i]}] is less than valid output_{names[i]} "
                 f"[{out[i] - 1 + k[i]}]")
    if random_u is None:
        u = float(_ops.uniform([1], "float32", 0.0, 1.0, 0).numpy()[0])
    else:
        u = float(random_u)
        if not 0 < u < 1:
            _bad(fn, f"argument 'random_u' expected a value in (0, 1), got {random_u}")
    axes = [_axis(sizes[i], out[i], k[i], u) for i in range(dims)]
    table, out_sizes = _table(axes, sizes)
    val, mask = _gather_max(x, table, out_sizes)
    return (val, mask) if return_mask else val


def fractional_max_pool2d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    return _fractional("fractional_max_pool2d", 2, x, output_size, kernel_size, random_u,
                       return_mask)


def fractional_max_pool3d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    return _fractional("fractional_max_pool3d", 3, x, output_size, kernel_size, random_u,
                       return_mask)
