"""Tensor creation with Paddle's signatures. Float dtypes default to get_default_dtype().

to_tensor copies its data, except from a read-only, C-contiguous, aligned numpy array whose
dtype is the target dtype (e.g. np.asarray(tensor), a read-only view): that memory is shared.
"""
import builtins

from .. import _C, _op_functions as _f

_ops = _C.ops
_to_tensor = _C.to_tensor


def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """A tensor holding a copy of `data` (number, list, numpy array, Tensor)."""
    return _to_tensor(data, dtype, place, stop_gradient)


def _float_dtype(dtype):
    return _C.get_default_dtype() if dtype is None else dtype


def zeros(shape, dtype=None, name=None):
    return _ops.zeros(shape, _float_dtype(dtype))


def ones(shape, dtype=None, name=None):
    return _ops.ones(shape, _float_dtype(dtype))


def empty(shape, dtype=None, name=None):
    """Uninitialized in Paddle; zero-filled here (the same cost on a caching allocator)."""
    return _ops.zeros(shape, _float_dtype(dtype))


def full(shape, fill_value, dtype=None, name=None):
    if dtype is None:
        dtype = _C.dtype.bool if isinstance(fill_value, builtins.bool) else _C.get_default_dtype()
    return _ops.full(shape, fill_value, dtype)


zeros_like = _f.zeros_like
ones_like = _f.ones_like
full_like = _f.full_like


def empty_like(x, dtype=None, name=None):
    return _ops.zeros_like(x, dtype)


def _is_float(v):
    if isinstance(v, _C.Tensor):
        return v.dtype.is_floating_point
    return isinstance(v, float)


def arange(start=0, end=None, step=1, dtype=None, name=None):
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = _C.get_default_dtype() if any(_is_float(v) for v in (start, end, step)) \
            else _C.dtype.int64
    return _ops.arange(start, end, step, dtype)


def linspace(start, stop, num, dtype=None, name=None):
    return _ops.linspace(start, stop, num, _float_dtype(dtype))


def eye(num_rows, num_columns=None, dtype=None, name=None):
    return _ops.eye(num_rows, -1 if num_columns is None else num_columns, _float_dtype(dtype))


def rand(shape, dtype=None, name=None):
    return _ops.uniform(shape, _float_dtype(dtype), 0.0, 1.0, 0)


def uniform(shape, dtype=None, min=-1.0, max=1.0, seed=0, name=None):  # noqa: A002
    return _ops.uniform(shape, _float_dtype(dtype), min, max, seed)


def randn(shape, dtype=None, name=None):
    return _ops.gaussian(shape, 0.0, 1.0, 0, _float_dtype(dtype))


standard_normal = randn


def normal(mean=0.0, std=1.0, shape=None, name=None):
    """Tensors for mean/std give one draw per element (their broadcast shape)."""
    if isinstance(mean, _C.Tensor) or isinstance(std, _C.Tensor):
        ref = mean if isinstance(mean, _C.Tensor) else std
        m = mean if isinstance(mean, _C.Tensor) else _ops.full_like(ref, mean)
        s = std if isinstance(std, _C.Tensor) else _ops.full_like(ref, std)
        out_shape = _broadcast_shape(m.shape, s.shape)
        return m + s * _ops.gaussian(out_shape, 0.0, 1.0, 0, ref.dtype)
    if shape is None:
        raise ValueError("normal: argument 'shape' expected a shape when mean and std are "
                         "numbers, got None")
    return _ops.gaussian(shape, float(mean), float(std), 0, _C.get_default_dtype())


def randint(low=0, high=None, shape=[1], dtype=None, name=None):  # noqa: B006 (Paddle's default)
    if high is None:
        low, high = 0, low
    return _ops.randint(low, high, shape, _C.dtype.int64 if dtype is None else dtype)


def randint_like(x, low=0, high=None, dtype=None, name=None):
    if high is None:
        low, high = 0, low
    return _ops.randint(low, high, x.shape, x.dtype if dtype is None else dtype)


def randperm(n, dtype="int64", name=None):
    return _ops.randperm(n, dtype)


def assign(x, output=None):
    """A copy of x (differentiable); with `output`, written into it in place."""
    if not isinstance(x, _C.Tensor):
        x = to_tensor(x)
    if output is not None:
        _C._assign_into(output, x)
        return output
    return _ops.assign(x)


def clone(x, name=None):
    return _ops.assign(x)


def meshgrid(*args, **kwargs):
    """Coordinate grids of 1-D tensors (indexing 'ij', Paddle's only mode)."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    n = len(args)
    shape = [a.shape[0] if a.ndim == 1 else 1 for a in args]
    for i, a in enumerate(args):
        if a.ndim != 1:
            raise ValueError(f"meshgrid: argument {i} expected a 1-D tensor, got shape {a.shape}")
    out = []
    for i, a in enumerate(args):
        view = [1] * n
        view[i] = shape[i]
        out.append(_ops.expand(_ops.reshape(a, view), shape))
    return out


def _broadcast_shape(a, b):
    a, b = list(a), list(b)
    n = builtins.max(len(a), len(b))
    a = [1] * (n - len(a)) + a
    b = [1] * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise ValueError(f"broadcast_shape: shapes {a} and {b} are not broadcastable")
        out.append(builtins.max(x, y) if x != 0 and y != 0 else 0)
    return out


__all__ = [
    "to_tensor", "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "full_like",
    "empty_like", "arange", "linspace", "eye", "rand", "uniform", "randn", "standard_normal",
    "normal", "randint", "randint_like", "randperm", "assign", "clone", "meshgrid"
]
