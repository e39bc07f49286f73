"""Statistics, search and sampling functions with Paddle 3.0's signatures: nansum, nanmean,
median, nanmedian, quantile, nanquantile, kthvalue, unique_consecutive, bincount, histogram, bernoulli,
bernoulli_, multinomial, and over the records of skiff/ops/yaml/statistics.yaml the ones with kernels: cummax,
cummin, logcumsumexp, mode, searchsorted, bucketize, poisson.

Each is a composition of op records, so autograd follows the ops it is made of: median and
quantile select from a stable sort (take_along_axis, lerp), kthvalue from a stable argsort, the
NaN-aware reductions mask with `where`. Random functions draw through the `uniform` record from
the device generator, so paddle.seed makes them reproducible. Argument errors are Paddle's error
classes: `(InvalidArgument) op: argument 'x' expected ..., got ...` as ValueError, wrong types
`(InvalidType)` as TypeError.
"""
import builtins

from .. import _C

_ops = _C.ops
_T = _C.Tensor
_D = _C.dtype


def _invalid(op, arg, expected, got):
    return ValueError(f"(InvalidArgument) {op}: argument '{arg}' expected {expected}, got {got}")


def _invalid_type(op, arg, expected, got):
    return TypeError(f"(InvalidType) {op}: argument '{arg}' expected {expected}, got {got}")


def _check_tensor(op, x, arg="x"):
    if not isinstance(x, _T):
        raise _invalid_type(op, arg, "a Tensor", type(x).__name__)


def _is_float(x):
    return x.dtype.is_floating_point


def _norm_axis(op, axis, ndim, arg="axis"):
    """axis as a non-negative int; a 0-D tensor accepts -1 and 0."""
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise _invalid_type(op, arg, "an int", type(axis).__name__)
    bound = builtins.max(ndim, 1)
    if not -bound <= axis < bound:
        raise _invalid(op, arg, f"an int in [{-bound}, {bound})", axis)
    return axis % bound


def _float_of(x):
    """x in a floating dtype: itself, or float32 for integer and bool tensors."""
    return x if _is_float(x) else _ops.cast(x, "float32")


def _nan_like(t):
    return _ops.full_like(t, float("nan"))


# NaN-aware reductions --------------------------------------------------------------------------
def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over `axis` (all elements when None) treating NaN as zero."""
    _check_tensor("nansum", x)
    if _is_float(x):
        x = _ops.where(_ops.isnan(x), _ops.zeros_like(x), x)
    return _ops.sum(x, axis, dtype, keepdim)


def nanmean(x, axis=None, keepdim=False, name=None):
    """Mean over `axis` of the non-NaN elements (NaN where a slice has none)."""
    _check_tensor("nanmean", x)
    if not _is_float(x):
        raise _invalid_type("nanmean", "x", "a floating point tensor", x.dtype)
    count = _ops.sum(_ops.logical_not(_ops.isnan(x)), axis, x.dtype, keepdim)
    return _ops.divide(nansum(x, axis, None, keepdim), count)


# Order statistics ------------------------------------------------------------------------------
def _sorted_order(x, axis):
    """Indices of a stable ascending sort along axis (NaN last)."""
    return _ops.argsort(x, axis, False, True)[1]


def _pick(x, order, axis, k):
    """The k-th smallest (0-based) along axis, keeping the axis: values (differentiable) and
    indices."""
    idx = _ops.slice(order, [axis], [k], [k + 1])
    return _ops.take_along_axis(x, idx, axis), idx


def median(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median along `axis` (of all elements when None). mode 'avg' averages the two middle
    values of an even count (float64 for float64 input, else float32); 'min' takes the lower one
    in x's dtype and, with an axis, also returns its index. A slice holding NaN gives NaN (and,
    for 'min', the index of its first NaN)."""
    _check_tensor("median", x)
    if mode not in ("avg", "min"):
        raise _invalid("median", "mode", "'avg' or 'min'", repr(mode))
    if x.size == 0:
        raise _invalid("median", "x", "a non-empty tensor", f"shape {list(x.shape)}")
    dims = x.ndim
    need_idx = axis is not None and mode == "min"
    flatten = axis is None or dims == 0
    if axis is not None:
        ax = _norm_axis("median", axis, dims)
    if flatten:
        x, ax = _ops.flatten(x), 0
    n = x.shape[ax]
    order = _sorted_order(x, ax)
    has_nan = _ops.any(_ops.isnan(x), [ax], True) if _is_float(x) else None
    if mode == "avg":
        dt = "float64" if x.dtype == _D.float64 else "float32"
        upper = _ops.cast(_pick(x, order, ax, n // 2)[0], dt)
        if n % 2 == 0:
            lower = _ops.cast(_pick(x, order, ax, n // 2 - 1)[0], dt)
            out = _ops.scale(_ops.add(lower, upper), 0.5)
        else:
            out = upper
        idx = None
    else:
        out, idx = _pick(x, order, ax, (n - 1) // 2)
    if has_nan is not None:
        out = _ops.where(has_nan, _nan_like(out), out)
        if need_idx:
            first_nan = _ops.argmax(_ops.cast(_ops.isnan(x), "int32"), ax, True, False, "int64")
            idx = _ops.where(has_nan, first_nan, idx)
    if flatten:
        out = _ops.reshape(out, [1] * dims if keepdim else [])
    elif not keepdim:
        out = _ops.squeeze(out, [ax])
        if need_idx:
            idx = _ops.squeeze(idx, [ax])
    return (out, idx) if need_idx else out


def nanmedian(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median of the non-NaN elements along `axis` (an int, a list/tuple of axes, or None for
    all elements), in x's dtype, as Paddle's nanmedian kernel: mode 'avg' averages the two middle
    values of an even count (integers divide toward zero), 'min' takes the lower one and, for an
    int axis, also returns its index (int64). A slice of NaNs only gives NaN (index -1)."""
    _check_tensor("nanmedian", x)
    if mode not in ("avg", "min"):
        raise _invalid("nanmedian", "mode", "'avg' or 'min'", repr(mode))
    if isinstance(axis, (list, tuple)) and not axis:
        raise _invalid("nanmedian", "axis", "a non-empty list of axes", list(axis))
    if x.dtype not in (_D.float16, _D.bfloat16, _D.float32, _D.float64, _D.int32, _D.int64):
        raise _invalid_type("nanmedian", "x", "float16, bfloat16, float32, float64, int32 or int64",
                            x.dtype)
    if x.size == 0:
        raise _invalid("nanmedian", "x", "a non-empty tensor", f"shape {list(x.shape)}")
    need_idx = mode == "min" and axis is not None and not isinstance(axis, (list, tuple))
    dims = x.ndim
    if axis is None or dims == 0:
        axes = list(range(dims))
    else:
        raw = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        axes = sorted({_norm_axis("nanmedian", a, dims) for a in raw})
        if len(axes) != len(raw):
            raise _invalid("nanmedian", "axis", "distinct axes", raw)
    out_shape = [1 if d in axes else s for d, s in enumerate(x.shape)]
    kept = [s for d, s in enumerate(x.shape) if d not in axes]
    from .functions import moveaxis
    flat = moveaxis(x, axes, list(range(dims - len(axes), dims))) if axes else x
    flat = _ops.reshape(flat, kept + [-1])
    ax = len(kept)
    order = _sorted_order(flat, ax)  # NaN last
    sorted_x = _ops.take_along_axis(flat, order, ax)
    if _is_float(x):
        valid = _ops.sum(_ops.logical_not(_ops.isnan(flat)), [ax], "int64", True)
    else:
        valid = _ops.full(kept + [1], flat.shape[ax], "int64")
    zero = _ops.zeros_like(valid)
    lo = _ops.maximum(_ops.floor_divide(_ops.scale(valid, 1.0, -1.0), _ops.full([], 2, "int64")), zero)
    lo_val = _ops.take_along_axis(sorted_x, lo, ax)
    if mode == "avg":
        hi = _ops.floor_divide(valid, _ops.full([], 2, "int64"))
        hi_val = _ops.take_along_axis(sorted_x, _ops.minimum(hi, _ops.full([], flat.shape[ax] - 1,
                                                                            "int64")), ax)
        total = _ops.add(lo_val, hi_val)
        if _is_float(x):
            out = _ops.scale(total, 0.5)
        else:  # C++ integer division: toward zero
            two = _ops.full([], 2, x.dtype)
            out = _ops.multiply(_ops.sign(total), _ops.floor_divide(_ops.abs(total), two))
    else:
        out = lo_val
    empty = _ops.equal(valid, zero)
    if _is_float(x):
        out = _ops.where(empty, _nan_like(out), out)
    out = _ops.reshape(out, out_shape if keepdim else kept)
    if not need_idx:
        return out
    idx = _ops.take_along_axis(order, lo, ax)
    idx = _ops.where(empty, _ops.full_like(idx, -1), idx)
    return out, _ops.reshape(idx, out_shape if keepdim else kept)


def _quantile_qs(op, q):
    if isinstance(q, _T):
        if q.ndim > 1:
            raise _invalid(op, "q", "a number, a list or a 0-D or 1-D tensor", f"shape {list(q.shape)}")
        qs = [float(v) for v in q.numpy().reshape(-1)]
    elif isinstance(q, (int, float)) and not isinstance(q, bool):
        qs = [float(q)]
    elif isinstance(q, (list, tuple)):
        if not q:
            raise _invalid(op, "q", "a non-empty list", "[]")
        qs = [float(v) for v in q]
    else:
        raise _invalid_type(op, "q", "an int, float, list, tuple or Tensor", type(q).__name__)
    for v in qs:
        if not 0.0 <= v <= 1.0:
            raise _invalid(op, "q", "values in [0, 1]", v)
    return qs


def _compute_quantile(op, x, q, axis, keepdim, interpolation, ignore_nan):
    _check_tensor(op, x)
    qs = _quantile_qs(op, q)
    if interpolation not in ("linear", "lower", "higher", "nearest", "midpoint"):
        raise _invalid(op, "interpolation",
                       "one of 'linear', 'lower', 'higher', 'nearest', 'midpoint'",
                       repr(interpolation))
    if x.size == 0:
        raise _invalid(op, "x", "a non-empty tensor", f"shape {list(x.shape)}")
    x = _float_of(x)
    dims = x.ndim
    out_shape = list(x.shape)
    if axis is None:
        x, ax, out_shape = _ops.flatten(x), 0, [1] * dims
    elif isinstance(axis, (list, tuple)):
        src = sorted({_norm_axis(op, a, dims) for a in axis})
        if len(src) != len(axis):
            raise _invalid(op, "axis", "distinct axes", list(axis))
        for a in src:
            out_shape[a] = 1
        if not src:
            x, ax = _ops.flatten(x), 0
        else:
            dst = list(range(dims - len(src), dims))
            from .functions import moveaxis
            x = _ops.flatten(moveaxis(x, src, dst), dst[0], dst[-1])
            ax = dst[0]
    else:
        ax = _norm_axis(op, axis, dims)
        if dims:
            out_shape[ax] = 1
        else:
            x, ax = _ops.flatten(x), 0
    n = x.shape[ax]
    nan = _ops.isnan(x)
    sorted_x = _ops.sort(x, ax, False, True)  # NaN last
    if ignore_nan:
        valid = _ops.sum(_ops.logical_not(nan), [ax], x.dtype, True)
        last = _ops.maximum(_ops.scale(valid, 1.0, -1.0), _ops.zeros_like(valid))
    else:
        any_nan = _ops.any(nan, [ax], True)
        last = _ops.full(any_nan.shape, n - 1, x.dtype)
    outs = []
    for qv in qs:
        index = _ops.scale(last, qv)
        if not ignore_nan:  # a NaN row reads its last (NaN) element
            index = _ops.where(any_nan, last, index)
        out = _quantile_at(sorted_x, index, ax, interpolation)
        if ignore_nan:  # all-NaN rows: NaN
            out = _ops.where(_ops.equal(valid, _ops.zeros_like(valid)), _nan_like(out), out)
        out = _ops.reshape(out, out_shape) if keepdim else _ops.squeeze(out, [ax])
        outs.append(out)
    return _ops.stack(outs, 0) if len(outs) > 1 else outs[0]


def _quantile_at(sorted_x, index, ax, interpolation):
    def take(i):
        return _ops.take_along_axis(sorted_x, _ops.cast(i, "int64"), ax)

    if interpolation == "nearest":
        return take(_ops.round(index))
    below = _ops.floor(index)
    if interpolation == "lower":
        return take(below)
    above = _ops.ceil(index)
    if interpolation == "higher":
        return take(above)
    lo, hi = take(below), take(above)
    if interpolation == "midpoint":
        return _ops.scale(_ops.add(lo, hi), 0.5)
    return _ops.lerp(lo, hi, _ops.subtract(index, below))


def quantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    """The q-th quantiles along `axis` (an int, a list of axes, or None for all elements); a
    list or 1-D tensor q stacks one result per q along a new first axis. A slice holding NaN gives
    NaN. Integer input is computed in float32."""
    return _compute_quantile("quantile", x, q, axis, keepdim, interpolation, False)


def nanquantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    """quantile over the non-NaN elements (NaN where a slice has none)."""
    return _compute_quantile("nanquantile", x, q, axis, keepdim, interpolation, True)


def kthvalue(x, k, axis=None, keepdim=False, name=None):
    """The k-th smallest value (k from 1) along `axis` (the last when None) and its index (int64;
    among equal values the one a stable sort puts k-th). NaN counts as the largest value."""
    _check_tensor("kthvalue", x)
    if isinstance(k, bool) or not isinstance(k, int):
        raise _invalid_type("kthvalue", "k", "an int", type(k).__name__)
    ax = _norm_axis("kthvalue", -1 if axis is None else axis, x.ndim)
    n = x.shape[ax] if x.ndim else 1
    if not 1 <= k <= n:
        raise _invalid("kthvalue", "k", f"an int in [1, {n}] (the size of axis {ax})", k)
    if x.ndim == 0:
        return _ops.assign(x), _ops.zeros([], "int64")
    out, idx = _pick(x, _sorted_order(x, ax), ax, k - 1)
    if not keepdim:
        out, idx = _ops.squeeze(out, [ax]), _ops.squeeze(idx, [ax])
    return out, idx


# Counting --------------------------------------------------------------------------------------
def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64",
                       name=None):
    """Collapses runs of equal consecutive elements (of the flattened x when axis is None) or
    slices along `axis`; inverse maps each element (slice) to its run, counts are run lengths."""
    _check_tensor("unique_consecutive", x)
    if str(dtype).replace("paddle.", "") not in ("int32", "int64"):
        raise _invalid_type("unique_consecutive", "dtype", "int32 or int64", dtype)
    if axis is None:
        rows = _ops.flatten(x)
        ax = 0
        n = rows.shape[0] if x.ndim else 1
        flat = _ops.reshape(rows, [n, 1])
    else:
        ax = _norm_axis("unique_consecutive", axis, x.ndim)
        if x.ndim == 0:
            raise _invalid("unique_consecutive", "axis", "None for a 0-D tensor", axis)
        n = x.shape[ax]
        from .functions import moveaxis
        flat = _ops.reshape(moveaxis(x, ax, 0), [n, -1])
        rows = x
    if n == 0:
        empty = _ops.zeros([0], dtype)
        out = rows
        extra = [empty] * (return_inverse + return_counts)
        return tuple([out] + extra) if extra else out
    if n > 1:
        prev = _ops.slice(flat, [0], [0], [n - 1])
        cur = _ops.slice(flat, [0], [1], [n])
        change = _ops.any(_ops.not_equal(cur, prev), [1], False)
        starts = _ops.concat([_ops.full([1], True, "bool"), change], 0)
    else:
        starts = _ops.full([1], True, "bool")
    pos = _ops.flatten(_ops.nonzero(starts))
    out = _ops.index_select(rows, pos, ax)
    extra = []
    if return_inverse:
        inv = _ops.cumsum(_ops.cast(starts, "int64"), 0)
        extra.append(_ops.cast(_ops.scale(inv, 1.0, -1.0), dtype))
    if return_counts:
        ends = _ops.concat([_ops.slice(pos, [0], [1], [pos.shape[0]]),
                            _ops.full([1], n, "int64")], 0)
        extra.append(_ops.cast(_ops.subtract(ends, pos), dtype))
    return tuple([out] + extra) if extra else out


def _check_index_tensor(op, x):
    _check_tensor(op, x)
    if x.dtype not in (_D.int32, _D.int64):
        raise _invalid_type(op, "x", "an int32 or int64 tensor", x.dtype)


def bincount(x, weights=None, minlength=0, name=None):
    """Counts of each value in the 1-D non-negative integer tensor x (length max(x) + 1, at least
    minlength); with weights, sums of the weights instead (in the weights' dtype; int64 counts)."""
    _check_index_tensor("bincount", x)
    if x.ndim != 1:
        raise _invalid("bincount", "x", "a 1-D tensor", f"shape {list(x.shape)}")
    if isinstance(minlength, _T):
        minlength = int(minlength.item())
    if minlength < 0:
        raise _invalid("bincount", "minlength", "a non-negative int", minlength)
    if weights is not None:
        _check_tensor("bincount", weights, "weights")
        if list(weights.shape) != list(x.shape):
            raise _invalid("bincount", "weights", f"shape {list(x.shape)} (as x)",
                           f"shape {list(weights.shape)}")
    n = x.shape[0]
    if n and int(_ops.min(x).item()) < 0:
        raise _invalid("bincount", "x", "non-negative values", int(_ops.min(x).item()))
    length = builtins.max(int(_ops.max(x).item()) + 1 if n else 0, minlength)
    if weights is None:
        dt, values = "int64", _ops.ones([n], "int64")
    else:
        dt = weights.dtype if weights.dtype in (_D.float32, _D.float64, _D.int32, _D.int64) \
            else _D.float32
        values = _ops.cast(weights, dt)
    out = _ops.zeros([length], dt)
    if n == 0:
        return out
    return _ops.put_along_axis(out, _ops.cast(x, "int64"), values, 0, "add", True)


def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False,  # noqa: A002
              name=None):
    """Counts of input's elements in `bins` equal-width bins over [min, max] (the data's range
    when both are 0; elements outside are dropped, max falls in the last bin). int64 counts; with
    weight the weights' sums (float32 unless weight is float64); density normalizes the
    histogram to integrate to 1 (float32, or float64 for float64 input or weight)."""
    _check_tensor("histogram", input, "input")
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise _invalid("histogram", "bins", "a positive int", bins)
    if max < min:
        raise _invalid("histogram", "max", f"max >= min ({min})", max)
    if weight is not None:
        _check_tensor("histogram", weight, "weight")
        if list(weight.shape) != list(input.shape):
            raise _invalid("histogram", "weight", f"shape {list(input.shape)} (as input)",
                           f"shape {list(weight.shape)}")
    x = _ops.cast(_ops.flatten(input), "float64")
    lo, hi = float(min), float(max)
    if lo == 0.0 and hi == 0.0 and x.size:
        lo, hi = float(_ops.min(x).item()), float(_ops.max(x).item())
    if lo == hi:
        lo, hi = lo - 1.0, hi + 1.0
    inside = _ops.logical_and(_ops.greater_equal(x, _ops.full([], lo, "float64")),
                              _ops.less_equal(x, _ops.full([], hi, "float64")))
    pos = _ops.floor(_ops.scale(_ops.scale(x, 1.0, -lo), bins / (hi - lo)))
    pos = _ops.minimum(pos, _ops.full([], bins - 1, "float64"))
    idx = _ops.cast(_ops.masked_select(pos, inside), "int64")
    if weight is None:
        out_dt = "int64"
        values = _ops.ones(idx.shape, "int64")
    else:
        out_dt = "float64" if weight.dtype == _D.float64 else "float32"
        values = _ops.masked_select(_ops.cast(_ops.flatten(weight), out_dt), inside)
    out = _ops.zeros([bins], out_dt)
    if idx.shape[0]:
        out = _ops.put_along_axis(out, idx, values, 0, "add", True)
    if not density:
        return out
    dt = "float64" if (input.dtype == _D.float64 or out_dt == "float64") else "float32"
    out = _ops.cast(out, dt)
    total = _ops.sum(out, None, None, False)
    return _ops.divide(out, _ops.scale(total, (hi - lo) / bins))


# Sampling --------------------------------------------------------------------------------------
def _uniform01(shape, dtype="float32"):
    return _ops.uniform(list(shape), dtype, 0.0, 1.0, 0)


def bernoulli(x, p=None, name=None):
    """0/1 samples (x's shape and dtype) with success probability x[i] (or p for every element),
    drawn from the default generator (paddle.seed)."""
    _check_tensor("bernoulli", x)
    if p is not None:
        if not 0.0 <= float(p) <= 1.0:
            raise _invalid("bernoulli", "p", "a probability in [0, 1]", p)
        prob = _ops.full(x.shape, float(p), "float64" if x.dtype == _D.float64 else "float32")
    else:
        prob = _float_of(x) if x.dtype != _D.float16 and x.dtype != _D.bfloat16 \
            else _ops.cast(x, "float32")
        if x.size and (bool(_ops.any(_ops.less_than(prob, _ops.zeros_like(prob)))) or
                       bool(_ops.any(_ops.greater_than(prob, _ops.ones_like(prob))))):
            raise _invalid("bernoulli", "x", "probabilities in [0, 1]", "values outside")
    u = _uniform01(x.shape, prob.dtype)
    return _ops.cast(_ops.less_than(u, prob), x.dtype)


def bernoulli_(x, p=0.5, name=None):
    """Fills x in place with 0/1 draws of success probability p (a float, or a tensor that
    broadcasts to x), from the default generator (paddle.seed). Like Paddle, p is not range
    checked: p <= 0 gives zeros, p >= 1 ones. Paddle's own code sets 1 where the draw is above p
    (success probability 1 - p, the same law only at p = 0.5); Skiff follows the documented law,
    1 where the draw is below p."""
    _check_tensor("bernoulli_", x)
    if isinstance(p, _T):
        if not _is_float(p):
            raise _invalid_type("bernoulli_", "p", "a floating point tensor", p.dtype)
        xs, ps = list(x.shape), list(p.shape)
        fits = len(ps) <= len(xs) and all(a in (1, b) for a, b in zip(ps[::-1], xs[::-1]))
        if not fits:
            raise _invalid("bernoulli_", "p", f"a shape that broadcasts to x's {list(x.shape)}",
                           f"shape {list(p.shape)}")
        prob = _ops.cast(p, "float64")
    elif isinstance(p, (int, float)) and not isinstance(p, bool):
        prob = _ops.full([], float(p), "float64")
    else:
        raise _invalid_type("bernoulli_", "p", "a float or a Tensor", type(p).__name__)
    u = _uniform01(x.shape, "float64")
    _C._assign_into(x, _ops.cast(_ops.less_than(u, prob), x.dtype))
    return x


def multinomial(x, num_samples=1, replacement=False, name=None):
    """num_samples category indices (int64) per row of the 1-D or 2-D non-negative weights x,
    drawn with or without replacement from the default generator. Without replacement it is the
    Gumbel top-k draw; with replacement inverse-CDF sampling (searchsorted on the cumulative
    weights)."""
    _check_tensor("multinomial", x)
    if x.ndim not in (1, 2):
        raise _invalid("multinomial", "x", "a 1-D or 2-D tensor", f"shape {list(x.shape)}")
    if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples < 1:
        raise _invalid("multinomial", "num_samples", "a positive int", num_samples)
    k = x.shape[-1]
    p = _ops.cast(x, "float64")
    if x.size == 0 or k == 0:
        raise _invalid("multinomial", "x", "at least one category", f"shape {list(x.shape)}")
    if bool(_ops.any(_ops.less_than(p, _ops.zeros_like(p)))) or \
            not bool(_ops.all(_ops.isfinite(p))):
        raise _invalid("multinomial", "x", "finite non-negative probabilities",
                       "negative, inf or nan values")
    nonzero = _ops.sum(_ops.cast(_ops.greater_than(p, _ops.zeros_like(p)), "int64"), [-1], None,
                       False)
    least = int(_ops.min(nonzero).item())
    if least == 0:
        raise _invalid("multinomial", "x", "a row with a positive sum", "a row of zeros")
    if not replacement and num_samples > least:
        raise _invalid("multinomial", "num_samples",
                       f"at most the {least} categories of nonzero probability without replacement",
                       num_samples)
    rows = [x.shape[0]] if x.ndim == 2 else []
    if not replacement:  # Gumbel top-k: argmax of log p + Gumbel noise, k times without repeats
        u = _uniform01(rows + [k], "float64")
        gumbel = _ops.neg(_ops.log(_ops.neg(_ops.log(u))))
        keys = _ops.add(_ops.log(p), gumbel)
        return _ops.topk(keys, num_samples, -1, True, True)[1]
    cdf = _ops.cumsum(p, -1)
    total = _ops.slice(cdf, [x.ndim - 1], [k - 1], [k])
    u = _ops.multiply(_uniform01(rows + [num_samples], "float64"), total)
    # index = #{j : cdf[j] <= u}, a binary search per draw (zero weights are never picked)
    idx = _ops.searchsorted(cdf, u, False, True)
    return _ops.minimum(idx, _ops.full([], k - 1, "int64"))


# Ops with their own kernels (skiff/ops/yaml/statistics.yaml) -----------------------------------
def cummax(x, axis=None, dtype="int64", name=None):
    """Running maximum along `axis` (of the flattened x when None) and the index of each (in
    dtype, int32 or int64); a tie or a NaN takes the newer index."""
    _check_tensor("cummax", x)
    if axis is None:
        x, axis = _ops.flatten(x), 0
    return _ops.cummax(x, axis, dtype)


def cummin(x, axis=None, dtype="int64", name=None):
    """Running minimum along `axis` (of the flattened x when None) and the index of each."""
    _check_tensor("cummin", x)
    if axis is None:
        x, axis = _ops.flatten(x), 0
    return _ops.cummin(x, axis, dtype)


def logcumsumexp(x, axis=None, dtype=None, name=None):
    """log(cumsum(exp(x))) along `axis` (of the flattened x when None), computed stably; x is
    cast to `dtype` first when one is given."""
    _check_tensor("logcumsumexp", x)
    if dtype is not None:
        x = _ops.cast(x, dtype)
    if axis is None:
        return _ops.logcumsumexp(x, -1, True, False, False)
    return _ops.logcumsumexp(x, axis, False, False, False)


def mode(x, axis=-1, keepdim=False, name=None):
    """The most frequent value along `axis` (the smallest of equally frequent ones) and the index
    of its last occurrence."""
    _check_tensor("mode", x)
    return _ops.mode(x, axis, keepdim)


def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None):
    """Indices (int64, or int32 with out_int32) that keep each row of sorted_sequence sorted if
    values were inserted there: the first position whose element is >= the value (> with
    right). A 1-D sorted_sequence serves every value; else its leading dims equal values'."""
    _check_tensor("searchsorted", sorted_sequence, "sorted_sequence")
    _check_tensor("searchsorted", values, "values")
    return _ops.searchsorted(sorted_sequence, values, out_int32, right)


def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None):
    """The bucket of each element of x among the 1-D sorted boundaries (searchsorted)."""
    _check_tensor("bucketize", x)
    _check_tensor("bucketize", sorted_sequence, "sorted_sequence")
    if sorted_sequence.ndim != 1:
        raise _invalid("bucketize", "sorted_sequence", "a 1-D tensor",
                       f"shape {list(sorted_sequence.shape)}")
    return _ops.searchsorted(sorted_sequence, x, out_int32, right)


def poisson(x, name=None):
    """One Poisson sample per element with rate x (x's shape and dtype), drawn from the default
    generator (paddle.seed); its gradient is zero."""
    _check_tensor("poisson", x)
    return _ops.poisson(x)


__all__ = ["nansum", "nanmean", "median", "nanmedian", "bernoulli_", "quantile", "nanquantile", "kthvalue",
           "unique_consecutive", "bincount", "histogram", "bernoulli", "multinomial", "cummax",
           "cummin", "logcumsumexp", "mode", "searchsorted", "bucketize", "poisson"]

# Tensor methods: the ones of Paddle's tensor_method_func (not the samplers).
_METHODS = ["nansum", "nanmean", "median", "nanmedian", "bernoulli_", "quantile", "nanquantile", "kthvalue",
            "unique_consecutive", "bincount", "histogram", "cummax", "cummin", "logcumsumexp",
            "mode", "bucketize"]
