"""Paddle's grid_sample: x [N, C, H, W] (or [N, C, D, H, W]) sampled at the normalised
coordinates grid [N, Ho, Wo, 2] (or [..., 3], ordered x, y[, z]).

Coordinates are unnormalised (align_corners: -1 and 1 are the corner pixels' centres, else
their outer edges), then clipped ('border') or reflected ('reflection') into range. Bilinear
(trilinear in 3-D) sampling adds the 2^d neighbouring pixels with their linear weights, each
gathered with take_along_axis from the flattened spatial plane; a neighbour outside the input
contributes 0 ('zeros'). Everything is differentiable ops, so x and grid both get gradients
(x's through take_along_axis' scatter-add). 'nearest' rounds half to even, as nearbyint."""
from ._common_ops import ops as _ops

__all__ = ["grid_sample"]


def _bad(msg, cls=ValueError):
    raise cls(f"(InvalidArgument) grid_sample: {msg}")


def _const(t, v):
    return _ops.full_like(t, v, t.dtype)


def _reflect(c, twice_low, twice_high):
    if twice_low == twice_high:
        return _ops.zeros_like(c, c.dtype)
    low, span = twice_low / 2.0, (twice_high - twice_low) / 2.0
    d = _ops.abs(_ops.scale(c, 1.0, -low, True))
    extra = _ops.remainder(d, _const(d, span))
    flips = _ops.floor(_ops.scale(d, 1.0 / span, 0.0, True))
    even = _ops.equal(_ops.remainder(flips, _const(flips, 2.0)), _const(flips, 0.0))
    return _ops.where(even, _ops.scale(extra, 1.0, low, True),
                      _ops.scale(extra, -1.0, span + low, True))


def _source(g, n, align_corners, padding_mode):
    if align_corners:
        c = _ops.scale(g, (n - 1) / 2.0, (n - 1) / 2.0, True)
    else:
        c = _ops.scale(g, n / 2.0, (n - 1) / 2.0, True)
    if padding_mode == "border":
        c = _ops.clip(c, 0.0, float(n - 1))
    elif padding_mode == "reflection":
        c = _reflect(c, 0.0, 2.0 * (n - 1)) if align_corners else _reflect(c, -1.0, 2.0 * n - 1)
        c = _ops.clip(c, 0.0, float(n - 1))
    return c


def _nearbyint(c):
    r = _ops.floor(_ops.scale(c, 1.0, 0.5, True))
    tie = _ops.logical_and(_ops.equal(_ops.subtract(r, c), _const(c, 0.5)),
                           _ops.equal(_ops.remainder(r, _const(r, 2.0)), _const(r, 1.0)))
    return _ops.subtract(r, _ops.cast(tie, c.dtype))


def _gather(flat, coords, sizes, c_dim):
    """flat [N, C, P]; integer-valued float coords per axis [N, Q] -> values [N, C, Q] and the
    in-range mask [N, Q]."""
    inside = None
    index = None
    for ci, n in zip(coords, sizes):
        ok = _ops.logical_and(_ops.greater_equal(ci, _const(ci, 0.0)),
                              _ops.less_equal(ci, _const(ci, n - 1.0)))
        inside = ok if inside is None else _ops.logical_and(inside, ok)
        clipped = _ops.cast(_ops.clip(ci, 0.0, float(n - 1)), "int64")
        index = clipped if index is None else _ops.add(_ops.scale(index, float(n), 0.0, True),
                                                      clipped)
    nb, q = index.shape
    idx = _ops.expand(_ops.unsqueeze(index, [1]), [nb, c_dim, q])
    return _ops.take_along_axis(flat, idx, 2), inside


def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True, name=None):
    if mode not in ("bilinear", "nearest"):
        _bad(f"argument 'mode' expected 'bilinear' or 'nearest', got {mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        _bad(f"argument 'padding_mode' expected 'zeros', 'border' or 'reflection', got "
             f"{padding_mode!r}")
    if not isinstance(align_corners, bool):
        _bad(f"argument 'align_corners' expected a bool, got {type(align_corners).__name__}",
             TypeError)
    rank = len(x.shape)
    if rank not in (4, 5):
        _bad(f"argument 'x' expected a 4-D or 5-D tensor, got shape {list(x.shape)}")
    dims = rank - 2
    n, c = x.shape[0], x.shape[1]
    gshape = list(grid.shape)
    if len(gshape) != rank or gshape[0] != n or gshape[-1] != dims:
        _bad(f"argument 'grid' expected shape [{n}, ..., {dims}] of rank {rank}, got {gshape}")
    if grid.dtype != x.dtype:
        _bad(f"argument 'grid' expected x's dtype {x.dtype}, got {grid.dtype}", TypeError)
    sizes = list(x.shape[2:])  # D, H, W order
    out_spatial = gshape[1:-1]
    g = _ops.reshape(grid, [n, -1, dims])
    # grid's last axis is (x, y[, z]): W first
    comps = [_ops.squeeze(_ops.slice(g, [2], [i], [i + 1]), [2]) for i in range(dims)]
    src = [_source(comps[dims - 1 - a], sizes[a], align_corners, padding_mode)
           for a in range(dims)]
    flat = _ops.reshape(x, [n, c, -1])
    if mode == "nearest":
        vals, inside = _gather(flat, [_nearbyint(s) for s in src], sizes, c)
        out = _ops.multiply(vals, _ops.unsqueeze(_ops.cast(inside, x.dtype), [1]))
        return _ops.reshape(out, [n, c] + out_spatial)
    lows = [_ops.floor(s) for s in src]
    fracs = [_ops.subtract(s, lo) for s, lo in zip(src, lows)]
    out = None
    for corner in range(2 ** dims):
        coords, weight = [], None
        for a in range(dims):
            hi = (corner >> a) & 1
            coords.append(_ops.scale(lows[a], 1.0, float(hi), True) if hi else lows[a])
            wa = fracs[a] if hi else _ops.scale(fracs[a], -1.0, 1.0, True)
            weight = wa if weight is None else _ops.multiply(weight, wa)
        vals, inside = _gather(flat, coords, sizes, c)
        weight = _ops.multiply(weight, _ops.cast(inside, x.dtype))
        term = _ops.multiply(vals, _ops.unsqueeze(weight, [1]))
        out = term if out is None else _ops.add(out, term)
    return _ops.reshape(out, [n, c] + out_spatial)
