"""paddle.standard_gamma: one Gamma(x, 1) draw per element of x (the shape parameters), from the
seeded generator, by Marsaglia and Tsang's squeeze-free method (2000): for a >= 1, with
d = a - 1/3 and c = 1 / sqrt(9 d), v = (1 + c z)^3 for a normal z is accepted when
log u < z^2 / 2 + d - d v + d log v, and d v is the draw; for a < 1 the draw for a + 1 is scaled
by u^(1/a). Rejected elements are redrawn, as a masked round over the whole tensor (about 1.05
rounds on average), so the shape never depends on the draws. No gradient (as in Paddle)."""
from .. import _C, _errors

_ops = _C.ops
_T = _C.Tensor


def standard_gamma(x, name=None):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"standard_gamma: argument 'x' expected a Tensor, got "
                                  f"{type(x).__name__}")
    if x.dtype.name not in ("float32", "float64"):
        raise _errors.InvalidType(f"standard_gamma: argument 'x' expected a float32 or float64 "
                                  f"tensor, got {x.dtype.name}")
    prev = _C.is_grad_enabled()
    _C.set_grad_enabled(False)
    try:
        return _draw(x)
    finally:
        _C.set_grad_enabled(prev)


def _draw(x):
    shape, dtype = x.shape, x.dtype
    if x.size and bool(_ops.any(_ops.less_equal(x, _ops.zeros([], dtype)))):
        raise _errors.InvalidArgument("standard_gamma: argument 'x' expected positive shape "
                                      "parameters (alpha > 0)")
    one = _ops.ones([], dtype)
    small = _ops.less_than(x, one)
    a = _ops.where(small, _ops.add(x, one), x)
    d = _ops.subtract(a, _ops.full([], 1.0 / 3.0, dtype))
    c = _ops.reciprocal(_ops.sqrt(_ops.scale(d, 9.0, 0.0, True)))
    out = _ops.zeros(shape, dtype)
    todo = _ops.full(shape, True, "bool")
    for _ in range(100):
        z = _ops.gaussian(shape, 0.0, 1.0, 0, dtype)
        u = _ops.uniform(shape, dtype, 0.0, 1.0, 0)
        v = _ops.add(one, _ops.multiply(c, z))
        v = _ops.multiply(_ops.multiply(v, v), v)
        positive = _ops.greater_than(v, _ops.zeros([], dtype))
        safe_v = _ops.where(positive, v, one)
        bound = _ops.add(_ops.scale(_ops.multiply(z, z), 0.5, 0.0, True),
                         _ops.multiply(d, _ops.add(_ops.subtract(one, safe_v), _ops.log(safe_v))))
        accept = _ops.logical_and(positive, _ops.less_than(_ops.log(u), bound))
        take = _ops.logical_and(todo, accept)
        out = _ops.where(take, _ops.multiply(d, safe_v), out)
        todo = _ops.logical_and(todo, _ops.logical_not(accept))
        if not bool(_ops.any(todo)):
            break
    else:  # each round rejects under 5%: 100 rounds failing is not a run of bad luck
        raise _errors.PreconditionNotMet("standard_gamma: draws were still rejected after 100 "
                                         "rounds")
    u = _ops.uniform(shape, dtype, 0.0, 1.0, 0)
    boost = _ops.exp(_ops.divide(_ops.log(u), x))  # u^(1/a) for the a < 1 elements
    return _ops.where(small, _ops.multiply(out, boost), out)


__all__ = ["standard_gamma"]
