"""Paddle's in-place random fills beyond uniform_/normal_: exponential_, cauchy_ and geometric_
(by inverse transform of one uniform draw per element from the seeded generator), and the
top-level paddle.normal_. Like uniform_ they write x's memory without autograd history (what
initializers do) and bump its inplace version; the draws are computed in float32 for 16-bit x.
"""
import math

from .. import _C, _errors

_ops = _C.ops
_T = _C.Tensor


def _check(op, x):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument 'x' expected a Tensor, got {type(x).__name__}")
    if not x.dtype.is_floating_point:
        raise _errors.InvalidType(f"{op}: argument 'x' expected a floating point tensor, got "
                                  f"{x.dtype.name}")


def _uniform(x, low, high):
    dtype = "float32" if x.dtype.name in ("float16", "bfloat16") else x.dtype
    return _ops.uniform(x.shape, dtype, low, high, 0)


def exponential_(x, lam=1.0, name=None):
    """x filled with Exponential(lam) draws: -log(1 - u) / lam."""
    _check("exponential_", x)
    u = _uniform(x, 0.0, 1.0)
    _C._assign_into(x, _ops.scale(_ops.log1p(_ops.neg(u)), -1.0 / lam, 0.0, True))
    return x


def cauchy_(x, loc=0, scale=1, name=None):
    """x filled with Cauchy(loc, scale) draws: loc + scale * tan(pi * (u - 1/2))."""
    _check("cauchy_", x)
    u = _uniform(x, 0.0, 1.0)
    t = _ops.tan(_ops.scale(u, math.pi, -0.5 * math.pi, True))
    _C._assign_into(x, _ops.scale(t, float(scale), float(loc), True))
    return x


def geometric_(x, probs, name=None):
    """x filled with Geometric(probs) draws, the number of trials up to the first success
    (values 1, 2, ...): ceil(log(u) / log(1 - probs)) for u in (0, 1]."""
    _check("geometric_", x)
    p = float(probs.item()) if isinstance(probs, _T) else float(probs)
    if not 0.0 < p <= 1.0:
        raise _errors.InvalidArgument(f"geometric_: argument 'probs' expected a value in (0, 1], "
                                      f"got {p}")
    if p == 1.0:
        _C._assign_into(x, _ops.ones(x.shape, x.dtype))
        return x
    u = _ops.scale(_uniform(x, 0.0, 1.0), -1.0, 1.0, True)  # (0, 1]
    k = _ops.ceil(_ops.scale(_ops.log(u), 1.0 / math.log1p(-p), 0.0, True))
    _C._assign_into(x, _ops.maximum(k, _ops.ones([], k.dtype)))
    return x


def normal_(x, mean=0.0, std=1.0, name=None):
    """x filled with Normal(mean, std) draws (Tensor.normal_ as a function)."""
    _check("normal_", x)
    return x.normal_(mean, std)


__all__ = ["exponential_", "cauchy_", "geometric_", "normal_"]
_METHODS = ["exponential_", "cauchy_", "geometric_"]
