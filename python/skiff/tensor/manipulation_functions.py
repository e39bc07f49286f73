"""Paddle 3.0's stacking, splitting, reshaping and scatter-into-copy functions as compositions of
differentiable ops: atleast_1d/2d/3d, hstack, vstack, dstack, column_stack, row_stack, hsplit,
vsplit, dsplit, unflatten, view_as, unstack, slice_scatter, select_scatter, diagonal_scatter,
index_sample, multiplex.

The three scatters share one idea: the flat positions they write are read off an arange of x's
shape with the matching view op (strided_slice, a slice, diagonal), then put_along_axis assigns
the values there in a copy of x, so both x and the values receive their gradients.
"""
import builtins

from .. import _C, _errors

_ops = _C.ops
_T = _C.Tensor
_D = _C.dtype


def _check_tensor(op, arg, x):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument '{arg}' expected a Tensor, got {type(x).__name__}")


def _check_list(op, x):
    if isinstance(x, _T) or not isinstance(x, (list, tuple)) or not x:
        raise _errors.InvalidType(f"{op}: argument 'x' expected a non-empty list of Tensors, got "
                                  f"{type(x).__name__}")
    for i, t in enumerate(x):
        _check_tensor(op, f"x[{i}]", t)


def _atleast(op, inputs, rank):
    outs = []
    for i, t in enumerate(inputs):
        _check_tensor(op, f"inputs[{i}]", t)
        if t.ndim >= rank:
            outs.append(t)
        elif rank == 3 and t.ndim == 2:
            outs.append(_ops.unsqueeze(t, [2]))
        elif rank == 3 and t.ndim == 1:
            outs.append(_ops.reshape(t, [1, t.shape[0], 1]))
        else:
            shape = [1] * (rank - t.ndim) + list(t.shape)
            outs.append(_ops.reshape(t, shape))
    return outs[0] if len(outs) == 1 else outs


def atleast_1d(*inputs, name=None):
    """Each input viewed with at least 1 dim (a list for several inputs)."""
    return _atleast("atleast_1d", inputs, 1)


def atleast_2d(*inputs, name=None):
    """Each input with at least 2 dims: [n] -> [1, n]."""
    return _atleast("atleast_2d", inputs, 2)


def atleast_3d(*inputs, name=None):
    """Each input with at least 3 dims: [n] -> [1, n, 1], [m, n] -> [m, n, 1]."""
    return _atleast("atleast_3d", inputs, 3)


def hstack(x, name=None):
    """Concatenation along the columns (dim 1; dim 0 for 1-D tensors)."""
    _check_list("hstack", x)
    ts = atleast_1d(*x)
    ts = [ts] if isinstance(ts, _T) else ts
    return _ops.concat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(x, name=None):
    """Concatenation along the rows of the tensors made at least 2-D."""
    _check_list("vstack", x)
    ts = atleast_2d(*x)
    return _ops.concat([ts] if isinstance(ts, _T) else ts, 0)


def dstack(x, name=None):
    """Concatenation along the depth (dim 2) of the tensors made at least 3-D."""
    _check_list("dstack", x)
    ts = atleast_3d(*x)
    return _ops.concat([ts] if isinstance(ts, _T) else ts, 2)


def column_stack(x, name=None):
    """1-D tensors as columns ([n] -> [n, 1]) side by side with the 2-D ones."""
    _check_list("column_stack", x)
    cols = [_ops.reshape(t, [builtins.max(t.size, 0), 1]) if t.ndim <= 1 else t for t in x]
    return _ops.concat(cols, 1)


def row_stack(x, name=None):
    """vstack."""
    return vstack(x)


def _split_along(op, x, num_or_indices, axis, min_rank):
    _check_tensor(op, "x", x)
    if x.ndim < min_rank:
        raise _errors.InvalidArgument(f"{op}: argument 'x' expected a tensor of rank >= "
                                      f"{min_rank}, got shape {list(x.shape)}")
    if isinstance(num_or_indices, int) and not isinstance(num_or_indices, bool):
        if num_or_indices <= 0 or x.shape[axis] % num_or_indices:
            raise _errors.InvalidArgument(f"{op}: argument 'num_or_indices' expected a positive "
                                          f"divisor of {x.shape[axis]} (the size of axis {axis}), "
                                          f"got {num_or_indices}")
    elif not isinstance(num_or_indices, (list, tuple)):
        raise _errors.InvalidType(f"{op}: argument 'num_or_indices' expected an int, a list or a "
                                  f"tuple, got {type(num_or_indices).__name__}")
    from .functions import tensor_split
    return tensor_split(x, num_or_indices, axis)


def hsplit(x, num_or_indices, name=None):
    """Splits along dim 1 (dim 0 of a 1-D x): into equal parts, or at the given indices."""
    axis = 0 if isinstance(x, _T) and x.ndim == 1 else 1
    return _split_along("hsplit", x, num_or_indices, axis, 1)


def vsplit(x, num_or_indices, name=None):
    """Splits along dim 0 of an x of rank >= 2."""
    return _split_along("vsplit", x, num_or_indices, 0, 2)


def dsplit(x, num_or_indices, name=None):
    """Splits along dim 2 of an x of rank >= 3."""
    return _split_along("dsplit", x, num_or_indices, 2, 3)


def unflatten(x, axis, shape, name=None):
    """x with dim `axis` replaced by `shape` (one entry may be -1)."""
    _check_tensor("unflatten", "x", x)
    if isinstance(axis, bool) or not isinstance(axis, int) or not -x.ndim <= axis < x.ndim:
        raise _errors.InvalidArgument(f"unflatten: argument 'axis' expected an int in [{-x.ndim}, "
                                      f"{x.ndim}), got {axis!r}")
    axis %= x.ndim
    if isinstance(shape, _T):
        shape = [int(v) for v in shape.numpy().reshape(-1)]
    shape = list(shape)
    if not shape:
        raise _errors.InvalidArgument("unflatten: argument 'shape' expected a non-empty shape, "
                                      "got []")
    size = x.shape[axis]
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    fits = (shape.count(-1) == 0 and known == size) or \
        (shape.count(-1) == 1 and known and size % known == 0)
    if not fits:
        raise _errors.InvalidArgument(f"unflatten: argument 'shape' expected sizes whose product "
                                      f"is {size} (the size of axis {axis}), got {shape}")
    shape = [size // known if s == -1 else s for s in shape]
    return _ops.reshape(x, list(x.shape[:axis]) + shape + list(x.shape[axis + 1:]))


def view_as(x, other, name=None):
    """x viewed with other's shape."""
    _check_tensor("view_as", "x", x)
    _check_tensor("view_as", "other", other)
    if x.size != other.size:
        raise _errors.InvalidArgument(f"view_as: argument 'other' expected {x.size} elements (as "
                                      f"x), got shape {list(other.shape)}")
    return _ops.reshape(x, list(other.shape))


def unstack(x, axis=0, num=None):
    """The slices of x along axis, as a list."""
    _check_tensor("unstack", "x", x)
    if isinstance(axis, bool) or not isinstance(axis, int) or not -x.ndim <= axis < x.ndim:
        raise _errors.InvalidArgument(f"unstack: argument 'axis' expected an int in [{-x.ndim}, "
                                      f"{x.ndim}), got {axis!r}")
    if num is not None and num != x.shape[axis]:
        raise _errors.InvalidArgument(f"unstack: argument 'num' expected {x.shape[axis]} (the size "
                                      f"of axis {axis}) or None, got {num}")
    if x.shape[axis] == 0:
        return []
    return list(_ops.unbind(x, axis))


def _scatter_positions(x, pos, value, op):
    """A copy of x with value (broadcast to pos's shape) written at the flat positions pos."""
    _check_tensor(op, "value", value)
    vs, ps = list(value.shape), list(pos.shape)
    if len(vs) > len(ps) or not all(a in (1, b) for a, b in zip(vs[::-1], ps[::-1])):
        raise _errors.InvalidArgument(f"{op}: argument 'value' expected a shape that broadcasts to "
                                      f"{ps}, got {vs}")
    if pos.size == 0:
        return _ops.assign(x)
    v = _ops.cast(value, x.dtype) if value.dtype != x.dtype else value
    v = _ops.reshape(_ops.expand(v, ps) if vs != ps else v, [-1])
    flat = _ops.put_along_axis(_ops.reshape(x, [-1]), _ops.reshape(pos, [-1]), v, 0, "assign", True)
    return _ops.reshape(flat, list(x.shape))


def _arange_like(x):
    return _ops.reshape(_ops.arange(0, builtins.max(x.size, 1), 1, "int64"), list(x.shape)) \
        if x.size else _ops.zeros(list(x.shape), "int64")


def slice_scatter(x, value, axes, starts, ends, strides, name=None):
    """A copy of x whose strided slice (axes, starts, ends, strides as strided_slice reads them)
    holds value (broadcast to the slice)."""
    _check_tensor("slice_scatter", "x", x)
    lists = {"axes": axes, "starts": starts, "ends": ends, "strides": strides}
    for arg, v in lists.items():
        if not isinstance(v, (list, tuple)):
            raise _errors.InvalidType(f"slice_scatter: argument '{arg}' expected a list or tuple of "
                                      f"ints, got {type(v).__name__}")
    if not len(axes) == len(starts) == len(ends) == len(strides):
        raise _errors.InvalidArgument(f"slice_scatter: argument 'starts' expected as many entries as "
                                      f"axes ({len(axes)}) in starts, ends and strides, got "
                                      f"{len(starts)}, {len(ends)}, {len(strides)}")
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise _errors.InvalidArgument(f"slice_scatter: argument 'axes' expected axes in "
                                          f"[{-x.ndim}, {x.ndim}), got {list(axes)}")
    pos = _ops.strided_slice(_arange_like(x), [a % x.ndim for a in axes], list(starts),
                             list(ends), list(strides))
    return _scatter_positions(x, pos, value, "slice_scatter")


def select_scatter(x, values, axis, index, name=None):
    """A copy of x whose slice at `index` along `axis` holds values."""
    _check_tensor("select_scatter", "x", x)
    if isinstance(axis, bool) or not isinstance(axis, int) or not -x.ndim <= axis < x.ndim:
        raise _errors.InvalidArgument(f"select_scatter: argument 'axis' expected an int in "
                                      f"[{-x.ndim}, {x.ndim}), got {axis!r}")
    axis %= x.ndim
    n = x.shape[axis]
    if isinstance(index, bool) or not isinstance(index, int) or not -n <= index < n:
        raise _errors.OutOfRange(f"select_scatter: argument 'index' expected an int in [{-n}, {n}) "
                                 f"(the size of axis {axis}), got {index!r}")
    index %= n
    pos = _ops.squeeze(_ops.slice(_arange_like(x), [axis], [index], [index + 1]), [axis])
    _check_tensor("select_scatter", "values", values)
    if list(values.shape) != list(pos.shape):
        raise _errors.InvalidArgument(f"select_scatter: argument 'values' expected shape "
                                      f"{list(pos.shape)}, got {list(values.shape)}")
    return _scatter_positions(x, pos, values, "select_scatter")


def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    """A copy of x whose diagonal (offset, axis1, axis2 as diagonal reads it) holds y."""
    _check_tensor("diagonal_scatter", "x", x)
    _check_tensor("diagonal_scatter", "y", y)
    if x.ndim < 2:
        raise _errors.InvalidArgument(f"diagonal_scatter: argument 'x' expected a tensor of rank "
                                      f">= 2, got shape {list(x.shape)}")
    for arg, a in (("axis1", axis1), ("axis2", axis2)):
        if isinstance(a, bool) or not isinstance(a, int) or not -x.ndim <= a < x.ndim:
            raise _errors.InvalidArgument(f"diagonal_scatter: argument '{arg}' expected an int in "
                                          f"[{-x.ndim}, {x.ndim}), got {a!r}")
    if axis1 % x.ndim == axis2 % x.ndim:
        raise _errors.InvalidArgument(f"diagonal_scatter: argument 'axis2' expected an axis other "
                                      f"than axis1 ({axis1}), got {axis2}")
    pos = _ops.diagonal(_arange_like(x), offset, axis1, axis2)
    if list(y.shape) != list(pos.shape):
        raise _errors.InvalidArgument(f"diagonal_scatter: argument 'y' expected shape "
                                      f"{list(pos.shape)} (the diagonal's), got {list(y.shape)}")
    return _scatter_positions(x, pos, y, "diagonal_scatter")


def index_sample(x, index):
    """out[i][j] = x[i][index[i][j]] for the 2-D x [N, M] and index [N, K]."""
    _check_tensor("index_sample", "x", x)
    _check_tensor("index_sample", "index", index)
    if index.dtype not in (_D.int32, _D.int64):
        raise _errors.InvalidType(f"index_sample: argument 'index' expected an int32 or int64 "
                                  f"tensor, got {index.dtype}")
    if x.ndim != 2 or index.ndim != 2 or x.shape[0] != index.shape[0]:
        raise _errors.InvalidArgument(f"index_sample: argument 'index' expected a 2-D tensor with "
                                      f"x's {x.shape[0] if x.ndim else 0} rows (x 2-D), got x "
                                      f"{list(x.shape)} and index {list(index.shape)}")
    if index.size:
        lo, hi = int(_ops.min(index).item()), int(_ops.max(index).item())
        if lo < 0 or hi >= x.shape[1]:
            raise _errors.OutOfRange(f"index_sample: argument 'index' expected values in [0, "
                                     f"{x.shape[1]}), got {lo if lo < 0 else hi}")
    return _ops.take_along_axis(x, _ops.cast(index, "int64"), 1)


def multiplex(inputs, index, name=None):
    """Row i of the result is row i of inputs[index[i]] (inputs: same-shaped [N, ...] tensors,
    index: [N, 1] int32/int64)."""
    if isinstance(inputs, _T) or not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
        raise _errors.InvalidArgument(f"multiplex: argument 'inputs' expected a list of at least 2 "
                                      f"Tensors, got {type(inputs).__name__}")
    for i, t in enumerate(inputs):
        _check_tensor("multiplex", f"inputs[{i}]", t)
        if list(t.shape) != list(inputs[0].shape) or t.ndim < 1:
            raise _errors.InvalidArgument(f"multiplex: argument 'inputs[{i}]' expected shape "
                                          f"{list(inputs[0].shape)} (as inputs[0], rank >= 1), got "
                                          f"{list(t.shape)}")
    _check_tensor("multiplex", "index", index)
    n = inputs[0].shape[0]
    if index.dtype not in (_D.int32, _D.int64) or list(index.shape) != [n, 1]:
        raise _errors.InvalidArgument(f"multiplex: argument 'index' expected an int32/int64 tensor "
                                      f"of shape [{n}, 1], got {index.dtype} {list(index.shape)}")
    if n:
        lo, hi = int(_ops.min(index).item()), int(_ops.max(index).item())
        if lo < 0 or hi >= len(inputs):
            raise _errors.OutOfRange(f"multiplex: argument 'index' expected values in [0, "
                                     f"{len(inputs)}), got {lo if lo < 0 else hi}")
    stacked = _ops.stack(list(inputs), 0)  # [K, N, ...]
    rest = list(inputs[0].shape[1:])
    idx = _ops.reshape(_ops.cast(index, "int64"), [1, n] + [1] * len(rest))
    idx = _ops.expand(idx, [1, n] + rest)
    return _ops.squeeze(_ops.take_along_axis(stacked, idx, 0), [0])


_METHODS = ["atleast_1d", "atleast_2d", "atleast_3d", "hsplit", "vsplit", "dsplit", "unflatten",
            "view_as", "unstack", "slice_scatter", "select_scatter", "diagonal_scatter",
            "index_sample"]
__all__ = _METHODS + ["hstack", "vstack", "dstack", "column_stack", "row_stack", "multiplex"]
