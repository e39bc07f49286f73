"""The top-level functions (skiff.add, skiff.sum, ...) with Paddle's names and signatures.

Where Paddle's Python signature is the op record's (same names, order and defaults, trailing
`name=None`), the function is the record's generated Python function (skiff._op_functions, made
by tools/gen_py_ops.py), which calls the binding `skiff._C.ops.<op>` positionally. The rest are
thin compositions written here over the bindings, including the few whose record gives a default
to an argument Paddle requires (unsqueeze's axis, expand's shape, tile, roll, topk's k).
"""
import builtins
import math

import numpy as np

from .. import _C, _op_functions as _f

_ops = _C.ops
_T = _C.Tensor

# Elementwise math, comparisons, logic ---------------------------------------------------------
add = _f.add
subtract = _f.subtract
multiply = _f.multiply
divide = _f.divide
floor_divide = _f.floor_divide
remainder = _f.remainder
mod = floor_mod = remainder
maximum = _f.maximum
minimum = _f.minimum
equal = _f.equal
not_equal = _f.not_equal
less_than = _f.less_than
less_equal = _f.less_equal
greater_than = _f.greater_than
greater_equal = _f.greater_equal
logical_and = _f.logical_and
logical_or = _f.logical_or
logical_xor = _f.logical_xor
logical_not = _f.logical_not
bitwise_and = _f.bitwise_and
bitwise_or = _f.bitwise_or
bitwise_xor = _f.bitwise_xor
bitwise_not = _f.bitwise_not
lerp = _f.lerp
cast = _f.cast
abs = _f.abs  # noqa: A001
neg = _f.neg
sign = _f.sign
square = _f.square
exp = _f.exp
expm1 = _f.expm1
log = _f.log
log1p = _f.log1p
log2 = _f.log2
sqrt = _f.sqrt
rsqrt = _f.rsqrt
reciprocal = _f.reciprocal
sin = _f.sin
cos = _f.cos
tan = _f.tan
tanh = _f.tanh
asin = _f.asin
acos = _f.acos
atan = _f.atan
sinh = _f.sinh
cosh = _f.cosh
erf = _f.erf
floor = _f.floor
ceil = _f.ceil
round = _f.round  # noqa: A001
isnan = _f.isnan
isinf = _f.isinf
isfinite = _f.isfinite
sigmoid = _f.sigmoid
scatter = _f.scatter
scatter_nd_add = _f.scatter_nd_add
index_add = _f.index_add


def _complex_value(v):
    if isinstance(v, _T):
        return v.is_complex() and v.size == 1
    return isinstance(v, (complex, np.complexfloating))


def _complex_fill(x, value, op):
    """A complex fill value as a 0-D tensor of x's dtype (Scalar attributes are real)."""
    if not x.is_complex():
        raise TypeError(f"(InvalidType) {op}: argument 'value' expected a real value for a "
                        f"{x.dtype.name} tensor, got complex")
    if isinstance(value, _T):
        return _ops.cast(_ops.reshape(value, []), x.dtype)
    return _C.to_tensor(value, x.dtype)


def masked_fill(x, mask, value, name=None):
    """x with value where mask holds; a complex value fills through where, as Paddle's does."""
    if _complex_value(value):
        return _ops.where(mask, _complex_fill(x, value, "masked_fill"), x)
    return _f.masked_fill(x, mask, value)


masked_select = _f.masked_select
gather = _f.gather
gather_nd = _f.gather_nd
index_select = _f.index_select
sort = _f.sort


def topk(x, k, axis=None, largest=True, sorted=True, name=None):  # noqa: A002
    """The k largest (or smallest) values along `axis` (the last one when None) and indices."""
    return _ops.topk(x, k, -1 if axis is None else axis, largest, sorted)


# Linear algebra -------------------------------------------------------------------------------
matmul = _f.matmul
bmm = _f.bmm
dot = _f.dot
outer = _f.outer
addmm = _f.addmm


def mm(input, mat2, name=None):  # noqa: A002
    return _ops.matmul(input, mat2)


def t(input, name=None):  # noqa: A002
    """Transpose of a tensor of rank <= 2."""
    if input.ndim > 2:
        raise ValueError(f"t: argument 'input' expected a tensor of rank <= 2, got shape {input.shape}")
    return input if input.ndim < 2 else _ops.transpose(input, [1, 0])


# Reductions -----------------------------------------------------------------------------------
sum = _f.sum  # noqa: A001
mean = _f.mean
prod = _f.prod
max = _f.max  # noqa: A001
min = _f.min  # noqa: A001
amax = _f.amax
amin = _f.amin
all = _f.all  # noqa: A001
any = _f.any  # noqa: A001
logsumexp = _f.logsumexp
var = _f.var
std = _f.std


def argmax(x, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the largest element along `axis` (of the flattened tensor when axis is None)."""
    if axis is None:
        return _ops.argmax(x, 0, keepdim, True, dtype)
    return _ops.argmax(x, axis, keepdim, False, dtype)


def argmin(x, axis=None, keepdim=False, dtype="int64", name=None):
    if axis is None:
        return _ops.argmin(x, 0, keepdim, True, dtype)
    return _ops.argmin(x, axis, keepdim, False, dtype)


def argsort(x, axis=-1, descending=False, stable=False, name=None):
    return _ops.argsort(x, axis, descending, stable)[1]


def cumsum(x, axis=None, dtype=None, name=None):
    if dtype is not None:
        x = _ops.cast(x, dtype)
    if axis is None:
        return _ops.cumsum(x, -1, True)
    return _ops.cumsum(x, axis)


def cumprod(x, dim=None, dtype=None, name=None):
    if dtype is not None:
        x = _ops.cast(x, dtype)
    if dim is None:
        return _ops.cumprod(_ops.flatten(x), 0)
    return _ops.cumprod(x, dim)


def count_nonzero(x, axis=None, keepdim=False, name=None):
    return _ops.sum(_ops.cast(_ops.not_equal(x, _ops.zeros_like(x)), "int64"), axis, None, keepdim)


def numel(x, name=None):
    return x.numel()


def shape(input):  # noqa: A002
    """The shape as a 1-D int32 tensor (paddle.shape)."""
    return _C.to_tensor(input.shape, dtype="int32")


def rank(input):  # noqa: A002
    return _C.to_tensor(input.ndim, dtype="int32")


# Elementwise compositions ---------------------------------------------------------------------
def pow(x, y, name=None):  # noqa: A001
    """x ** y: y a number (the `pow` op) or a tensor (`elementwise_pow`)."""
    if isinstance(y, _T):
        return _ops.elementwise_pow(x, y)
    return x.__pow__(y)


def clip(x, min=None, max=None, name=None):  # noqa: A002
    """Clamps to [min, max]; a missing bound does not clamp."""
    if min is None and max is None:
        return _ops.assign(x)
    if min is None:
        return _ops.minimum(x, _scalar_like(max, x))
    if max is None:
        return _ops.maximum(x, _scalar_like(min, x))
    return _ops.clip(x, min, max)


def _scalar_like(v, x):
    return v if isinstance(v, _T) else _ops.full([], v, x.dtype)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    out = _ops.scale(x, scale, bias, bias_after_scale)
    if act is not None:
        out = getattr(_ops, act)(out)
    return out


def log10(x, name=None):
    return _ops.scale(_ops.log(x), 1.0 / math.log(10.0))


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    diff = _ops.abs(_ops.subtract(x, y))
    ok = _ops.less_equal(diff, _ops.add(_ops.scale(_ops.abs(y), rtol), atol))
    if equal_nan:
        ok = _ops.logical_or(ok, _ops.logical_and(_ops.isnan(x), _ops.isnan(y)))
    return ok


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    return _ops.all(isclose(x, y, rtol, atol, equal_nan))


def equal_all(x, y, name=None):
    if x.shape != y.shape:
        return _C.to_tensor(False)
    return _ops.all(_ops.equal(x, y))


def where(condition, x=None, y=None, name=None):
    """Elements of x where condition holds, else of y; with x and y None: nonzero as a tuple."""
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise ValueError("where: arguments 'x' and 'y' expected both or neither, got one of them")
    if not isinstance(x, _T) and isinstance(y, _T):
        x = _ops.full([], x, y.dtype)
    elif not isinstance(y, _T) and isinstance(x, _T):
        y = _ops.full([], y, x.dtype)
    return _ops.where(condition, x, y)


def nonzero(x, as_tuple=False):
    idx = _ops.nonzero(x)
    if not as_tuple:
        return idx
    return tuple(_ops.slice(idx, [1], [i], [i + 1], [1]) for i in range(x.ndim))


# Shapes and layout ----------------------------------------------------------------------------
reshape = _f.reshape
flatten = _f.flatten
transpose = _f.transpose
squeeze = _f.squeeze


def unsqueeze(x, axis, name=None):
    """x with size-1 dims inserted at `axis` (an int, a list, or a Tensor)."""
    return _ops.unsqueeze(x, axis)


def expand(x, shape, name=None):
    """x broadcast to `shape` (-1 keeps a dim)."""
    return _ops.expand(x, shape)


broadcast_to = _f.broadcast_to
slice = _f.slice  # noqa: A001
strided_slice = _f.strided_slice
diagonal = _f.diagonal
chunk = _f.chunk
unbind = _f.unbind
concat = _f.concat
stack = _f.stack


def tile(x, repeat_times, name=None):
    """x repeated `repeat_times[i]` times along dim i."""
    return _ops.tile(x, repeat_times)


flip = _f.flip


def roll(x, shifts, axis=None, name=None):
    """x shifted circularly by `shifts` along `axis` (of the flattened tensor when None)."""
    return _ops.roll(x, shifts, axis)


tril = _f.tril
triu = _f.triu


def view(x, shape_or_dtype, name=None):
    return _ops.reshape(x, shape_or_dtype)


def split(x, num_or_sections, axis=0, name=None):
    """Equal parts (an int) or parts of the given sizes (a list; one entry may be -1)."""
    if isinstance(num_or_sections, int):
        return _ops.split_with_num(x, num_or_sections, axis)
    sections = [int(s) for s in num_or_sections]
    if -1 in sections:
        ax = axis if axis >= 0 else axis + x.ndim
        known = builtins.sum(s for s in sections if s != -1)
        sections[sections.index(-1)] = x.shape[ax] - known
    return _ops.split(x, sections, axis)


def tensor_split(x, num_or_indices, axis=0, name=None):
    n = x.shape[axis]
    if isinstance(num_or_indices, int):
        k = num_or_indices
        sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    else:
        bounds = [0] + [builtins.min(builtins.max(int(i), 0), n) for i in num_or_indices] + [n]
        sizes = [b - a for a, b in zip(bounds[:-1], bounds[1:])]
    return _ops.split(x, sizes, axis)


def expand_as(x, y, name=None):
    return _ops.expand(x, y.shape)


def broadcast_tensors(input, name=None):  # noqa: A002
    from .creation import _broadcast_shape
    shp = []
    for t in input:
        shp = _broadcast_shape(shp, t.shape)
    return [_ops.expand(t, shp) for t in input]


def broadcast_shape(x_shape, y_shape):
    from .creation import _broadcast_shape
    return _broadcast_shape(x_shape, y_shape)


def moveaxis(x, source, destination, name=None):
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    n = x.ndim
    src = [s % n for s in src]
    dst = [d % n for d in dst]
    order = [i for i in range(n) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _ops.transpose(x, order)


def take_along_axis(arr, indices, axis, broadcast=True):
    if broadcast and arr.ndim == indices.ndim:
        shp = [i if k == axis % arr.ndim else builtins.max(a, i)
               for k, (a, i) in enumerate(zip(arr.shape, indices.shape))]
        indices = _ops.expand(indices, shp)
        arr_shp = [a if k == axis % arr.ndim else s for k, (a, s) in enumerate(zip(arr.shape, shp))]
        arr = _ops.expand(arr, arr_shp)
    return _ops.take_along_axis(arr, indices, axis)


def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True,
                   broadcast=True):
    if not isinstance(values, _T):
        values = _ops.full([], values, arr.dtype)
    if broadcast:
        values = _ops.expand(values, indices.shape) if values.shape != indices.shape else values
    return _ops.put_along_axis(arr, indices, values, axis, reduce, include_self)


def repeat_interleave(x, repeats, axis=None, name=None):
    if axis is None:
        x, axis = _ops.flatten(x), 0
    if isinstance(repeats, _T):
        if repeats.ndim == 0 or repeats.size == 1:
            return _ops.repeat_interleave(x, int(repeats), axis)
        return _ops.repeat_interleave_with_tensor_index(x, repeats, axis)
    return _ops.repeat_interleave(x, repeats, axis)


def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", name=None):
    out, index, inverse, counts = _ops.unique(x, return_index, return_inverse, return_counts,
                                              [] if axis is None else axis, dtype)
    extra = [t for flag, t in ((return_index, index), (return_inverse, inverse),
                               (return_counts, counts)) if flag]
    return tuple([out] + extra) if extra else out


def dist(x, y, p=2, name=None):
    from ..linalg import vector_norm
    return vector_norm(_ops.subtract(x, y), p)


# In-place variants (Paddle's trailing underscore), one per record with an `inplace` field.
for _name in _C.inplace_names():
    globals()[_name] = getattr(_f, _name)


# Paddle calls trunc's argument `input` (paddle.trunc(input, name=None)), not `x`.
def trunc(input, name=None):  # noqa: A002
    return _f.trunc(input)


def trunc_(input, name=None):  # noqa: A002
    return _f.trunc_(input)


def masked_fill_(x, mask, value, name=None):  # here: the in-place loop above would replace it
    if _complex_value(value):
        return _ops.where_(_ops.logical_not(mask), x, _complex_fill(x, value, "masked_fill_"))
    return _f.masked_fill_(x, mask, value)


def increment(x, value=1.0, name=None):
    """x + value, written back into x (Paddle's in-place increment)."""
    _C._assign_into(x, _ops.add(x, _ops.full([], value, x.dtype)))
    return x


__all__ = [
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod", "maximum",
    "minimum", "equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
    "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_not", "lerp", "cast", "abs", "neg", "sign", "square", "exp",
    "expm1", "log", "log1p", "log2", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tan", "tanh",
    "asin", "acos", "atan", "sinh", "cosh", "erf", "floor", "ceil", "trunc", "round", "isnan",
    "isinf", "isfinite", "sigmoid", "scatter", "scatter_nd_add", "index_add", "masked_fill",
    "masked_select", "gather", "gather_nd", "index_select", "sort", "topk", "matmul", "bmm",
    "dot", "outer", "addmm", "mm", "t", "sum", "mean", "prod", "max", "min", "amax", "amin",
    "all", "any", "logsumexp", "var", "std", "argmax", "argmin", "argsort", "cumsum", "cumprod",
    "count_nonzero", "numel", "shape", "rank", "pow", "clip", "scale", "log10", "isclose",
    "allclose", "equal_all", "where", "nonzero", "reshape", "flatten", "transpose", "squeeze",
    "unsqueeze", "expand", "broadcast_to", "slice", "strided_slice", "diagonal", "chunk",
    "unbind", "concat", "stack", "tile", "flip", "roll", "tril", "triu", "view", "split",
    "tensor_split", "expand_as", "broadcast_tensors", "broadcast_shape", "moveaxis",
    "take_along_axis", "put_along_axis", "repeat_interleave", "unique", "dist", "increment",
    "floor_mod"
] + list(_C.inplace_names())
