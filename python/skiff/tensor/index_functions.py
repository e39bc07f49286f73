"""Paddle 3.0's index-driven functions as compositions of differentiable ops: take (x read as 1-D,
modes raise/wrap/clip), index_fill / index_fill_ (slices along an axis set to a value),
masked_scatter / masked_scatter_ (masked positions read consecutive elements of value), vander
(powers by cumprod) and combinations (itertools order, gathered with index_select).

Indices are normalized and checked before any op runs, so an out-of-range index is an
`(OutOfRange)` IndexError naming the function (Paddle's index_select error class) rather than a
failure inside a kernel. Gradients flow through take_along_axis / where / index_select. The
in-place forms write the result into x without recording history, so under grad mode they refuse
an x that requires grad (as Paddle refuses in-place writes to a leaf that requires grad).
"""
import itertools

from .. import _C, _errors

_ops = _C.ops
_T = _C.Tensor
_D = _C.dtype


def _check_tensor(op, arg, x):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument '{arg}' expected a Tensor, got {type(x).__name__}")


def _check_index(op, arg, index):
    _check_tensor(op, arg, index)
    if index.dtype not in (_D.int32, _D.int64):
        raise _errors.InvalidType(f"{op}: argument '{arg}' expected an int32 or int64 tensor, got "
                                  f"{index.dtype}")


def _write_back(op, x, out):
    """out's values into x's memory, returning x (Paddle's in-place forms)."""
    if _C.is_grad_enabled() and not x.stop_gradient:
        raise _errors.InvalidArgument(f"{op}: argument 'x' expected a tensor that does not require "
                                      f"grad (or paddle.no_grad()), got one with "
                                      f"stop_gradient=False")
    _C._assign_into(x, out)
    return x


def take(x, index, mode="raise", name=None):
    """Elements of x read as a 1-D tensor at `index` (any shape; the result has its shape).
    mode 'raise': indices in [-numel, numel), negative ones counted from the end, others are an
    error; 'wrap': taken modulo numel; 'clip': clamped to [0, numel - 1] (negatives become 0)."""
    _check_tensor("take", "x", x)
    _check_index("take", "index", index)
    if mode not in ("raise", "wrap", "clip"):
        raise _errors.InvalidArgument(f"take: argument 'mode' expected one of 'raise', 'wrap', "
                                      f"'clip', got {mode!r}")
    n = x.size
    flat = _ops.reshape(x, [n]) if x.ndim != 1 else x
    idx = _ops.cast(index, "int64")
    if n == 0:
        if idx.size:
            raise _errors.OutOfRange(f"take: argument 'index' expected no indices into an empty x, "
                                     f"got {idx.size}")
        return _ops.reshape(flat, list(index.shape)) if index.ndim else _ops.reshape(flat, [0])
    nn = _ops.full([], n, "int64")
    if mode == "raise":
        if idx.size:
            lo, hi = int(_ops.min(idx).item()), int(_ops.max(idx).item())
            if lo < -n or hi >= n:
                bad = lo if lo < -n else hi
                raise _errors.OutOfRange(f"take: argument 'index' expected values in [{-n}, {n}) "
                                         f"(x has {n} elements), got {bad}")
        idx = _ops.where(_ops.less_than(idx, _ops.zeros_like(idx)), _ops.add(idx, nn), idx)
    elif mode == "wrap":
        idx = _ops.remainder(idx, nn)  # Python's modulo: in [0, n)
    else:
        idx = _ops.clip(idx, 0, n - 1)
    out = _ops.take_along_axis(flat, _ops.reshape(idx, [-1]), 0)
    return _ops.reshape(out, list(index.shape))


def _fill_mask(op, x, index, axis):
    """A bool tensor broadcasting to x, True on the slices `index` selects along `axis`."""
    _check_tensor(op, "x", x)
    _check_index(op, "index", index)
    if isinstance(axis, bool) or not isinstance(axis, int) or not -x.ndim <= axis < x.ndim:
        raise _errors.InvalidArgument(f"{op}: argument 'axis' expected an int in [{-x.ndim}, "
                                      f"{x.ndim}), got {axis!r}")
    axis %= x.ndim
    if index.ndim > 1:
        raise _errors.InvalidArgument(f"{op}: argument 'index' expected a 0-D or 1-D tensor, got "
                                      f"shape {list(index.shape)}")
    n = x.shape[axis]
    idx = _ops.reshape(_ops.cast(index, "int64"), [-1])
    if idx.size:
        lo, hi = int(_ops.min(idx).item()), int(_ops.max(idx).item())
        if lo < -n or hi >= n:
            raise _errors.OutOfRange(f"{op}: argument 'index' expected values in [{-n}, {n}) (the "
                                     f"size of axis {axis}), got {lo if lo < -n else hi}")
        idx = _ops.where(_ops.less_than(idx, _ops.zeros_like(idx)),
                         _ops.add(idx, _ops.full([], n, "int64")), idx)
        hits = _ops.put_along_axis(_ops.zeros([n], "int32"), idx, _ops.ones(idx.shape, "int32"),
                                   0, "assign", True)
    else:
        hits = _ops.zeros([n], "int32")
    mask = _ops.greater_than(hits, _ops.zeros_like(hits))
    return _ops.reshape(mask, [n if d == axis else 1 for d in range(x.ndim)])


def _fill_value(op, x, value):
    if isinstance(value, _T):
        if value.ndim:
            raise _errors.InvalidArgument(f"{op}: argument 'value' expected a number or a 0-D "
                                          f"tensor, got shape {list(value.shape)}")
        return _ops.cast(value, x.dtype) if value.dtype != x.dtype else value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _errors.InvalidType(f"{op}: argument 'value' expected a number or a 0-D tensor, got "
                                  f"{type(value).__name__}")
    return _ops.full([], value, x.dtype)


def index_fill(x, index, axis, value, name=None):
    """x with the slices at `index` (a 1-D int tensor; negatives count from the end) along `axis`
    set to `value` (a number or a 0-D tensor, which then receives the gradient of the filled
    elements)."""
    mask = _fill_mask("index_fill", x, index, axis)
    return _ops.where(mask, _fill_value("index_fill", x, value), x)


def index_fill_(x, index, axis, value, name=None):
    """index_fill written into x."""
    mask = _fill_mask("index_fill_", x, index, axis)
    return _write_back("index_fill_", x, _ops.where(mask, _fill_value("index_fill_", x, value), x))


def _masked_scatter(op, x, mask, value):
    _check_tensor(op, "x", x)
    _check_tensor(op, "mask", mask)
    _check_tensor(op, "value", value)
    if mask.dtype != _D.bool:
        raise _errors.InvalidType(f"{op}: argument 'mask' expected a bool tensor, got {mask.dtype}")
    if value.dtype != x.dtype:
        raise _errors.InvalidType(f"{op}: argument 'value' expected dtype {x.dtype} (as x), got "
                                  f"{value.dtype}")
    xs, ms = list(x.shape), list(mask.shape)
    if len(ms) > len(xs) or not all(a in (1, b) for a, b in zip(ms[::-1], xs[::-1])):
        raise _errors.InvalidArgument(f"{op}: argument 'mask' expected a shape that broadcasts to "
                                      f"x's {xs}, got {ms}")
    if x.size == 0:
        return x
    full = _ops.expand(mask, xs) if ms != xs else mask
    flat = _ops.reshape(_ops.cast(full, "int64"), [-1])
    count = int(_ops.sum(flat).item())
    if count > value.size:
        raise _errors.InvalidArgument(f"{op}: argument 'value' expected at least {count} elements "
                                      f"(the true elements of mask), got {value.size}")
    if count == 0:
        return x
    pos = _ops.clip(_ops.scale(_ops.cumsum(flat, 0), 1.0, -1.0), 0, value.size - 1)
    src = _ops.reshape(_ops.take_along_axis(_ops.reshape(value, [-1]), pos, 0), xs)
    return _ops.where(full, src, x)


def masked_scatter(x, mask, value, name=None):
    """x where mask (broadcast to x) is False; where it is True, the next element of value in
    row-major order (value needs at least as many elements as mask has True entries)."""
    return _masked_scatter("masked_scatter", x, mask, value)


def masked_scatter_(x, mask, value, name=None):
    """masked_scatter written into x."""
    return _write_back("masked_scatter_", x, _masked_scatter("masked_scatter_", x, mask, value))


def vander(x, n=None, increasing=False, name=None):
    """The Vandermonde matrix [len(x), n] of the 1-D x: columns x^(n-1), ..., x, 1 (x^0, ..., x^(n-1)
    when increasing); n defaults to len(x)."""
    _check_tensor("vander", "x", x)
    if x.ndim != 1:
        raise _errors.InvalidArgument(f"vander: argument 'x' expected a 1-D tensor, got shape "
                                      f"{list(x.shape)}")
    n = x.shape[0] if n is None else n
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise _errors.InvalidArgument(f"vander: argument 'n' expected a non-negative int, got {n!r}")
    rows = x.shape[0]
    if n == 0:
        return _ops.zeros([rows, 0], x.dtype)
    cols = [_ops.ones([rows, 1], x.dtype)]
    if n > 1:
        rep = _ops.expand(_ops.unsqueeze(x, [1]), [rows, n - 1])
        cols.append(_ops.cumprod(rep, 1))
    out = _ops.concat(cols, 1) if len(cols) > 1 else cols[0]
    return out if increasing else _ops.flip(out, [1])


def combinations(x, r=2, with_replacement=False, name=None):
    """The length-r combinations of the 1-D x's elements in itertools order, as rows of a
    [C, r] tensor (with_replacement: itertools.combinations_with_replacement). r = 0 gives an
    empty [0] tensor; r > len(x) without replacement an empty [0, r] one."""
    _check_tensor("combinations", "x", x)
    if x.ndim != 1:
        raise _errors.InvalidType(f"combinations: argument 'x' expected a 1-D tensor, got shape "
                                  f"{list(x.shape)}")
    if isinstance(r, bool) or not isinstance(r, int) or r < 0:
        raise _errors.InvalidArgument(f"combinations: argument 'r' expected a non-negative int, got "
                                      f"{r!r}")
    if r == 0:
        return _ops.zeros([0], x.dtype)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(pick(range(x.shape[0]), r))
    if not rows:
        return _ops.zeros([0, r], x.dtype)
    idx = _C.to_tensor([i for row in rows for i in row], dtype=_D.int64)
    return _ops.reshape(_ops.index_select(x, idx, 0), [len(rows), r])


_METHODS = ["take", "index_fill", "index_fill_", "masked_scatter", "masked_scatter_", "vander",
            "combinations"]
__all__ = list(_METHODS)
