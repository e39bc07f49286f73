"""Tensor.__getitem__ / __setitem__ with numpy/Paddle semantics.

Reading: basic indices (ints, slices with any step, Ellipsis, None) become one `slice` or
`strided_slice` op (a view sharing storage when every step is positive) plus squeeze/unsqueeze
views; advanced indices (int tensors/lists/arrays, bool masks) then apply `index_select`,
`masked_select` or `gather_nd`. Every op is differentiable, so indexing is too.

Writing: with basic indices and no autograd involved, the value is written straight into the
view. Otherwise the flat positions of the selected elements are found by indexing an arange;
without autograd the value is scattered into x's memory; with autograd the Python tensor x
becomes `where(selected, value[positions], x)`, data and history (Paddle's set_value semantics;
a leaf that requires grad cannot be written, as in Paddle). The old data stays intact for the
grad nodes that saved it, so views taken earlier do not see such a differentiable write.
"""
import numpy as np

from .. import _C

_ops = _C.ops
_T = _C.Tensor


def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _as_index_tensor(v):
    if isinstance(v, _T):
        return v
    arr = np.asarray(v)
    if arr.dtype == np.bool_:
        return _C.to_tensor(arr)
    if arr.size == 0:
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise IndexError(f"__getitem__: argument 'index' expected ints, slices, None, Ellipsis, "
                         f"bool or int tensors, got a sequence of {arr.dtype}")
    return _C.to_tensor(arr.astype(np.int64))


def _normalize(x, index):
    """-> (x with None axes inserted, list of per-axis items: ('s', slice) | ('i', int) |
    ('t', int tensor) | ('m', bool tensor))."""
    if not isinstance(index, tuple):
        index = (index,)
    items = []
    for it in index:
        if it is None or it is Ellipsis:
            items.append(it)
        elif isinstance(it, slice):
            items.append(("s", it))
        elif _is_int(it):
            items.append(("i", int(it)))
        elif isinstance(it, (bool, np.bool_)):
            items.append(("m", _C.to_tensor(bool(it))))
        elif isinstance(it, _T) and it.ndim == 0 and it.dtype != _C.dtype.bool:
            items.append(("i", int(it)))
        elif isinstance(it, (_T, list, tuple, np.ndarray)):
            t = _as_index_tensor(it)
            items.append(("m" if t.dtype == _C.dtype.bool else "t", t))
        else:
            raise IndexError(f"__getitem__: argument 'index' expected ints, slices, None, "
                             f"Ellipsis, bool or int tensors, got {type(it).__name__}")
    if sum(1 for it in items if it is Ellipsis) > 1:
        raise IndexError("__getitem__: argument 'index' expected at most one Ellipsis, got several")
    used = sum(it[1].ndim if it[0] == "m" else 1 for it in items if it is not None and it is not Ellipsis)
    if used > x.ndim:
        raise IndexError(f"__getitem__: too many indices: the tensor has {x.ndim} dims, "
                         f"{used} were indexed")
    out, new_axes = [], []
    for it in items:
        if it is Ellipsis:
            out.extend([("s", slice(None))] * (x.ndim - used))
        elif it is None:
            new_axes.append(sum(1 if o[0] != "m" else o[1].ndim for o in out))
            out.append(("s", slice(None)))
        else:
            out.append(it)
    if Ellipsis not in items:
        out.extend([("s", slice(None))] * (x.ndim - used))
    if new_axes:
        x = _ops.unsqueeze(x, new_axes)
    return x, out


# A bound past either end of any dim; the slice ops clamp it.
_FAR = 1 << 62


def _dynamic_bounds(v):
    """(start, stop, step) of slice `v` on a dim whose size is known only at run time."""
    step = 1 if v.step is None else v.step
    if step == 0:
        raise ValueError("__getitem__: slice step cannot be zero")
    if step > 0:
        return (0 if v.start is None else v.start), (_FAR if v.stop is None else v.stop), step
    return (_FAR if v.start is None else v.start), (-_FAR if v.stop is None else v.stop), step


def _basic(x, items):
    """Applies ints and slices; returns (result, advanced items with their result axes)."""
    axes, starts, ends, steps, drop = [], [], [], [], []
    adv = []
    axis, removed = 0, 0
    shape = x.shape
    for kind, v in items:
        if kind == "s":
            n = shape[axis]
            if n < 0:  # a dynamic dim (a static program): the op clamps the bounds at run time
                start, stop, step = _dynamic_bounds(v)
                if (start, stop, step) != (0, _FAR, 1):
                    axes.append(axis)
                    starts.append(start)
                    ends.append(stop)
                    steps.append(step)
                axis += 1
                continue
            start, stop, step = v.indices(n)
            if (start, stop, step) != (0, n, 1):
                if step < 0 and stop < 0:
                    stop = -n - 1  # before element 0 (a bare -1 would mean the last element)
                axes.append(axis)
                starts.append(start)
                ends.append(stop)
                steps.append(step)
            axis += 1
        elif kind == "i":
            n = shape[axis]
            if n < 0:  # a dynamic dim: -1 is the last element, whatever the size at run time
                axes.append(axis)
                starts.append(v)
                ends.append(v + 1 if v != -1 else _FAR)
                steps.append(1)
                drop.append(axis)
                axis += 1
                removed += 1
                continue
            if not -n <= v < n:
                raise IndexError(f"__getitem__: index {v} is out of range for axis {axis} "
                                 f"with size {n}")
            v = v + n if v < 0 else v
            axes.append(axis)
            starts.append(v)
            ends.append(v + 1)
            steps.append(1)
            drop.append(axis)
            axis += 1
            removed += 1
        else:
            k = v.ndim if kind == "m" else 1
            adv.append((kind, v, axis - removed))
            axis += k
    if axes:
        if all(s == 1 for s in steps):
            x = _ops.slice(x, axes, starts, ends, drop)
        else:
            x = _ops.strided_slice(x, axes, starts, ends, steps)
            if drop:
                x = _ops.squeeze(x, drop)
    return x, adv


def _fix_negative(idx, n):
    if idx.dtype == _C.dtype.bool:
        return idx
    neg = _ops.less_than(idx, _ops.zeros_like(idx))
    if not bool(_ops.any(neg)):
        return idx
    return _ops.where(neg, _ops.add(idx, _ops.full([], n, idx.dtype)), idx)


def _advanced(x, adv):
    if len(adv) == 1:
        kind, idx, a = adv[0]
        if kind == "t":
            idx = _fix_negative(idx, x.shape[a])
            if idx.ndim == 1:
                return _ops.index_select(x, idx, a)
            out = _ops.index_select(x, _ops.flatten(idx), a)
            return _ops.reshape(out, x.shape[:a] + idx.shape + x.shape[a + 1:])
        if idx.ndim == 0:  # x[True] / x[False]: a new axis of length 1 or 0
            x = _ops.unsqueeze(x, [a])
            return x if bool(idx) else _ops.slice(x, [a], [0], [0], [])
        if a == 0 and idx.ndim == x.ndim:
            return _ops.masked_select(x, idx)
        if list(idx.shape) != x.shape[a:a + idx.ndim]:
            raise IndexError(f"__getitem__: the bool mask of shape {idx.shape} does not match "
                             f"the indexed dims {x.shape[a:a + idx.ndim]}")
        pos = _ops.nonzero(idx)  # [n, k]
        cols = [pos[:, i] for i in range(idx.ndim)]
        adv = [("t", c, a + i) for i, c in enumerate(cols)]
    # Several advanced indices: broadcast them, gather_nd over those axes moved to the front.
    tensors, axes = [], []
    for kind, idx, a in adv:
        if kind == "m":
            pos = _ops.nonzero(idx)
            for i in range(idx.ndim):
                tensors.append(pos[:, i])
                axes.append(a + i)
        else:
            tensors.append(_fix_negative(idx, x.shape[a]))
            axes.append(a)
    from .creation import _broadcast_shape
    bshape = []
    for t in tensors:
        bshape = _broadcast_shape(bshape, t.shape)
    index = _ops.stack([_ops.expand(t, bshape) for t in tensors], -1)
    rest = [i for i in range(x.ndim) if i not in axes]
    moved = _ops.transpose(x, axes + rest) if axes + rest != list(range(x.ndim)) else x
    out = _ops.gather_nd(moved, index)
    adjacent = axes == list(range(axes[0], axes[0] + len(axes)))
    p = axes[0]
    if adjacent and p > 0:
        nb = len(bshape)
        order = list(range(nb, nb + p)) + list(range(nb)) + list(range(nb + p, out.ndim))
        out = _ops.transpose(out, order)
    return out


def getitem(x, index):
    # Fast paths: x[i] and x[a:b] on the first axis.
    if _is_int(index) and x.ndim > 0 and x.shape[0] >= 0:  # a dynamic dim: the general path
        n = x.shape[0]
        if not -n <= index < n:
            raise IndexError(f"__getitem__: index {index} is out of range for axis 0 with size {n}")
        i = index + n if index < 0 else index
        return _ops.slice(x, [0], [i], [i + 1], [0])
    if x.ndim == 0 and index is not None and index is not Ellipsis and index != ():
        if not (isinstance(index, tuple) and all(i is None or i is Ellipsis for i in index)):
            if not isinstance(index, (_T, np.ndarray, list, bool)):
                raise IndexError("__getitem__: a 0-D tensor can only be indexed with None, "
                                 "Ellipsis or a bool")
    x, items = _normalize(x, index)
    out, adv = _basic(x, items)
    return _advanced(out, adv) if adv else out


def _requires_grad(t):
    return isinstance(t, _T) and not t.stop_gradient


def setitem(x, index, value):
    if not isinstance(value, _T):
        value = _C.to_tensor(value, dtype=x.dtype)
    if value.ndim > 0 and value.size == 1:
        value = _ops.reshape(value, [])  # a 1-element value fills any selection (numpy too)
    grad = _C.is_grad_enabled() and (_requires_grad(x) or _requires_grad(value))
    if grad and x.is_leaf and not x.stop_gradient:
        raise RuntimeError("__setitem__: a leaf tensor that requires grad (stop_gradient=False) "
                           "cannot be written in place; write into a copy or under no_grad()")
    if not grad:
        target = _try_view(x, index)
        if target is not None:
            _C._assign_into(target, value)
            return
    prev = _C.is_grad_enabled()
    _C.set_grad_enabled(False)
    try:
        sel = getitem(_ops.reshape(_ops.arange(0, x.size, 1, "int64"), x.shape), index)
        sel_shape = sel.shape  # value broadcasts to the shape of x[index]
        pos = _ops.flatten(sel)
        m = pos.shape[0]
        if m == 0:
            return
        if not grad:
            v = _ops.flatten(_ops.expand(_ops.cast(value, x.dtype), sel_shape))
            new = _ops.scatter(_ops.flatten(_ops.assign(x)), pos, v, True)
            _C._assign_into(x, _ops.reshape(new, x.shape))
            return
        # where_from[j]: which selected element lands on flat position j (-1: none).
        where_from = _ops.scatter(_ops.full([x.size], -1, "int64"), pos,
                                  _ops.arange(0, m, 1, "int64"), True)
        mask = _ops.greater_equal(where_from, _ops.zeros([1], "int64"))
        where_from = _ops.maximum(where_from, _ops.zeros([1], "int64"))
    finally:
        _C.set_grad_enabled(prev)
    v = _ops.flatten(_ops.expand(_ops.cast(value, x.dtype), sel_shape))
    vexp = _ops.reshape(_ops.gather(v, where_from, 0), x.shape)
    new = _ops.where(_ops.reshape(mask, x.shape), vexp, x)
    _C._rebase(x, new)


def _try_view(x, index):
    """x[index] as a view of x's memory when the index is basic with positive steps."""
    idx = index if isinstance(index, tuple) else (index,)
    for it in idx:
        if it is None or it is Ellipsis or _is_int(it):
            continue
        if isinstance(it, slice) and (it.step is None or it.step > 0):
            continue
        return None
    out = getitem(x, index)
    return out if out._share_memory_with(x) else None
