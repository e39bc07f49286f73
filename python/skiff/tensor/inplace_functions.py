"""Paddle's in-place variants that have no op record of their own (cumsum_, log10_, equal_,
reshape_, cast_, addmm_, ...), with Paddle's signatures.

Each computes the out-of-place result and hands it to the extension (skiff/python/inplace_bind.cc),
which gives it the generated in-place ops' semantics: the Python object passed as x is returned;
in grad mode a leaf that requires grad is refused; x's inplace version goes up by one; the
result's autograd history becomes x's.
- Same shape and dtype (cumsum_, log10_, bitwise_and_, floor_mod_, addmm_): `_inplace_assign`
  writes the values into x's memory, so views of x see them.
- Another dtype (cast_, the comparisons and logical ops, whose in-place kernels in Paddle retype
  x to bool) or shape (reshape_, squeeze_, unsqueeze_, flatten_, t_, transpose_: views of x's
  memory): `_inplace_rebind` makes x a handle to the result.
Paddle checks an in-place binary op's broadcast shape in Python (ValueError); so do these.
"""
from .. import _C, _errors, _op_functions as _f
from . import functions as _fn

_ops = _C.ops
_T = _C.Tensor


def _recording(x, args):
    """Whether autograd records the op: then it reads a copy of x, since the tensors its rule
    saves must not be the memory this or a later in-place write changes (the generated ops copy
    too)."""
    return _C.is_grad_enabled() and any(
        isinstance(a, _T) and not a.stop_gradient for a in (x,) + args)


def _assign(op, fn, x, *args):
    """fn(x, *args) written into x's memory."""
    src = _ops.assign(x) if _recording(x, args) else x
    return _C._inplace_assign(op, x, fn(src, *args))


def _rebind(op, fn, x, *args):
    """x made a handle to fn(x, *args): a view of x's memory for the view ops, unless autograd
    records them (then a copy of the view, as setitem with autograd writes a copy)."""
    return _C._inplace_rebind(op, x, lambda src: fn(src, *args), _recording(x, args))


def _check_tensor(op, x):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument 'x' expected a Tensor, got {type(x).__name__}")


def _check_broadcast(op, x, y):
    """Paddle's check: the broadcast result may not grow x."""
    if isinstance(y, _T):
        shape = _fn.broadcast_shape(x.shape, y.shape)
        if shape != x.shape:
            raise ValueError(f"{op}: the shape of broadcast output {shape} is different from that "
                             f"of inplace tensor {x.shape} in the Inplace operation.")


def _binary_assign(op, fn):
    def inplace(x, y, name=None):
        _check_tensor(op, x)
        _check_broadcast(op, x, y)
        return _assign(op, fn, x, y)
    inplace.__name__ = inplace.__qualname__ = op
    inplace.__doc__ = f"In-place {op[:-1]}: the result is written into x, which is returned."
    return inplace


def _binary_rebind(op, fn):
    def inplace(x, y, name=None):
        _check_tensor(op, x)
        _check_broadcast(op, x, y)
        return _rebind(op, fn, x, y)
    inplace.__name__ = inplace.__qualname__ = op
    inplace.__doc__ = (f"In-place {op[:-1]}: x becomes the bool result (Paddle retypes x's "
                       f"memory), and is returned.")
    return inplace


bitwise_and_ = _binary_assign("bitwise_and_", _f.bitwise_and)
bitwise_or_ = _binary_assign("bitwise_or_", _f.bitwise_or)
bitwise_xor_ = _binary_assign("bitwise_xor_", _f.bitwise_xor)
floor_mod_ = _binary_assign("floor_mod_", _f.remainder)
mod_ = _binary_assign("mod_", _f.remainder)
equal_ = _binary_rebind("equal_", _f.equal)
not_equal_ = _binary_rebind("not_equal_", _f.not_equal)
less_than_ = _binary_rebind("less_than_", _f.less_than)
less_equal_ = _binary_rebind("less_equal_", _f.less_equal)
greater_than_ = _binary_rebind("greater_than_", _f.greater_than)
greater_equal_ = _binary_rebind("greater_equal_", _f.greater_equal)
logical_and_ = _binary_rebind("logical_and_", _f.logical_and)
logical_or_ = _binary_rebind("logical_or_", _f.logical_or)
logical_xor_ = _binary_rebind("logical_xor_", _f.logical_xor)


def bitwise_not_(x, name=None):
    _check_tensor("bitwise_not_", x)
    return _assign("bitwise_not_", _f.bitwise_not, x)


def logical_not_(x, name=None):
    _check_tensor("logical_not_", x)
    return _rebind("logical_not_", _f.logical_not, x)


def log10_(x, name=None):
    _check_tensor("log10_", x)
    return _assign("log10_", _fn.log10, x)


def _cumulative(op, fn, x, axis, dtype):
    """Paddle's cumsum_/cumprod_ flatten x when axis is None and cast it to dtype first: then
    x takes the result's shape or dtype."""
    if axis is None or (dtype is not None and x.dtype != dtype):
        return _rebind(op, fn, x, axis, dtype)
    return _assign(op, fn, x, axis, dtype)


def cumsum_(x, axis=None, dtype=None, name=None):
    _check_tensor("cumsum_", x)
    return _cumulative("cumsum_", _fn.cumsum, x, axis, dtype)


def cumprod_(x, dim=None, dtype=None, name=None):
    _check_tensor("cumprod_", x)
    return _cumulative("cumprod_", _fn.cumprod, x, dim, dtype)


def addmm_(input, x, y, beta=1.0, alpha=1.0, name=None):  # noqa: A002
    """input = beta * input + alpha * (x @ y), in place (input keeps its shape)."""
    _check_tensor("addmm_", input)
    return _assign("addmm_", _fn.addmm, input, x, y, beta, alpha)


def cast_(x, dtype):
    _check_tensor("cast_", x)
    return _rebind("cast_", _f.cast, x, dtype)


def reshape_(x, shape, name=None):
    _check_tensor("reshape_", x)
    return _rebind("reshape_", _fn.reshape, x, shape)


def squeeze_(x, axis=None, name=None):
    _check_tensor("squeeze_", x)
    return _rebind("squeeze_", _fn.squeeze, x, axis)


def unsqueeze_(x, axis, name=None):
    _check_tensor("unsqueeze_", x)
    return _rebind("unsqueeze_", _fn.unsqueeze, x, axis)


def flatten_(x, start_axis=0, stop_axis=-1, name=None):
    _check_tensor("flatten_", x)
    return _rebind("flatten_", _fn.flatten, x, start_axis, stop_axis)


def transpose_(x, perm, name=None):
    _check_tensor("transpose_", x)
    return _rebind("transpose_", _fn.transpose, x, perm)


def t_(input, name=None):  # noqa: A002
    _check_tensor("t_", input)
    return _rebind("t_", _fn.t, input)


__all__ = [
    "bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_not_", "floor_mod_", "mod_",
    "equal_", "not_equal_", "less_than_", "less_equal_", "greater_than_", "greater_equal_",
    "logical_and_", "logical_or_", "logical_xor_", "logical_not_", "log10_", "cumsum_",
    "cumprod_", "addmm_", "cast_", "reshape_", "squeeze_", "unsqueeze_", "flatten_",
    "transpose_", "t_",
]
_METHODS = list(__all__)
