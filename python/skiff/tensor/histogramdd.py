"""paddle.histogramdd: the histogram of the points x [..., D] (all dims but the last flattened)
over D independent, strictly increasing sequences of bin edges, given as tensors or built as
equal-width bins between the data's extremes or `ranges` [lo_0, hi_0, lo_1, hi_1, ...] (equal
extremes widen by 1/2 each way). Bins are [e_i, e_i+1), the last one closed; points outside are
not counted. Returns (hist of shape [bins_0, ..., bins_D-1], [edges_0, ..., edges_D-1]).
"""
from .. import _C, _errors

_ops = _C.ops
_T = _C.Tensor


def _edges(op, points, d, bins, ranges):
    if isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], _T):
        e = bins[d]
        if e.ndim != 1 or e.size < 2:
            raise _errors.InvalidArgument(f"{op}: argument 'bins[{d}]' expected a 1-D tensor of at "
                                          f"least 2 edges, got shape {e.shape}")
        return _ops.cast(e, points.dtype)
    n = bins[d] if isinstance(bins, (list, tuple)) else bins
    if not isinstance(n, int) or n < 1:
        raise _errors.InvalidArgument(f"{op}: argument 'bins' expected positive bin counts, got "
                                      f"{bins!r}")
    if ranges is not None:
        lo, hi = float(ranges[2 * d]), float(ranges[2 * d + 1])
    elif points.shape[0]:
        col = points[:, d]
        lo, hi = float(_ops.min(col).item()), float(_ops.max(col).item())
    else:
        lo, hi = 0.0, 1.0
    if lo > hi:
        raise _errors.InvalidArgument(f"{op}: dim {d} expected ranges with min <= max, got "
                                      f"[{lo}, {hi}]")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return _ops.linspace(lo, hi, n + 1, points.dtype)


def histogramdd(x, bins=10, ranges=None, density=False, weights=None, name=None):
    op = "histogramdd"
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument 'x' expected a Tensor, got {type(x).__name__}")
    if x.ndim < 2 or not x.dtype.is_floating_point:
        raise _errors.InvalidArgument(f"{op}: argument 'x' expected a float tensor with at least 2 "
                                      f"dims, got {x.dtype.name} of shape {x.shape}")
    dims = x.shape[-1]
    points = _ops.reshape(x, [-1, dims])
    if isinstance(bins, (list, tuple)) and len(bins) != dims:
        raise _errors.InvalidArgument(f"{op}: argument 'bins' expected {dims} entries (one per "
                                      f"dim of the points), got {len(bins)}")
    if ranges is not None and len(ranges) != 2 * dims:
        raise _errors.InvalidArgument(f"{op}: argument 'ranges' expected {2 * dims} values (a min "
                                      f"and a max per dim), got {len(ranges)}")
    if weights is not None and list(weights.shape) != list(x.shape[:-1]):
        raise _errors.InvalidArgument(f"{op}: argument 'weights' expected shape "
                                      f"{list(x.shape[:-1])} (x's without its last dim), got "
                                      f"{list(weights.shape)}")
    edges = [_edges(op, points, d, bins, ranges) for d in range(dims)]
    counts = [e.shape[0] - 1 for e in edges]
    flat = _ops.zeros([points.shape[0]], "int64")
    inside = _ops.full([points.shape[0]], True, "bool")
    stride = 1
    for d in range(dims - 1, -1, -1):
        col, e = points[:, d], edges[d]
        idx = _ops.subtract(_ops.searchsorted(e, col, False, True), _ops.ones([], "int64"))
        last = _ops.equal(col, _ops.full([], float(e[-1].item()), col.dtype))
        idx = _ops.where(last, _ops.full([], counts[d] - 1, "int64"), idx)  # the closed last bin
        inside = _ops.logical_and(inside, _ops.logical_and(
            _ops.greater_equal(idx, _ops.zeros([], "int64")),
            _ops.less_than(idx, _ops.full([], counts[d], "int64"))))
        flat = _ops.add(flat, _ops.scale(idx, float(stride), 0.0, True))
        stride *= counts[d]
    w = _ops.reshape(weights, [-1]) if weights is not None else _ops.ones_like(points[:, 0])
    w = _ops.cast(w, x.dtype)
    hist = _ops.zeros([stride], x.dtype)
    sel = _ops.masked_select(flat, inside)
    if sel.shape[0]:
        hist = _ops.scatter_nd_add(hist, _ops.reshape(sel, [-1, 1]), _ops.masked_select(w, inside))
    hist = _ops.reshape(hist, counts)
    if density:
        total = _ops.sum(hist, [], None, False)
        hist = _ops.divide(hist, total)
        for d in range(dims):
            widths = _ops.subtract(edges[d][1:], edges[d][:-1])
            shape = [1] * dims
            shape[d] = counts[d]
            hist = _ops.divide(hist, _ops.reshape(widths, shape))
    return hist, edges


__all__ = ["histogramdd"]
