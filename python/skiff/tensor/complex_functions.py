"""Complex numbers (Paddle's paddle.real, imag, conj, complex, as_complex, as_real, angle, polar,
sgn, is_complex). real/imag/conj/complex/as_complex/as_real/angle are the op records' generated
functions (skiff/ops/yaml/complex.yaml, conjugate Wirtinger gradients); polar and sgn are
compositions of them, as in Paddle.
"""
from .. import _C, _errors
from .. import _op_functions as _f

_T = _C.Tensor
_D = _C.dtype

real = _f.real
imag = _f.imag
conj = _f.conj
complex = _f.complex  # noqa: A001  (Paddle's name)
as_complex = _f.as_complex
as_real = _f.as_real
angle = _f.angle


def is_complex(x):
    """Whether x's dtype is complex64 or complex128."""
    if not isinstance(x, _T):
        raise TypeError(f"is_complex: expected Tensor, but received type of x: {type(x).__name__}")
    return x.dtype in (_D.complex64, _D.complex128)


def polar(abs, angle, name=None):  # noqa: A002  (Paddle's names)
    """abs * (cos(angle) + i sin(angle)); abs and angle are float32 or float64."""
    for arg, t in (("abs", abs), ("angle", angle)):
        if not isinstance(t, _T):
            raise _errors.InvalidType(f"polar: argument '{arg}' expected a Tensor, got "
                                      f"{type(t).__name__}")
    return _f.complex(_f.multiply(abs, _f.cos(angle)), _f.multiply(abs, _f.sin(angle)))


def sgn(x, name=None):
    """x / |x| for complex x (0 where x is 0), sign(x) for real x."""
    if not is_complex(x):
        return _f.sign(x)
    r = _f.abs(x)
    safe = _f.where(_f.equal(r, _f.zeros_like(r)), _f.ones_like(r), r)
    return _f.divide(x, _f.cast(safe, x.dtype))


__all__ = ["real", "imag", "conj", "complex", "as_complex", "as_real", "angle", "is_complex",
           "polar", "sgn"]
_METHODS = ("real", "imag", "conj", "angle", "is_complex", "as_complex", "as_real", "sgn", "polar")
