"""Paddle's special functions: the op records of skiff/ops/yaml/special.yaml (lgamma, digamma,
polygamma, erfinv, i0, i0e, i1, i1e, gammaincc, nextafter) with Paddle's Python-side argument
checks, and the compositions Paddle writes in Python: gammaln (lgamma), gammainc (1 - gammaincc),
multigammaln (a sum of lgamma), and their in-place forms.
"""
import math

from .. import _C, _errors, _op_functions as _f
from . import inplace_functions as _inplace

_ops = _C.ops
_T = _C.Tensor

lgamma = _f.lgamma
lgamma_ = _f.lgamma_
digamma = _f.digamma
digamma_ = _f.digamma_
erfinv = _f.erfinv
erfinv_ = _f.erfinv_
i0 = _f.i0
i0_ = _f.i0_
i0e = _f.i0e
i1 = _f.i1
i1e = _f.i1e
nextafter = _f.nextafter


def gammaln(x, name=None):
    """log|Gamma(x)| (paddle.gammaln, the same function as lgamma)."""
    return _f.lgamma(x)


def gammaln_(x, name=None):
    return _inplace._assign("gammaln_", _f.lgamma, x)


def _check_order(op, n):
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"{op}: the input of n must be int type, but received: {type(n).__name__}")
    if n < 0:
        raise ValueError(f"{op}: the input of n must be greater than or equal to 0. But received "
                         f"n = {n}")


def polygamma(x, n, name=None):
    """The n-th derivative of digamma (n >= 0; n = 0 is digamma)."""
    _check_order("polygamma", n)
    return _f.polygamma(x, n)


def polygamma_(x, n, name=None):
    _check_order("polygamma_", n)
    return _f.polygamma_(x, n)


def _check_nonnegative(op, x, y):
    for arg, t in (("x", x), ("y", y)):
        if not isinstance(t, _T):
            raise _errors.InvalidType(f"{op}: argument '{arg}' expected a Tensor, got "
                                      f"{type(t).__name__}")
        if t.size and bool(_ops.any(_ops.less_than(t, _ops.zeros([], t.dtype)))):
            raise ValueError(f"{op}: the input argument {arg} must be greater than or equal to 0.")


def gammaincc(x, y, name=None):
    """Q(x, y) = Gamma(x, y) / Gamma(x), the regularized upper incomplete gamma function
    (x, y >= 0); differentiable in y."""
    _check_nonnegative("gammaincc", x, y)
    return _f.gammaincc(x, y)


def gammaincc_(x, y, name=None):
    _check_nonnegative("gammaincc_", x, y)
    return _inplace._assign("gammaincc_", _f.gammaincc, x, y)


def gammainc(x, y, name=None):
    """P(x, y) = 1 - Q(x, y), the regularized lower incomplete gamma function."""
    _check_nonnegative("gammainc", x, y)
    return _ops.scale(_f.gammaincc(x, y), -1.0, 1.0, True)


def gammainc_(x, y, name=None):
    _check_nonnegative("gammainc_", x, y)
    return _inplace._assign("gammainc_", gammainc, x, y)


def multigammaln(x, p, name=None):
    """log of the multivariate gamma function of dimension p >= 1:
    sum_{i<p} lgamma(x - i/2) + p (p - 1) / 4 log(pi)."""
    if not isinstance(p, int) or p < 1:
        raise ValueError(f"multigammaln: the p must be greater than or equal to 1, but received "
                         f"p is {p}")
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"multigammaln: argument 'x' expected a Tensor, got "
                                  f"{type(x).__name__}")
    c = 0.25 * p * (p - 1) * math.log(math.pi)
    b = _ops.scale(_ops.arange(1 - p, 1, 1, x.dtype), 0.5, 0.0, True)
    return _ops.scale(_ops.sum(_f.lgamma(_ops.add(_ops.unsqueeze(x, [-1]), b)), [-1], None, False),
                      1.0, c, True)


def multigammaln_(x, p, name=None):
    return _inplace._assign("multigammaln_", multigammaln, x, p)


__all__ = ["lgamma", "lgamma_", "gammaln", "gammaln_", "digamma", "digamma_", "polygamma",
           "polygamma_", "erfinv", "erfinv_", "i0", "i0_", "i0e", "i1", "i1e", "gammaincc",
           "gammaincc_", "gammainc", "gammainc_", "multigammaln", "multigammaln_", "nextafter"]
_METHODS = list(__all__)
