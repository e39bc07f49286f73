"""paddle.bitwise_left_shift / bitwise_right_shift (and the in-place forms) with Paddle's
signature (x, y, is_arithmetic=True, out=None, name=None): the op records of math_functions.yaml,
plus Paddle's `out`, a tensor the result is also written into (and returned)."""
from .. import _C, _errors, _op_functions as _f

_T = _C.Tensor


def _into(op, result, out):
    if out is None:
        return result
    if not isinstance(out, _T):
        raise _errors.InvalidType(f"{op}: argument 'out' expected a Tensor, got "
                                  f"{type(out).__name__}")
    _C._assign_into(out, result)
    return out


def bitwise_left_shift(x, y, is_arithmetic=True, out=None, name=None):
    return _into("bitwise_left_shift", _f.bitwise_left_shift(x, y, is_arithmetic), out)


def bitwise_right_shift(x, y, is_arithmetic=True, out=None, name=None):
    return _into("bitwise_right_shift", _f.bitwise_right_shift(x, y, is_arithmetic), out)


def bitwise_left_shift_(x, y, is_arithmetic=True, out=None, name=None):
    return _into("bitwise_left_shift_", _f.bitwise_left_shift_(x, y, is_arithmetic), out)


def bitwise_right_shift_(x, y, is_arithmetic=True, out=None, name=None):
    return _into("bitwise_right_shift_", _f.bitwise_right_shift_(x, y, is_arithmetic), out)


__all__ = ["bitwise_left_shift", "bitwise_right_shift", "bitwise_left_shift_",
           "bitwise_right_shift_"]
_METHODS = list(__all__)
