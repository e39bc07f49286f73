"""Paddle's array functions that compose from existing differentiable ops: add_n, reverse,
scatter_nd, shard_index, crop, index_put / index_put_, unfold (Tensor.unfold's sliding windows,
a strided view) and pdist.

Arguments are checked before any op runs, so a bad one is an error naming the function and the
argument with Paddle's exception type (ValueError for a bad value, TypeError for a bad type,
IndexError for an index out of range).
"""
from .. import _C, _errors
from . import inplace_functions as _inplace

_ops = _C.ops
_T = _C.Tensor
_D = _C.dtype


def _check_tensor(op, arg, x):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument '{arg}' expected a Tensor, got {type(x).__name__}")


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype (a tensor is itself)."""
    if isinstance(inputs, _T):
        return inputs
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise _errors.InvalidArgument(f"add_n: argument 'inputs' expected a Tensor or a non-empty "
                                      f"list of Tensors, got {inputs!r}")
    for i, t in enumerate(inputs):
        _check_tensor("add_n", f"inputs[{i}]", t)
        if t.shape != inputs[0].shape or t.dtype != inputs[0].dtype:
            raise _errors.InvalidArgument(
                f"add_n: argument 'inputs[{i}]' expected shape {inputs[0].shape} and dtype "
                f"{inputs[0].dtype.name} (as inputs[0]), got {t.shape} {t.dtype.name}")
    out = inputs[0]
    for t in inputs[1:]:
        out = _ops.add(out, t)
    return out if len(inputs) > 1 else _ops.assign(out)


def reverse(x, axis, name=None):
    """x with the order of its elements reversed along axis (an int or a list): paddle.flip."""
    _check_tensor("reverse", "x", x)
    return _ops.flip(x, [axis] if isinstance(axis, int) else list(axis))


def scatter_nd(index, updates, shape, name=None):
    """zeros(shape) with updates added at index (index [..., K] addresses the first K dims;
    repeated indices accumulate): scatter_nd_add on zeros."""
    _check_tensor("scatter_nd", "index", index)
    _check_tensor("scatter_nd", "updates", updates)
    shape = [int(s) for s in (shape.tolist() if isinstance(shape, _T) else shape)]
    return _ops.scatter_nd_add(_ops.zeros(shape, updates.dtype), index, updates)


def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):  # noqa: A002
    """v - shard_id * shard_size where v lies in shard shard_id, else ignore_value, with
    shard_size = ceil(index_num / nshards); input is int32/int64 with last dim 1."""
    _check_tensor("shard_index", "input", input)
    if input.dtype not in (_D.int32, _D.int64):
        raise _errors.InvalidType(f"shard_index: argument 'input' expected an int32 or int64 "
                                  f"tensor, got {input.dtype.name}")
    if input.ndim < 1 or input.shape[-1] != 1:
        raise _errors.InvalidArgument(f"shard_index: argument 'input' expected a last dim of 1, "
                                      f"got shape {input.shape}")
    if index_num <= 0 or nshards <= 0:
        raise _errors.InvalidArgument(f"shard_index: arguments 'index_num' and 'nshards' expected "
                                      f"> 0, got {index_num} and {nshards}")
    if not 0 <= shard_id < nshards:
        raise _errors.InvalidArgument(f"shard_index: argument 'shard_id' expected a value in [0, "
                                      f"{nshards}), got {shard_id}")
    if input.size:
        lo, hi = int(_ops.min(input).item()), int(_ops.max(input).item())
        if lo < 0 or hi >= index_num:
            raise _errors.InvalidArgument(f"shard_index: argument 'input' expected values in [0, "
                                          f"{index_num}), got {lo if lo < 0 else hi}")
    size = (index_num + nshards - 1) // nshards
    lo = _ops.full([], shard_id * size, input.dtype)
    inside = _ops.logical_and(_ops.greater_equal(input, lo),
                              _ops.less_than(input, _ops.full([], (shard_id + 1) * size, input.dtype)))
    return _ops.where(inside, _ops.subtract(input, lo), _ops.full([], ignore_value, input.dtype))


def _int_list(op, arg, v, n):
    v = v.tolist() if isinstance(v, _T) else [int(e.item()) if isinstance(e, _T) else e for e in v]
    if not isinstance(v, list) or len(v) != n:
        raise _errors.InvalidArgument(f"{op}: argument '{arg}' expected {n} values (one per dim of "
                                      f"x), got {v!r}")
    return [int(e) for e in v]


def crop(x, shape=None, offsets=None, name=None):
    """The block of x of the given shape starting at offsets (-1 in shape: to the end of that
    dim); shape defaults to x's, offsets to zeros."""
    _check_tensor("crop", "x", x)
    n = x.ndim
    offsets = [0] * n if offsets is None else _int_list("crop", "offsets", offsets, n)
    shape = list(x.shape) if shape is None else _int_list("crop", "shape", shape, n)
    ends = []
    for d in range(n):
        size = x.shape[d] - offsets[d] if shape[d] == -1 else shape[d]
        if offsets[d] < 0 or size <= 0 or offsets[d] + size > x.shape[d]:
            raise _errors.InvalidArgument(
                f"crop: dim {d} expected 0 <= offset and offset + size <= {x.shape[d]} with size "
                f"> 0, got offset {offsets[d]} and shape {shape[d]}")
        ends.append(offsets[d] + size)
    return _ops.slice(x, list(range(n)), offsets, ends, [])


def _flat_positions(op, x, indices):
    """The flat positions of x[indices] (indices: a tuple of int or bool tensors)."""
    if isinstance(indices, _T) or not isinstance(indices, (list, tuple)):
        raise _errors.InvalidType(f"{op}: argument 'indices' expected a tuple of Tensors, got "
                                  f"{type(indices).__name__}")
    for i, t in enumerate(indices):
        _check_tensor(op, f"indices[{i}]", t)
        if t.dtype not in (_D.int32, _D.int64, _D.bool):
            raise _errors.InvalidType(f"{op}: argument 'indices[{i}]' expected an int32, int64 or "
                                      f"bool tensor, got {t.dtype.name}")
    if len(indices) > x.ndim:
        raise _errors.InvalidArgument(f"{op}: argument 'indices' expected at most {x.ndim} "
                                      f"tensors (x's rank), got {len(indices)}")
    prev = _C.is_grad_enabled()
    _C.set_grad_enabled(False)
    try:
        pos = _ops.reshape(_ops.arange(0, x.size, 1, "int64"), x.shape)
        return pos[tuple(indices)]
    finally:
        _C.set_grad_enabled(prev)


def index_put(x, indices, value, accumulate=False, name=None):
    """x with x[indices] = value (broadcast), or += value when accumulate (repeated indices
    then add up); differentiable in x and value."""
    _check_tensor("index_put", "x", x)
    _check_tensor("index_put", "value", value)
    sel = _flat_positions("index_put", x, indices)
    v = _ops.cast(value, x.dtype) if value.dtype != x.dtype else value
    try:
        v = _ops.expand(v, sel.shape) if v.shape != sel.shape else v
    except ValueError:
        raise _errors.InvalidArgument(f"index_put: argument 'value' expected a shape broadcastable "
                                      f"to {sel.shape} (x[indices]), got {value.shape}") from None
    flat = _ops.reshape(x, [x.size])
    pos, v = _ops.reshape(sel, [sel.size]), _ops.reshape(v, [sel.size])
    if accumulate:
        out = _ops.scatter_nd_add(flat, _ops.reshape(pos, [sel.size, 1]), v)
    else:
        out = _ops.scatter(flat, pos, v, True)
    return _ops.reshape(out, x.shape)


def index_put_(x, indices, value, accumulate=False, name=None):
    _check_tensor("index_put_", "x", x)
    return _inplace._assign("index_put_", index_put, x, indices, value, accumulate)


def unfold(x, axis, size, step, name=None):
    """The windows of `size` elements along axis, `step` apart, as a last dim: a view of shape
    x.shape with dim axis replaced by (n - size) // step + 1, then [size] (Tensor.unfold)."""
    _check_tensor("unfold", "x", x)
    rank = max(x.ndim, 1)
    if not -rank <= axis < rank:
        raise _errors.InvalidArgument(f"unfold: argument 'axis' expected a value in [{-rank}, "
                                      f"{rank}), got {axis}")
    axis %= rank
    n = x.shape[axis] if x.ndim else 1
    if not 0 <= size <= n:
        raise _errors.InvalidArgument(f"unfold: argument 'size' expected a value in [0, {n}] (the "
                                      f"size of dim {axis}), got {size}")
    if step <= 0:
        raise _errors.InvalidArgument(f"unfold: argument 'step' expected > 0, got {step}")
    shape = list(x.shape)
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    if not shape:  # a 0-D tensor unfolds to [size] windows of itself
        return _ops.as_strided(x, [size], [1], 0)
    inner = strides[axis]
    shape[axis] = (n - size) // step + 1
    strides[axis] = inner * step
    return _ops.as_strided(x, shape + [size], strides + [inner], 0)


def pdist(x, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    """The p-norm distances between the rows of x [N, M], pairs i < j in row-major order:
    [N * (N - 1) / 2]."""
    _check_tensor("pdist", "x", x)
    if x.ndim != 2:
        raise _errors.InvalidArgument(f"pdist: argument 'x' expected a 2-D tensor, got shape "
                                      f"{x.shape}")
    from .math_compositions import triu_indices
    from .math_functions import cdist
    n = x.shape[0]
    if n < 2:
        return _ops.zeros([0], x.dtype)
    pairs = _ops.transpose(triu_indices(n, n, 1), [1, 0])  # [K, 2]: (i, j), i < j
    return _ops.gather_nd(cdist(x, x, p, compute_mode), pairs)


__all__ = ["add_n", "reverse", "scatter_nd", "shard_index", "crop", "index_put", "index_put_",
           "unfold", "pdist"]
_METHODS = ["add_n", "reverse", "scatter_nd", "shard_index", "index_put", "index_put_", "unfold"]
