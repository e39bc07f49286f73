"""paddle.binomial: one Binomial(count, prob) draw per element (int64), from the seeded generator.

count and prob broadcast (count is cast to prob's dtype first, as in Paddle, and truncated to a
whole number of trials). With q = min(p, 1 - p) (the draw for p > 1/2 is n minus the draw for
1 - p), two exact samplers, as numpy's and torch's:
- n q < 10: inversion (BINV, Kachitvichyanukul and Schmeiser 1988): with u uniform, walk k up
  from 0 subtracting P(k), whose ratio P(k+1)/P(k) = (n - k) / (k + 1) * q / (1 - q);
- otherwise BTRS, Hormann's transformed rejection with squeeze (1993): k = floor((2a / us + b) u
  + c) for u, v uniform, accepted when v falls under the ratio of the pmf at k to its mode.
Both run as masked rounds over the whole tensor (the elements still open draw again), so shapes
never depend on the draws; BTRS accepts about 80% per round, inversion needs about n q + 1 rounds.
No gradient (as in Paddle).
"""
from .. import _C, _errors

_ops = _C.ops
_T = _C.Tensor

_INVERSION_LIMIT = 10.0
_MAX_ROUNDS = 1000


def _f(x, dtype="float64"):
    return _ops.full([], float(x), dtype)


def _inversion(n, q, shape):
    """BINV for every element (used where n q < 10)."""
    one = _f(1.0)
    s = _ops.divide(q, _ops.subtract(one, q))
    r = _ops.exp(_ops.multiply(n, _ops.log1p(_ops.neg(q))))  # P(0) = (1 - q)^n
    u = _ops.uniform(list(shape), "float64", 0.0, 1.0, 0)
    k = _ops.zeros(list(shape), "float64")
    todo = _ops.greater_than(u, r)
    for _ in range(_MAX_ROUNDS):
        if not bool(_ops.any(todo)):
            return k
        u = _ops.where(todo, _ops.subtract(u, r), u)
        r_next = _ops.multiply(r, _ops.divide(_ops.multiply(_ops.subtract(n, k), s),
                                              _ops.add(k, one)))
        k = _ops.where(todo, _ops.add(k, one), k)
        r = _ops.where(todo, r_next, r)
        # k reaching n ends the walk (the remaining mass is rounding)
        todo = _ops.logical_and(todo, _ops.logical_and(_ops.greater_than(u, r),
                                                       _ops.less_than(k, n)))
    raise _errors.PreconditionNotMet(f"binomial: the inversion sampler did not finish in "
                                     f"{_MAX_ROUNDS} rounds")


def _btrs(n, q, shape):
    """BTRS for every element (used where n q >= 10; other elements get a valid dummy draw)."""
    one, half = _f(1.0), _f(0.5)
    spq = _ops.sqrt(_ops.multiply(_ops.multiply(n, q), _ops.subtract(one, q)))
    b = _ops.add(_f(1.15), _ops.scale(spq, 2.53, 0.0, True))
    a = _ops.add(_ops.add(_f(-0.0873), _ops.scale(b, 0.0248, 0.0, True)),
                 _ops.scale(q, 0.01, 0.0, True))
    c = _ops.add(_ops.multiply(n, q), half)
    vr = _ops.subtract(_f(0.92), _ops.divide(_f(4.2), b))
    alpha = _ops.multiply(_ops.add(_f(2.83), _ops.divide(_f(5.1), b)), spq)
    lpq = _ops.log(_ops.divide(q, _ops.subtract(one, q)))
    m = _ops.floor(_ops.multiply(_ops.add(n, one), q))
    h = lambda x: _ops.lgamma(_ops.add(x, one))  # noqa: E731  log(x!)
    h_mode = _ops.add(h(m), h(_ops.subtract(n, m)))
    out = _ops.zeros(list(shape), "float64")
    todo = _ops.full(list(shape), True, "bool")
    for _ in range(_MAX_ROUNDS):
        u = _ops.subtract(_ops.uniform(list(shape), "float64", 0.0, 1.0, 0), half)
        v = _ops.uniform(list(shape), "float64", 0.0, 1.0, 0)
        us = _ops.subtract(half, _ops.abs(u))
        safe_us = _ops.maximum(us, _f(1e-300))
        k = _ops.floor(_ops.add(_ops.multiply(_ops.add(_ops.divide(_ops.scale(a, 2.0, 0.0, True),
                                                                   safe_us), b), u), c))
        inside = _ops.logical_and(_ops.greater_equal(k, _f(0.0)), _ops.less_equal(k, n))
        squeeze = _ops.logical_and(_ops.greater_equal(us, _f(0.07)), _ops.less_equal(v, vr))
        ks = _ops.where(inside, k, _ops.zeros_like(k))  # keeps lgamma finite where rejected
        w = _ops.multiply(v, _ops.divide(alpha, _ops.add(_ops.divide(a, _ops.multiply(
            safe_us, safe_us)), b)))
        bound = _ops.add(_ops.subtract(h_mode, _ops.add(h(ks), h(_ops.subtract(n, ks)))),
                         _ops.multiply(_ops.subtract(ks, m), lpq))
        accept = _ops.logical_and(inside, _ops.logical_or(
            squeeze, _ops.less_equal(_ops.log(_ops.maximum(w, _f(1e-300))), bound)))
        take = _ops.logical_and(todo, accept)
        out = _ops.where(take, k, out)
        todo = _ops.logical_and(todo, _ops.logical_not(accept))
        if not bool(_ops.any(todo)):
            return out
    raise _errors.PreconditionNotMet(f"binomial: the BTRS sampler did not finish in "
                                     f"{_MAX_ROUNDS} rounds")


def _check(count, prob):
    for arg, t in (("count", count), ("prob", prob)):
        if not isinstance(t, _T):
            raise _errors.InvalidType(f"binomial: argument '{arg}' expected a Tensor, got "
                                      f"{type(t).__name__}")
    if prob.dtype.name not in ("float16", "bfloat16", "float32", "float64"):
        raise _errors.InvalidType(f"binomial: argument 'prob' expected a bfloat16, float16, "
                                  f"float32 or float64 tensor, got {prob.dtype.name}")
    if count.dtype.name in ("bool", "complex64", "complex128"):
        raise _errors.InvalidType(f"binomial: argument 'count' expected an int32 or int64 "
                                  f"tensor, got {count.dtype.name}")


def binomial(count, prob, name=None):
    """Binomial draws with count[i] trials of success probability prob[i] (broadcast), int64."""
    _check(count, prob)
    prev = _C.is_grad_enabled()
    _C.set_grad_enabled(False)
    try:
        n = _ops.floor(_ops.cast(_ops.cast(count, prob.dtype), "float64"))
        p = _ops.cast(prob, "float64")
        if list(n.shape) != list(p.shape):
            from .. import broadcast_shape
            try:
                shape = broadcast_shape(list(n.shape), list(p.shape))
            except ValueError:
                raise _errors.InvalidArgument(
                    f"binomial: arguments 'count' and 'prob' expected shapes that broadcast, got "
                    f"{list(count.shape)} and {list(prob.shape)}") from None
            n, p = _ops.broadcast_to(n, shape), _ops.broadcast_to(p, shape)
        if n.size:
            if not bool(_ops.all(_ops.logical_and(_ops.greater_equal(p, _f(0.0)),
                                                  _ops.less_equal(p, _f(1.0))))):
                raise _errors.InvalidArgument("binomial: argument 'prob' expected probabilities "
                                              "in [0, 1], got values outside (or nan)")
            if not bool(_ops.all(_ops.logical_and(_ops.greater_equal(n, _f(0.0)),
                                                  _ops.isfinite(n)))):
                raise _errors.InvalidArgument("binomial: argument 'count' expected finite "
                                              "non-negative counts, got a negative or inf count")
        return _ops.cast(_draw(n, p), "int64")
    finally:
        _C.set_grad_enabled(prev)


def _draw(n, p):
    shape = list(n.shape)
    if not n.size:
        return n
    flip = _ops.greater_than(p, _f(0.5))
    q = _ops.where(flip, _ops.subtract(_f(1.0), p), p)
    small = _ops.less_than(_ops.multiply(n, q), _f(_INVERSION_LIMIT))
    degenerate = _ops.logical_or(_ops.equal(q, _f(0.0)), _ops.equal(n, _f(0.0)))
    # each sampler sees valid parameters everywhere (a dummy q = 1/2 where it is not used)
    q_inv = _ops.where(_ops.logical_and(small, _ops.logical_not(degenerate)), q, _f(0.25))
    n_inv = _ops.where(small, n, _f(1.0))
    k = _ops.zeros(shape, "float64")
    if bool(_ops.any(_ops.logical_and(small, _ops.logical_not(degenerate)))):
        k = _ops.where(small, _inversion(n_inv, q_inv, shape), k)
    large = _ops.logical_not(small)
    if bool(_ops.any(large)):
        q_big = _ops.where(large, q, _f(0.5))
        n_big = _ops.where(large, n, _f(100.0))
        k = _ops.where(large, _btrs(n_big, q_big, shape), k)
    k = _ops.where(degenerate, _ops.zeros_like(k), k)
    return _ops.where(flip, _ops.subtract(n, k), k)


__all__ = ["binomial"]
