"""Max pooling that also returns Paddle's mask (return_mask=True), for 1-D, 2-D and 3-D,
fixed and adaptive windows; the mask feeds max_unpool.

The windows are gathered explicitly: a static table holds, for every output position and
every kernel offset, the flat input index (d * H * W + h * W + w, Paddle's mask value) or a
sentinel that reads an appended -inf (padding, or the short end of an adaptive window). The
max is the first maximum of each gathered row (Paddle's scan order picks the first too), its
value comes through take_along_axis, so the gradient reaches exactly the argmax."""
import numpy as np

from ._common_ops import ops as _ops

__all__ = []


def _axis_fixed(n, k, s, lo, hi, ceil_mode):
    span = n + lo + hi - k
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    coords = np.arange(out)[:, None] * s - lo + np.arange(k)[None, :]
    return np.where((coords >= 0) & (coords < n), coords, -1)


def _axis_adaptive(n, out):
    starts = (np.arange(out) * n) // out
    ends = -((-(np.arange(out) + 1) * n) // out)
    k = int((ends - starts).max())
    coords = starts[:, None] + np.arange(k)[None, :]
    return np.where(coords < ends[:, None], coords, -1)


def _table(axes, sizes):
    """Per-axis [out_a, k_a] coordinate tables -> [prod(out), prod(k)] flat indices; a
    position outside the input gets prod(sizes) (the -inf slot)."""
    flat = np.zeros([1, 1], dtype=np.int64)
    valid = np.ones([1, 1], dtype=bool)
    for a, n in zip(axes, sizes):
        oa, ka = a.shape
        flat = (flat[:, None, :, None] * n + a[None, :, None, :]).reshape(
            flat.shape[0] * oa, flat.shape[1] * ka)
        valid = (valid[:, None, :, None] & (a >= 0)[None, :, None, :]).reshape(flat.shape)
    return np.where(valid, flat, int(np.prod(sizes))), [a.shape[0] for a in axes]


def _gather_max(x, table, out_sizes):
    from ...tensor.creation import to_tensor
    n, c = x.shape[0], x.shape[1]
    sizes = list(x.shape[2:])
    plane = int(np.prod(sizes))
    p, k = table.shape
    xf = _ops.reshape(x, [n, c, plane])
    pad = _ops.full([n, c, 1], float("-inf"), x.dtype)
    xf = _ops.concat([xf, pad], 2)
    idx = to_tensor(np.ascontiguousarray(table.reshape([-1])))
    win = _ops.reshape(_ops.index_select(xf, idx, 2), [n, c, p, k])
    arg = _ops.unsqueeze(_ops.argmax(win, 3, False, False, "int64"), [3])
    val = _ops.squeeze(_ops.take_along_axis(win, arg, 3), [3])
    tab = _ops.expand(_ops.reshape(to_tensor(np.ascontiguousarray(table)), [1, 1, p, k]),
                      [n, c, p, k])
    mask = _ops.cast(_ops.squeeze(_ops.take_along_axis(tab, arg, 3), [3]), "int32")
    return _ops.reshape(val, [n, c] + out_sizes), _ops.reshape(mask, [n, c] + out_sizes)


def max_pool_with_mask(fn, x, k, s, pads, ceil_mode):
    """x [N, C, *spatial]; k, s per spatial axis; pads [lo0, hi0, lo1, hi1, ...]."""
    sizes = list(x.shape[2:])
    axes = [_axis_fixed(sizes[i], k[i], s[i], pads[2 * i], pads[2 * i + 1], ceil_mode)
            for i in range(len(sizes))]
    if min(a.shape[0] for a in axes) <= 0:
        raise ValueError(f"(InvalidArgument) {fn}: the output size is not positive for input "
                         f"{sizes}, kernel {k}, stride {s}")
    table, out_sizes = _table(axes, sizes)
    return _gather_max(x, table, out_sizes)


def adaptive_max_pool_with_mask(fn, x, out_sizes):
    sizes = list(x.shape[2:])
    table, out = _table([_axis_adaptive(n, o) for n, o in zip(sizes, out_sizes)], sizes)
    return _gather_max(x, table, out)
