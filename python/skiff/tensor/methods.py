"""Methods of skiff.Tensor that mirror the functions (Paddle monkey-patches them the same way),
plus the Python-level protocol pieces: repr, indexing, iteration, name, item/tolist.

Every method is a Python function: the op records' generated functions (skiff._op_functions,
Paddle's signatures) or the compositions of functions.py, attached as they are.
"""
import itertools
import types

import numpy as np

from .. import _C, _op_functions
from . import creation, functions, indexing, math_functions

_T = _C.Tensor

# Functions whose first argument is the tensor, exposed as methods under the same name.
_METHODS = [
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod", "floor_mod",
    "maximum", "minimum", "equal", "not_equal", "less_than", "less_equal", "greater_than",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
    "bitwise_or", "bitwise_xor", "bitwise_not", "lerp", "cast", "abs", "neg", "sign", "square",
    "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "reciprocal", "sin", "cos",
    "tan", "tanh", "asin", "acos", "atan", "sinh", "cosh", "erf", "floor", "ceil", "trunc",
    "round", "isnan", "isinf", "isfinite", "sigmoid", "scatter", "scatter_nd_add", "index_add",
    "masked_fill", "masked_select", "gather", "gather_nd", "index_select", "sort", "topk",
    "matmul", "bmm", "dot", "outer", "mm", "t", "sum", "mean", "prod", "max", "min", "amax",
    "amin", "all", "any", "logsumexp", "var", "std", "argmax", "argmin", "argsort", "cumsum",
    "cumprod", "count_nonzero", "pow", "clip", "scale", "isclose", "allclose", "equal_all",
    "nonzero", "reshape", "flatten", "transpose", "squeeze", "unsqueeze", "expand",
    "broadcast_to", "strided_slice", "diagonal", "chunk", "unbind", "tile", "flip", "roll",
    "tril", "triu", "view", "split", "tensor_split", "expand_as", "moveaxis",
    "take_along_axis", "put_along_axis", "repeat_interleave", "unique", "dist",
]


def _attach(name, fn):
    if isinstance(fn, types.FunctionType):
        setattr(_T, name, fn)
    else:  # a bound C++ op: bind `self` without a Python frame
        setattr(_T, name, _C._instancemethod(fn))


def astype(self, dtype):
    return _C.ops.cast(self, dtype)


def item(self, *args):
    return (self.numpy() if _C.dist.is_dist(self) else np.asarray(self)).item(*args)


def tolist(self):
    return np.asarray(self).tolist()


def gradient(self):
    """The gradient as a numpy array (None when there is none)."""
    g = self.grad
    return None if g is None else np.array(g)


def register_hook(self, hook):
    """`hook(grad)` runs when the gradient of this tensor is computed; a returned tensor
    replaces it. Returns a handle whose remove() disables the hook."""
    return _C.register_hook(self, hook)


def clone(self):
    return _C.ops.assign(self)


def cpu(self):
    return self if self.place.is_cpu_place() else _C.to_tensor(self, place="cpu")


def cuda(self, device_id=None, blocking=True):
    return _C.to_tensor(self, place=f"gpu:{device_id or 0}")


def to(self, *args, **kwargs):
    """to(device), to(dtype), to(device, dtype) (Paddle's Tensor.to)."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("blocking", None)
    for a in args:
        if isinstance(a, (_C.Place,)) or (isinstance(a, str) and a.split(":")[0] in
                                            ("cpu", "gpu", "cuda", *_C.device.custom_device_types())):
            device = a
        elif a is not None:
            dtype = a
    out = self
    if dtype is not None and out.dtype != dtype:
        out = _C.ops.cast(out, dtype)
    if device is not None and out.place != _C.Place(device):
        out = _C.to_tensor(out, place=device)
    return out


def fill_(self, value):
    """Fills in place (no autograd: what initializers use)."""
    _C._assign_into(self, _C.to_tensor(value, dtype=self.dtype))
    return self


def zero_(self):
    return fill_(self, 0)


def uniform_(self, min=-1.0, max=1.0, seed=0):  # noqa: A002
    _C._assign_into(self, _C.ops.uniform(self.shape, self.dtype, min, max, seed))
    return self


def normal_(self, mean=0.0, std=1.0):
    _C._assign_into(self, _C.ops.gaussian(self.shape, mean, std, 0, self.dtype))
    return self


def _rebuild_tensor(cls, array, dtype, stop_gradient):
    t = _C.to_tensor(array, dtype=dtype)
    if cls is not _T:
        sub = cls.__new__(cls)
        _T.__init__(sub, t)  # the subclass' __init__ is not rerun; its __dict__ is restored
        t = sub
    if not stop_gradient:
        t.stop_gradient = False
    return t


def __reduce_ex__(self, protocol):
    """Pickling: data (a numpy copy), dtype, stop_gradient, class and Python attributes."""
    return (_rebuild_tensor, (type(self), np.array(self), self.dtype.name, self.stop_gradient),
            dict(self.__dict__) or None)


def __deepcopy__(self, memo):
    """A tensor with copied data (no autograd history), same class and deep-copied attributes."""
    import copy
    with_data = _C.to_tensor(self)
    new = _rebuild_tensor(type(self), with_data, self.dtype.name, self.stop_gradient) \
        if type(self) is not _T else with_data
    if type(self) is _T and not self.stop_gradient:
        new.stop_gradient = False
    memo[id(self)] = new
    for k, v in self.__dict__.items():
        setattr(new, k, copy.deepcopy(v, memo))
    return new


def __iter__(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-D tensor")
    for i in range(self.shape[0]):
        yield indexing.getitem(self, i)


_counter = itertools.count()


def _get_name(self):
    d = self.__dict__
    n = d.get("_name")
    if n is None:
        n = d["_name"] = f"generated_tensor_{next(_counter)}"
        if self.is_symbolic:  # a static program variable: Executor.run fetches it by name
            _register_static_name(n, self)
    return n


def _set_name(self, value):
    self.__dict__["_name"] = value
    if value is not None and self.is_symbolic:
        _register_static_name(value, self)


def _register_static_name(name, t):
    from ..static.program import _register_name
    _register_name(name, t)


PRINT_OPTIONS = {"precision": 8, "threshold": 1000, "edgeitems": 3, "linewidth": 80}


def __repr__(self):
    """Paddle's form: Tensor(shape=[2, 3], dtype=float32, place=Place(cpu),
    stop_gradient=True,\n       [[1., 2., 3.], ...])"""
    if not self._is_initialized():
        return "Tensor(Not initialized)"
    if self.is_symbolic:  # a static program variable has no data to print
        return (f"Var(name={self.name}, shape={self.shape}, dtype={self.dtype.name}, "
                f"stop_gradient={self.stop_gradient})")
    head = (f"Tensor(shape={self.shape}, dtype={self.dtype.name}, place={self.place}, "
            f"stop_gradient={self.stop_gradient},\n")
    prefix = "       "
    body = np.array2string(np.asarray(self), separator=", ", prefix=prefix,
                           max_line_width=PRINT_OPTIONS["linewidth"],
                           precision=PRINT_OPTIONS["precision"],
                           threshold=PRINT_OPTIONS["threshold"],
                           edgeitems=PRINT_OPTIONS["edgeitems"],
                           suppress_small=PRINT_OPTIONS.get("suppress"))
    return head + prefix + body + ")"


def _get_data(self):
    """Paddle's Tensor.data: the tensor itself; assigning writes the value in place."""
    return self


def _set_data(self, value):
    self.set_value(value)


def norm(self, p=None, axis=None, keepdim=False, name=None):
    from ..linalg import norm as _norm
    return _norm(self, p, axis, keepdim)


def _T_prop(self):
    return self if self.ndim < 2 else _C.ops.transpose(self, list(range(self.ndim))[::-1])


def _format(self, spec):
    if self.ndim == 0:
        return format(self.item(), spec)
    return format(repr(self), spec)


# The protocol methods bound in C++ (tensor_bind.cc), as Python functions with Paddle's
# signatures; each calls the C++ method it replaces (held in _CPP).
_CPP = {}


def backward(self, grad_tensor=None, retain_graph=False):
    """Computes the gradients of this tensor w.r.t. the graph leaves (accumulated in .grad)."""
    _CPP["backward"](self, grad_tensor, retain_graph)


def clear_grad(self, set_to_zero=True):
    """Zeroes the gradient in place (set_to_zero) or drops it."""
    _CPP["clear_grad"](self, set_to_zero)


def clear_gradient(self, set_to_zero=True):
    _CPP["clear_gradient"](self, set_to_zero)


def contiguous(self):
    return _CPP["contiguous"](self)


def copy_(self, src, blocking=True):
    """Copies src's values into this tensor's memory."""
    return _CPP["copy_"](self, src, blocking)


def data_ptr(self):
    return _CPP["data_ptr"](self)


def detach(self):
    """A tensor sharing this one's data, without autograd history."""
    return _CPP["detach"](self)


def dim(self):
    return _CPP["dim"](self)


def ndimension(self):
    return _CPP["ndimension"](self)


def element_size(self):
    return _CPP["element_size"](self)


def get_strides(self):
    return _CPP["get_strides"](self)


def is_contiguous(self):
    return _CPP["is_contiguous"](self)


def numel(self, name=None):
    return _CPP["numel"](self)


def numpy(self, *args, **kwargs):
    """A numpy array holding a copy of the values (Paddle's optional arguments are ignored); for
    a dist tensor, the global value (a reshard to Replicate: every rank of the mesh calls it)."""
    if _C.dist.is_dist(self):
        from ..distributed.auto_parallel.api import unshard_dtensor
        return _CPP["numpy"](unshard_dtensor(self))
    return _CPP["numpy"](self)


def _global_dense(self):
    from ..distributed.auto_parallel.api import unshard_dtensor
    return unshard_dtensor(self)


def __float__(self):
    """The single element as a float; a dist tensor's global value (as numpy(): every rank of
    the mesh calls it), so `float(loss)` reads a distributed loss."""
    return _CPP["__float__"](_global_dense(self) if _C.dist.is_dist(self) else self)


def __int__(self):
    return _CPP["__int__"](_global_dense(self) if _C.dist.is_dist(self) else self)


def __bool__(self):
    return _CPP["__bool__"](_global_dense(self) if _C.dist.is_dist(self) else self)


def retain_grads(self):
    _CPP["retain_grads"](self)


def set_value(self, value):
    """Writes `value` (a Tensor or array data of this tensor's shape) in place; a dist tensor
    takes its own piece of the value (a dist value resharded to its layout first)."""
    if _C.dist.is_dist(self):
        from ..distributed.auto_parallel.api import reshard, shard_tensor
        mesh, placements = self.process_mesh, self.placements
        if isinstance(value, _T) and _C.dist.is_dist(value):
            value = reshard(value, mesh, placements)
        else:
            value = shard_tensor(value, mesh, placements)
        _CPP["set_value"](self._local_value(), value._local_value())
        return
    _CPP["set_value"](self, value)


_PROTOCOL = (backward, clear_grad, clear_gradient, contiguous, copy_, data_ptr, detach, dim,
             ndimension, element_size, get_strides, is_contiguous, numel, numpy, retain_grads,
             set_value, __float__, __int__, __bool__)


def install():
    for fn in _PROTOCOL:
        if fn.__name__ not in _CPP:
            _CPP[fn.__name__] = getattr(_T, fn.__name__)
        setattr(_T, fn.__name__, fn)
    for name in _METHODS:
        _attach(name, getattr(functions, name))
    for name in _C.inplace_names():  # x.add_(y), x.exp_(), ... (return x itself)
        _attach(name, getattr(_op_functions, name))
    _attach("trunc_", functions.trunc_)  # Paddle's trunc_(input, name=None)
    _attach("masked_fill_", functions.masked_fill_)  # a complex value fills through where_
    for fn in (astype, item, tolist, gradient, register_hook, clone, cpu, cuda, to, fill_, zero_,
               uniform_, normal_, __iter__, __repr__, __reduce_ex__, __deepcopy__, norm):
        setattr(_T, fn.__name__, fn)
    from . import stat  # statistics: median, quantile, kthvalue, ...
    for name in stat._METHODS:
        setattr(_T, name, getattr(stat, name))
    from .. import linalg  # the LAPACK functions and their compositions
    for name in linalg._METHODS:
        setattr(_T, name, getattr(linalg, name))
    _T.multi_dot = linalg.multi_dot
    from .manipulation_functions import multiplex
    _T.multiplex = multiplex
    for name in math_functions._METHODS:
        setattr(_T, name, getattr(math_functions, name))
    from . import index_functions  # take, index_fill, masked_scatter, vander, combinations
    for name in index_functions._METHODS:
        setattr(_T, name, getattr(index_functions, name))
    from . import math_compositions  # logaddexp, nan_to_num, fmax, hypot, isin, trapezoid, ...
    for name in math_compositions._METHODS:
        setattr(_T, name, getattr(math_compositions, name))
    from . import manipulation_functions  # atleast_*, splits, unflatten, *_scatter, ...
    for name in manipulation_functions._METHODS:
        setattr(_T, name, getattr(manipulation_functions, name))
    from . import inplace_functions  # cumsum_, equal_, reshape_, cast_, ... (Python in-place)
    for name in inplace_functions._METHODS:
        setattr(_T, name, getattr(inplace_functions, name))
    from . import array_functions, attribute, bit_shifts, complex_functions, random_fill
    from . import special_functions
    for module in (array_functions, attribute, bit_shifts, complex_functions, random_fill,
                   special_functions):
        for name in module._METHODS:
            setattr(_T, name, getattr(module, name))
    # Functions Paddle also lists as Tensor methods (tensor_method_func), attached as they are.
    for name in ("addmm", "broadcast_shape", "broadcast_tensors", "concat", "stack", "where",
                 "slice", "rank", "increment"):
        setattr(_T, name, getattr(functions, name))
    _T.__str__ = __repr__
    _T.__format__ = _format
    _C._set_getitem_fallback(indexing.getitem)  # Tensor.__getitem__ (C++) handles basic indices
    _T.__setitem__ = indexing.setitem
    _T.name = property(_get_name, _set_name)
    _T.T = property(_T_prop)
    _T.data = property(_get_data, _set_data)
    _T.persistable = False
    _T.zeros_like = creation.zeros_like
    # Paddle's spelling of the type names (paddle.Tensor): skiff.Tensor, skiff.dtype, skiff.Place.
    for cls in (_T, _C.dtype, _C.Place, _C.CPUPlace, _C.CUDAPlace, _C.CustomPlace, _C.XPUPlace,
                _C.CUDAPinnedPlace):
        cls.__module__ = "skiff"
    # numpy defers to Tensor's reflected operators (np.float32(2) * t is a Tensor).
    _T.__array_priority__ = 100
