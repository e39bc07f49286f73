"""Statistics, search and sampling functions (python/skiff/tensor/stat.py and the records of
skiff/ops/yaml/statistics.yaml) against numpy and torch: forward in float32/float64/integers,
gradients against torch autograd, NaN handling, Paddle's documented examples, statistical checks
of the samplers at fixed seeds, and bad inputs (error class and message)."""
import numpy as np
import pytest

import skiff as paddle

torch = pytest.importorskip("torch")

FLOATS = ["float32", "float64"]


def T(a, dtype=None, grad=False):
    t = paddle.to_tensor(np.asarray(a), dtype=dtype)
    if grad:
        t.stop_gradient = False
    return t


def close(got, want, rtol=1e-6, atol=1e-6):
    got = got.numpy() if hasattr(got, "numpy") else np.asarray(got)
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                               atol=atol, equal_nan=True)


def tol(dtype):
    return dict(rtol=1e-5, atol=1e-5) if dtype == "float32" else dict(rtol=1e-12, atol=1e-12)


def grad_vs_torch(fn_paddle, fn_torch, a, dtype="float64", seed=0, **kw):
    """Gradients of sum(out * w) for a fixed random w, through skiff and torch."""
    x = T(a, dtype, grad=True)
    out = fn_paddle(x)
    out = out[0] if isinstance(out, tuple) else out
    w = np.random.default_rng(seed).standard_normal(out.shape)
    (out * T(w, out.dtype)).sum().backward()
    xt = torch.tensor(np.asarray(a, dtype=dtype), requires_grad=True)
    ot = fn_torch(xt)
    ot = ot[0] if isinstance(ot, tuple) else ot
    (ot * torch.tensor(w, dtype=ot.dtype)).sum().backward()
    close(x.grad, xt.grad, **(kw or tol(dtype)))


def raises(exc, *fragments):
    class _Ctx:
        def __enter__(self):
            return self

        def __exit__(self, et, ev, tb):
            assert et is not None, f"expected {exc.__name__}"
            assert issubclass(et, exc), f"{et.__name__}: {ev}"
            for f in fragments:
                assert f in str(ev), f"{f!r} not in {str(ev)!r}"
            return True

    return _Ctx()


rng = np.random.default_rng(0)


# nansum / nanmean ------------------------------------------------------------------------------
def _with_nans(shape, seed=0):
    r = np.random.default_rng(seed)
    a = r.standard_normal(shape)
    a[r.random(shape) < 0.3] = np.nan
    return a


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("axis,keepdim", [(None, False), (1, False), (-1, True), ([0, 2], False),
                                          ((0, 1), True)])
def test_nansum_nanmean_forward(dtype, axis, keepdim):
    a = _with_nans((3, 4, 5)).astype(dtype)
    npax = tuple(axis) if isinstance(axis, (list, tuple)) else axis
    close(paddle.nansum(T(a), axis=axis, keepdim=keepdim), np.nansum(a, npax, keepdims=keepdim),
          **tol(dtype))
    with np.errstate(all="ignore"):
        want = np.nanmean(a, npax, keepdims=keepdim)
    close(paddle.nanmean(T(a), axis=axis, keepdim=keepdim), want, **tol(dtype))
    assert paddle.nansum(T(a), axis=axis).dtype == T(a).dtype
    close(T(a).nansum(axis=axis, keepdim=keepdim), np.nansum(a, npax, keepdims=keepdim),
          **tol(dtype))


def test_nansum_dtype_and_integers():
    a = np.arange(12).reshape(3, 4)
    out = paddle.nansum(T(a, "int32"), axis=1, dtype="int64")
    assert out.dtype == paddle.int64
    close(out, a.sum(1))
    assert paddle.nansum(T(a, "int64")).item() == 66
    out = paddle.nansum(T([1.0, np.nan, 2.0], "float32"), dtype="float64")
    assert out.dtype == paddle.float64 and out.item() == 3.0


def test_nanmean_all_nan_row_and_doc_example():
    x = T([[np.nan, 0.3, 0.5, 0.9], [0.1, 0.2, -np.nan, 0.7]], "float32")
    close(paddle.nanmean(x), np.nanmean(x.numpy()), rtol=1e-6)
    close(paddle.nanmean(x, axis=0), [0.1, 0.25, 0.5, 0.8], rtol=1e-6)
    close(paddle.nanmean(x, axis=-1, keepdim=True), [[0.5666667], [1.0 / 3]], rtol=1e-6)
    out = paddle.nanmean(T([[np.nan, np.nan], [1.0, 3.0]]), axis=1)
    assert np.isnan(out.numpy()[0]) and out.numpy()[1] == 2.0


def test_nansum_nanmean_grad():
    a = _with_nans((4, 5), 1)
    grad_vs_torch(lambda x: paddle.nansum(x, axis=1), lambda x: torch.nansum(x, 1), a)
    grad_vs_torch(lambda x: paddle.nanmean(x, axis=0, keepdim=True),
                  lambda x: torch.nanmean(x, 0, keepdim=True), a)
    grad_vs_torch(lambda x: paddle.nanmean(x), lambda x: torch.nanmean(x), a)


def test_nanmean_errors():
    with raises(TypeError, "(InvalidType) nanmean: argument 'x'"):
        paddle.nanmean(T([1, 2, 3]))
    with raises(TypeError, "(InvalidType) nansum: argument 'x' expected a Tensor"):
        paddle.nansum([1.0, 2.0])


# median ----------------------------------------------------------------------------------------
def test_median_doc_examples():
    x = paddle.arange(12).reshape([3, 4])
    y1 = paddle.median(x)
    assert y1.shape == [] and y1.dtype == paddle.float32 and y1.item() == 5.5
    close(paddle.median(x, axis=0), [4.0, 5.0, 6.0, 7.0])
    close(paddle.median(x, axis=1), [1.5, 5.5, 9.5])
    y4 = paddle.median(x, axis=0, keepdim=True)
    assert y4.shape == [1, 4]
    y5 = paddle.median(x, mode="min")
    assert y5.dtype == paddle.int64 and y5.shape == [] and y5.item() == 5
    v, i = paddle.median(x, axis=1, mode="min")
    close(v, [1, 5, 9])
    close(i, [1, 1, 1])
    assert v.dtype == paddle.int64 and i.dtype == paddle.int64
    x = T([[1, np.nan, 3, np.nan], [1, 2, 3, 4], [np.nan, 1, 2, 3]])
    close(paddle.median(x, axis=-1, keepdim=True), [[np.nan], [2.5], [np.nan]])
    v, i = paddle.median(x, axis=1, keepdim=True, mode="min")
    close(v, [[np.nan], [2.0], [np.nan]])
    close(i, [[1], [1], [0]])


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "int64"])
@pytest.mark.parametrize("shape,axis", [((7,), None), ((6,), 0), ((4, 6), 1), ((5, 3, 4), 0),
                                        ((3, 5, 2), -2), ((), None)])
def test_median_avg_vs_numpy(dtype, shape, axis):
    a = rng.integers(-20, 20, shape) if dtype.startswith("int") else rng.standard_normal(shape)
    a = np.asarray(a).astype(dtype)
    out = paddle.median(T(a), axis=axis)
    assert out.dtype == (paddle.float64 if dtype == "float64" else paddle.float32)
    close(out, np.median(a, axis=axis), **tol("float32" if dtype != "float64" else dtype))
    kd = paddle.median(T(a), axis=axis, keepdim=True)
    assert kd.shape == list(np.median(a, axis=axis, keepdims=True).shape)


@pytest.mark.parametrize("shape,axis", [((6,), 0), ((4, 7), 1), ((5, 4, 3), 0), ((3, 8), -1)])
def test_median_min_vs_torch(shape, axis):
    a = rng.permutation(int(np.prod(shape))).reshape(shape).astype("float64")
    v, i = paddle.median(T(a), axis=axis, mode="min")
    tv, ti = torch.median(torch.tensor(a), dim=axis)
    close(v, tv)
    close(i, ti)
    a[0, ...] = np.nan  # first slice along axis 0 holds NaN everywhere
    v, i = T(a).median(axis=axis, mode="min", keepdim=True)
    tv, ti = torch.median(torch.tensor(a), dim=axis, keepdim=True)
    close(v, tv)
    close(i, ti)


def test_median_grad():
    a = rng.permutation(24).reshape(4, 6).astype("float64")
    grad_vs_torch(lambda x: paddle.median(x, axis=1, mode="min"),
                  lambda x: torch.median(x, dim=1), a)
    grad_vs_torch(lambda x: paddle.median(x, axis=0), lambda x: torch.quantile(x, 0.5, dim=0), a)
    grad_vs_torch(lambda x: paddle.median(x), lambda x: torch.quantile(x, 0.5), a)
    grad_vs_torch(lambda x: paddle.median(x, axis=1), lambda x: torch.quantile(x, 0.5, dim=1), a)


def test_median_errors():
    x = T(np.zeros((2, 3)))
    with raises(ValueError, "(InvalidArgument) median: argument 'mode'"):
        paddle.median(x, mode="mean")
    with raises(ValueError, "(InvalidArgument) median: argument 'axis' expected an int in [-2, 2)"):
        paddle.median(x, axis=2)
    with raises(ValueError, "(InvalidArgument) median: argument 'x' expected a non-empty tensor"):
        paddle.median(T(np.zeros((0, 3))))
    with raises(TypeError, "(InvalidType) median: argument 'axis' expected an int"):
        paddle.median(x, axis=[0, 1])


# quantile / nanquantile ------------------------------------------------------------------------
def test_quantile_doc_examples():
    y = paddle.arange(0, 8, dtype="float32").reshape([4, 2])
    y1 = paddle.quantile(y, q=0.5, axis=[0, 1])
    assert y1.shape == [] and y1.dtype == paddle.float32
    close(y1, 3.5)
    close(paddle.quantile(y, q=0.5, axis=1), [0.5, 2.5, 4.5, 6.5])
    close(paddle.quantile(y, q=[0.3, 0.5], axis=0), [[1.8, 2.8], [3.0, 4.0]], rtol=1e-6)
    y[0, 0] = float("nan")
    close(paddle.quantile(y, q=0.8, axis=1, keepdim=True), [[np.nan], [2.8], [4.8], [6.8]],
          rtol=1e-6)
    close(paddle.quantile(y, q=0, axis=0), [np.nan, 1.0])
    x = T([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], "float32")
    x[0, 0] = float("nan")
    close(paddle.nanquantile(x, q=0.5, axis=[0, 1]), 5.0)
    close(paddle.nanquantile(x, q=0.5, axis=1), [2.5, 7.0])
    close(paddle.nanquantile(x, q=[0.3, 0.5], axis=0), [[5.0, 2.5, 3.5, 4.5, 5.5],
                                                        [5.0, 3.5, 4.5, 5.5, 6.5]], rtol=1e-6)
    close(paddle.nanquantile(x, q=0.8, axis=1, keepdim=True), [[3.4], [8.2]], rtol=1e-6)
    nan = T([np.nan] * 5, "float32")
    close(paddle.nanquantile(nan, q=0.8, axis=0), np.nan)


METHODS = ["linear", "lower", "higher", "midpoint", "nearest"]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("interpolation", METHODS)
@pytest.mark.parametrize("shape,axis,keepdim", [((7,), None, False), ((4, 7), 1, False),
                                                ((7, 3, 2), 0, True), ((3, 7, 2), [0, 2], False),
                                                ((2, 3, 4), [1, 2], True), ((3, 4), None, True)])
def test_quantile_vs_numpy(dtype, interpolation, shape, axis, keepdim):
    a = rng.standard_normal(shape).astype(dtype)
    q = [0.1, 0.33, 0.8]  # no index exactly halfway (numpy's 'nearest' rounds half to even)
    npax = tuple(axis) if isinstance(axis, list) else axis
    n = a.size if axis is None else np.prod([a.shape[i] for i in np.atleast_1d(axis)])
    def halfway(count):  # an index exactly halfway: numpy's 'nearest' rounds half to even
        return interpolation == "nearest" and any(abs((qq * (count - 1)) % 1 - 0.5) < 1e-9
                                                  for qq in q)

    if halfway(n):
        pytest.skip("a halfway index")
    want = np.quantile(a.astype("float64"), q, axis=npax, keepdims=keepdim, method=interpolation)
    got = paddle.quantile(T(a), q, axis=axis, keepdim=keepdim, interpolation=interpolation)
    assert got.dtype == T(a).dtype
    close(got, want, **tol(dtype))
    one = paddle.quantile(T(a), 0.8, axis=axis, keepdim=keepdim, interpolation=interpolation)
    close(one, want[2], **tol(dtype))
    if halfway(n - 1):
        return
    a[(0,) * a.ndim] = np.nan
    with np.errstate(all="ignore"):
        want = np.nanquantile(a.astype("float64"), q, axis=npax, keepdims=keepdim,
                              method=interpolation)
    got = T(a).nanquantile(q, axis=axis, keepdim=keepdim, interpolation=interpolation)
    close(got, want, **tol(dtype))


def test_quantile_q_forms_and_integers():
    a = rng.standard_normal((5, 6))
    qt = T([0.25, 0.75])
    close(paddle.quantile(T(a), qt, axis=1), np.quantile(a, [0.25, 0.75], axis=1))
    close(paddle.quantile(T(a), T(0.25), axis=1), np.quantile(a, 0.25, axis=1))
    close(paddle.quantile(T(a), (0.25,), axis=1), np.quantile(a, 0.25, axis=1))
    ints = np.arange(10).reshape(2, 5)
    out = paddle.quantile(T(ints), 0.4, axis=1)
    assert out.dtype == paddle.float32
    close(out, np.quantile(ints, 0.4, axis=1), rtol=1e-6)


def test_quantile_grad():
    a = rng.standard_normal((5, 6))
    grad_vs_torch(lambda x: paddle.quantile(x, [0.2, 0.7], axis=1),
                  lambda x: torch.quantile(x, torch.tensor([0.2, 0.7], dtype=x.dtype), dim=1), a)
    grad_vs_torch(lambda x: paddle.quantile(x, 0.35), lambda x: torch.quantile(x, 0.35), a)
    b = a.copy()
    b[1, 2] = np.nan
    grad_vs_torch(lambda x: paddle.nanquantile(x, 0.6, axis=1, keepdim=True),
                  lambda x: torch.nanquantile(x, 0.6, dim=1, keepdim=True), b)


def test_quantile_errors():
    x = T(np.zeros((2, 3)))
    with raises(ValueError, "(InvalidArgument) quantile: argument 'q' expected values in [0, 1]"):
        paddle.quantile(x, 1.5)
    with raises(ValueError, "(InvalidArgument) nanquantile: argument 'q' expected a non-empty"):
        paddle.nanquantile(x, [])
    with raises(ValueError, "(InvalidArgument) quantile: argument 'interpolation'"):
        paddle.quantile(x, 0.5, interpolation="cubic")
    with raises(ValueError, "(InvalidArgument) quantile: argument 'axis'"):
        paddle.quantile(x, 0.5, axis=[0, 3])
    with raises(ValueError, "(InvalidArgument) quantile: argument 'q'"):
        paddle.quantile(x, T([[0.5]]))
    with raises(TypeError, "(InvalidType) quantile: argument 'q'"):
        paddle.quantile(x, "0.5")


# kthvalue --------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS + ["int32", "int64"])
def test_kthvalue_vs_torch(dtype):
    a = rng.permutation(60).reshape(3, 4, 5).astype(dtype)
    for k, axis, keepdim in [(1, None, False), (3, 1, False), (5, -1, True), (2, 0, True)]:
        v, i = paddle.kthvalue(T(a), k, axis=axis, keepdim=keepdim)
        tv, ti = torch.kthvalue(torch.tensor(a), k, dim=-1 if axis is None else axis,
                                keepdim=keepdim)
        close(v, tv)
        close(i, ti)
        assert v.dtype == T(a).dtype and i.dtype == paddle.int64
    v, i = T(a).kthvalue(2)
    close(v, torch.kthvalue(torch.tensor(a), 2).values)


def test_kthvalue_doc_and_nan():
    x = T([[[2.0, 3.0], [4.0, 5.0]], [[8.0, 8.0], [7.0, 6.0]]])  # ties: a stable order
    v, i = paddle.kthvalue(x, 2, 1)
    close(v, [[4.0, 5.0], [8.0, 8.0]])
    close(i, [[1, 1], [0, 0]])
    v, i = paddle.kthvalue(T([1.0, np.nan, 0.5]), 3)
    assert np.isnan(v.item()) and i.item() == 1
    v, i = paddle.kthvalue(T(3.0), 1)
    assert v.shape == [] and v.item() == 3.0 and i.item() == 0


def test_kthvalue_grad():
    a = rng.permutation(30).reshape(5, 6).astype("float64")
    grad_vs_torch(lambda x: paddle.kthvalue(x, 2, axis=0), lambda x: torch.kthvalue(x, 2, 0), a)
    grad_vs_torch(lambda x: paddle.kthvalue(x, 4, keepdim=True),
                  lambda x: torch.kthvalue(x, 4, keepdim=True), a)


def test_kthvalue_errors():
    x = T(np.zeros((2, 3)))
    with raises(ValueError, "(InvalidArgument) kthvalue: argument 'k' expected an int in [1, 3]"):
        paddle.kthvalue(x, 4)
    with raises(ValueError, "(InvalidArgument) kthvalue: argument 'k'"):
        paddle.kthvalue(x, 0, axis=0)
    with raises(ValueError, "(InvalidArgument) kthvalue: argument 'axis'"):
        paddle.kthvalue(x, 1, axis=-3)
    with raises(TypeError, "(InvalidType) kthvalue: argument 'k' expected an int"):
        paddle.kthvalue(x, 1.5)


# unique_consecutive ----------------------------------------------------------------------------
def test_unique_consecutive_doc_examples():
    x = T([1, 1, 2, 2, 3, 1, 1, 2])
    close(paddle.unique_consecutive(x), [1, 2, 3, 1, 2])
    out, inv, cnt = paddle.unique_consecutive(x, return_inverse=True, return_counts=True)
    close(inv, [0, 0, 1, 1, 2, 3, 3, 4])
    close(cnt, [2, 2, 1, 2, 1])
    x = T([[2, 1, 3], [3, 0, 1], [2, 1, 3], [2, 1, 3]])
    close(paddle.unique_consecutive(x, axis=0), [[2, 1, 3], [3, 0, 1], [2, 1, 3]])


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "int64", "bool"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_unique_consecutive_vs_torch(dtype, axis):
    a = rng.integers(0, 2, (6, 4, 3)).astype(dtype)
    a[2] = a[1]
    a[:, 3] = a[:, 2]
    out, inv, cnt = paddle.unique_consecutive(T(a), True, True, axis=axis, dtype="int32")
    tout, tinv, tcnt = torch.unique_consecutive(torch.tensor(a), True, True, dim=axis)
    close(out, tout)
    close(inv, tinv.reshape(-1))  # Paddle's inverse of the flattened input is 1-D
    close(cnt, tcnt)
    assert inv.dtype == paddle.int32 and cnt.dtype == paddle.int32
    assert out.dtype == T(a).dtype
    out2, cnt2 = T(a).unique_consecutive(return_counts=True, axis=axis)
    close(out2, tout)
    close(cnt2, tcnt)


def test_unique_consecutive_nan_empty_scalar():
    out, cnt = paddle.unique_consecutive(T([np.nan, np.nan, 1.0, 1.0]), return_counts=True)
    close(out, [np.nan, np.nan, 1.0])  # NaN equals nothing
    close(cnt, [1, 1, 2])
    out, inv = paddle.unique_consecutive(T(np.zeros((0,), "float32")), return_inverse=True)
    assert out.shape == [0] and inv.shape == [0]
    out, inv = paddle.unique_consecutive(T(5), return_inverse=True)
    close(out, [5])
    close(inv, [0])


def test_unique_consecutive_errors():
    with raises(ValueError, "(InvalidArgument) unique_consecutive: argument 'axis'"):
        paddle.unique_consecutive(T([1, 2]), axis=1)
    with raises(TypeError, "(InvalidType) unique_consecutive: argument 'dtype'"):
        paddle.unique_consecutive(T([1, 2]), dtype="float32")


# bincount / histogram --------------------------------------------------------------------------
def test_bincount():
    x = T([1, 2, 1, 4, 5])
    out = paddle.bincount(x)
    assert out.dtype == paddle.int64
    close(out, [0, 2, 1, 0, 1, 1])
    w = T([2.1, 0.4, 0.1, 0.5, 0.5], "float32")
    out = paddle.bincount(x, weights=w)
    assert out.dtype == paddle.float32
    close(out, [0.0, 2.2, 0.4, 0.0, 0.5, 0.5], rtol=1e-6)
    a = rng.integers(0, 30, 500)
    wa = rng.standard_normal(500)
    close(paddle.bincount(T(a, "int32"), minlength=40), np.bincount(a, minlength=40))
    close(T(a).bincount(T(wa)), np.bincount(a, wa))
    close(paddle.bincount(T(np.zeros(0, "int64")), minlength=3), [0, 0, 0])
    close(paddle.bincount(T(a), T(a.astype("int32"))), np.bincount(a, a))


def test_bincount_errors():
    with raises(ValueError, "(InvalidArgument) bincount: argument 'x' expected non-negative"):
        paddle.bincount(T([1, -1]))
    with raises(TypeError, "(InvalidType) bincount: argument 'x' expected an int32 or int64"):
        paddle.bincount(T([1.0, 2.0]))
    with raises(ValueError, "(InvalidArgument) bincount: argument 'x' expected a 1-D tensor"):
        paddle.bincount(T([[1, 2]]))
    with raises(ValueError, "(InvalidArgument) bincount: argument 'weights' expected shape [2]"):
        paddle.bincount(T([1, 2]), T([1.0]))
    with raises(ValueError, "(InvalidArgument) bincount: argument 'minlength'"):
        paddle.bincount(T([1, 2]), minlength=-1)


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "int64"])
def test_histogram_vs_numpy(dtype):
    a = (rng.standard_normal(1000) * 5).astype(dtype)
    out = paddle.histogram(T(a), bins=17)
    assert out.dtype == paddle.int64 and out.shape == [17]
    close(out, np.histogram(a, 17, (a.min(), a.max()))[0])
    out = T(a).histogram(bins=8, min=-3, max=4)
    inside = a[(a >= -3) & (a <= 4)]
    close(out, np.histogram(inside, 8, (-3, 4))[0])
    close(paddle.histogram(T(a), bins=8, min=-3, max=4),
          torch.histc(torch.tensor(a.astype("float64")), 8, -3, 4))
    w = rng.random(1000).astype("float32")
    out = paddle.histogram(T(a), bins=5, min=-2, max=2, weight=T(w))
    assert out.dtype == paddle.float32
    m = (a >= -2) & (a <= 2)
    close(out, np.histogram(a[m], 5, (-2, 2), weights=w[m])[0], rtol=1e-5)
    out = paddle.histogram(T(a), bins=6, min=-2, max=2, density=True)
    close(out, np.histogram(a[m], 6, (-2, 2), density=True)[0], rtol=1e-5)


def test_histogram_doc_and_edges():
    close(paddle.histogram(T([1, 2, 1]), bins=4, min=0, max=3), [0, 2, 1, 0])
    close(paddle.histogram(T([2.0, 2.0]), bins=4), [0, 0, 2, 0])  # equal range widens by 1
    close(paddle.histogram(T([0.0, np.nan, 1.0]), bins=2, min=0, max=1), [1, 1])


def test_histogram_errors():
    with raises(ValueError, "(InvalidArgument) histogram: argument 'bins'"):
        paddle.histogram(T([1.0]), bins=0)
    with raises(ValueError, "(InvalidArgument) histogram: argument 'max' expected max >= min"):
        paddle.histogram(T([1.0]), min=2, max=1)
    with raises(ValueError, "(InvalidArgument) histogram: argument 'weight' expected shape [2]"):
        paddle.histogram(T([1.0, 2.0]), weight=T([1.0]))


# bernoulli / multinomial -----------------------------------------------------------------------
def test_bernoulli_doc_statistics_and_seed():
    paddle.seed(100)
    x = paddle.rand([2, 3])
    out = paddle.bernoulli(x)
    assert out.dtype == paddle.float32 and out.shape == [2, 3]
    assert set(np.unique(out.numpy())) <= {0.0, 1.0}
    close(paddle.bernoulli(x, p=0), np.zeros((2, 3)))
    close(paddle.bernoulli(x, p=1.0), np.ones((2, 3)))
    n = 200_000
    for dtype in FLOATS:
        p = paddle.full([n], 0.3, dtype)
        s = paddle.bernoulli(p).numpy()
        assert s.dtype == np.dtype(dtype)
        # mean 0.3, std of the mean sqrt(0.21 / n) ~ 0.001: a 5 sigma bound
        assert abs(s.mean() - 0.3) < 0.005
    probs = np.linspace(0, 1, 11)
    s = paddle.bernoulli(T(np.tile(probs, (20000, 1)))).numpy()
    assert np.all(np.abs(s.mean(0) - probs) < 5 * np.sqrt(probs * (1 - probs) / 20000) + 1e-12)
    paddle.seed(7)
    a = paddle.bernoulli(paddle.full([1000], 0.5)).numpy()
    paddle.seed(7)
    b = paddle.bernoulli(paddle.full([1000], 0.5)).numpy()
    np.testing.assert_array_equal(a, b)
    c = paddle.bernoulli(paddle.full([1000], 0.5)).numpy()
    assert (a != c).any()
    out = paddle.bernoulli(T([0, 1, 1], "int64"))
    assert out.dtype == paddle.int64
    close(out, [0, 1, 1])


def test_bernoulli_errors():
    with raises(ValueError, "(InvalidArgument) bernoulli: argument 'x' expected probabilities"):
        paddle.bernoulli(T([0.5, 1.5]))
    with raises(ValueError, "(InvalidArgument) bernoulli: argument 'p'"):
        paddle.bernoulli(T([0.5]), p=-0.1)


def test_multinomial_with_replacement_statistics():
    paddle.seed(2024)
    w = np.array([0.1, 0.0, 0.2, 0.3, 0.4])
    n = 100_000
    s = paddle.multinomial(T(w * 3.0), n, replacement=True)  # weights need not sum to 1
    assert s.dtype == paddle.int64 and s.shape == [n]
    freq = np.bincount(s.numpy(), minlength=5) / n
    assert freq[1] == 0.0
    assert np.all(np.abs(freq - w) < 5 * np.sqrt(w * (1 - w) / n) + 1e-12), freq
    rows = paddle.multinomial(T(np.stack([w, w[::-1]])), 1000, replacement=True).numpy()
    assert rows.shape == (2, 1000)
    assert not (rows[0] == 1).any() and not (rows[1] == 3).any()
    big = np.zeros(1001)
    big[1::2] = 1.0  # zero weight at every even category
    big[999] = 500.0  # one heavy category: probability 500 / 999
    s = paddle.multinomial(T(big), 20000, replacement=True).numpy()
    assert (s % 2 == 1).all() and s.max() <= 999
    p = 500.0 / 999.0
    assert abs((s == 999).mean() - p) < 5 * np.sqrt(p * (1 - p) / 20000)


def test_multinomial_without_replacement():
    paddle.seed(5)
    w = T([[0.2, 0.3, 0.5, 0.0], [1.0, 1.0, 1.0, 1.0]])
    s = paddle.multinomial(w, 3).numpy()
    assert s.shape == (2, 3)
    for row in s:
        assert len(set(row)) == 3
    assert 3 not in s[0]
    # first draw frequencies follow the weights
    w1 = np.array([0.2, 0.3, 0.5])
    n = 40_000
    first = paddle.multinomial(T(np.tile(w1, (n, 1))), 1).numpy()[:, 0]
    freq = np.bincount(first, minlength=3) / n
    assert np.all(np.abs(freq - w1) < 5 * np.sqrt(w1 * (1 - w1) / n)), freq
    # the second draw, given the first: P(second = j) = sum_i w_i w_j / (1 - w_i)
    pair = paddle.multinomial(T(np.tile(w1, (n, 1))), 2).numpy()
    second = np.array([sum(w1[i] * w1[j] / (1 - w1[i]) for i in range(3) if i != j)
                       for j in range(3)])
    freq2 = np.bincount(pair[:, 1], minlength=3) / n
    assert np.all(np.abs(freq2 - second) < 5 * np.sqrt(second * (1 - second) / n)), freq2
    paddle.seed(11)
    a = paddle.multinomial(T(w1), 2).numpy()
    paddle.seed(11)
    np.testing.assert_array_equal(a, paddle.multinomial(T(w1), 2).numpy())


def test_multinomial_errors():
    with raises(ValueError, "(InvalidArgument) multinomial: argument 'num_samples'"):
        paddle.multinomial(T([0.5, 0.5]), 3)
    with raises(ValueError, "(InvalidArgument) multinomial: argument 'x' expected finite"):
        paddle.multinomial(T([0.5, -0.5]), 1)
    with raises(ValueError, "(InvalidArgument) multinomial: argument 'x' expected a row"):
        paddle.multinomial(T([[0.5, 0.5], [0.0, 0.0]]), 1)
    with raises(ValueError, "(InvalidArgument) multinomial: argument 'x' expected a 1-D or 2-D"):
        paddle.multinomial(T(np.ones((2, 2, 2))), 1)


# cummax / cummin -------------------------------------------------------------------------------
def test_cummax_cummin_doc_examples():
    data = T([-1, 5, 0, -2, -3, 2])
    v, i = paddle.cummax(data)
    close(v, [-1, 5, 5, 5, 5, 5])
    close(i, [0, 1, 1, 1, 1, 1])
    v, i = paddle.cummin(data)
    close(v, [-1, -1, -1, -2, -3, -3])
    close(i, [0, 0, 0, 3, 4, 4])
    data = T([[-1, 5, 0], [-3, 2, 1]])
    v, i = paddle.cummax(data, axis=0)
    close(v, [[-1, 5, 0], [-1, 5, 1]])
    close(i, [[0, 0, 0], [0, 0, 1]])
    v, i = data.cummax(axis=-1)
    close(v, [[-1, 5, 5], [-3, 2, 2]])
    close(i, [[0, 1, 1], [0, 1, 1]])
    v, i = paddle.cummax(data, dtype="int32")
    assert i.dtype == paddle.int32 and v.dtype == paddle.int64 and v.shape == [6]


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "int64"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cummax_cummin_vs_torch(dtype, axis):
    a = rng.integers(-4, 5, (5, 6, 7)).astype(dtype)  # many ties
    if dtype.startswith("float"):
        a[rng.random(a.shape) < 0.05] = np.nan
    for ours, theirs in ((paddle.cummax, torch.cummax), (paddle.cummin, torch.cummin)):
        v, i = ours(T(a), axis=axis)
        tv, ti = theirs(torch.tensor(a), dim=axis)
        close(v, tv)
        close(i, ti)
        assert v.dtype == T(a).dtype and i.dtype == paddle.int64


def test_cummax_cummin_grad_and_edges():
    a = rng.standard_normal((4, 6))
    for ax in (0, 1):
        grad_vs_torch(lambda x: paddle.cummax(x, axis=ax), lambda x: torch.cummax(x, ax), a)
        grad_vs_torch(lambda x: x.cummin(axis=ax), lambda x: torch.cummin(x, ax), a)
    v, i = paddle.cummax(T(2.5))
    assert v.shape == [1] and i.item() == 0
    v, i = paddle.cummin(T(np.zeros((0, 3))), axis=1)
    assert v.shape == [0, 3] and i.shape == [0, 3]


def test_cummax_errors():
    with raises(TypeError, "cummax: argument 'dtype' expected int32 or int64"):
        paddle.cummax(T([1.0, 2.0]), dtype="float32")
    with raises(IndexError, "cummin: argument 'axis'"):
        paddle.cummin(T([[1.0, 2.0]]), axis=2)


# logcumsumexp ----------------------------------------------------------------------------------
def _np_logcumsumexp(a, axis):
    return np.logaddexp.accumulate(a, axis=axis)


def test_logcumsumexp_doc_example():
    data = paddle.reshape(paddle.arange(12, dtype="float64"), (3, 4))
    y = paddle.logcumsumexp(data)
    assert y.shape == [12]
    close(y[:4], [0.0, 1.31326169, 2.40760596, 3.44018970], rtol=1e-8)
    close(y[-1], 11.45866900, rtol=1e-8)
    close(paddle.logcumsumexp(data, axis=0)[1], [4.01814993, 5.01814993, 6.01814993, 7.01814993],
          rtol=1e-8)
    close(data.logcumsumexp(axis=-1)[2], [8.0, 9.31326169, 10.40760596, 11.44018970], rtol=1e-8)
    y = paddle.logcumsumexp(paddle.arange(4), dtype="float64")
    assert y.dtype == paddle.float64


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_logcumsumexp_vs_numpy_torch(dtype, axis):
    a = (rng.standard_normal((4, 5, 6)) * 3).astype(dtype)
    want = _np_logcumsumexp(a.reshape(-1) if axis is None else a, 0 if axis is None else axis)
    close(paddle.logcumsumexp(T(a), axis=axis), want, **tol(dtype))
    if axis is not None:
        close(paddle.logcumsumexp(T(a), axis=axis), torch.logcumsumexp(torch.tensor(a), axis),
              **tol(dtype))


def test_logcumsumexp_stability_and_special_values():
    big = paddle.logcumsumexp(T([1000.0, 1000.0, -1000.0], "float32"))
    close(big, [1000.0, 1000.0 + np.log(2), 1000.0 + np.log(2)], rtol=1e-6)
    small = paddle.logcumsumexp(T([-1000.0, -1000.0], "float64"))
    close(small, [-1000.0, -1000.0 + np.log(2)], rtol=1e-12)
    close(paddle.logcumsumexp(T([-np.inf, 0.0, np.nan, 1.0])), [-np.inf, 0.0, np.nan, np.nan])
    close(paddle.logcumsumexp(T([-np.inf, -np.inf])), [-np.inf, -np.inf])
    close(paddle.logcumsumexp(T([0.0, np.inf, 1.0])), [0.0, np.inf, np.inf])


def test_logcumsumexp_grad():
    a = rng.standard_normal((4, 6)) * 3
    grad_vs_torch(lambda x: paddle.logcumsumexp(x, axis=1), lambda x: torch.logcumsumexp(x, 1), a)
    grad_vs_torch(lambda x: paddle.logcumsumexp(x, axis=0), lambda x: torch.logcumsumexp(x, 0), a)
    grad_vs_torch(lambda x: paddle.logcumsumexp(x), lambda x: torch.logcumsumexp(x.reshape(-1), 0),
                  a)
    # large inputs: the gradient stays finite (a softmax of each prefix)
    x = T([500.0, 800.0, 900.0], grad=True)
    paddle.logcumsumexp(x).sum().backward()
    xt = torch.tensor([500.0, 800.0, 900.0], dtype=torch.float64, requires_grad=True)
    torch.logcumsumexp(xt, 0).sum().backward()
    close(x.grad, xt.grad)
    # second order through create_graph
    x = T(a, grad=True)
    (g,) = paddle.grad(paddle.logcumsumexp(x, axis=1).sum(), x, create_graph=True)
    (g * g).sum().backward()
    xt = torch.tensor(a, requires_grad=True)
    (gt,) = torch.autograd.grad(torch.logcumsumexp(xt, 1).sum(), xt, create_graph=True)
    (gt * gt).sum().backward()
    close(x.grad, xt.grad, rtol=1e-9, atol=1e-9)


def test_logcumsumexp_errors():
    with raises(TypeError, "(InvalidType) logcumsumexp: argument 'x' expected a floating point"):
        paddle.logcumsumexp(T([1, 2, 3]))
    with raises(IndexError, "logcumsumexp: argument 'axis'"):
        paddle.logcumsumexp(T([1.0, 2.0]), axis=1)


# mode ------------------------------------------------------------------------------------------
def test_mode_doc_example():
    x = T([[[1, 2, 2], [2, 3, 3]], [[0, 5, 5], [9, 9, 0]]], "float32")
    v, i = paddle.mode(x, 2)
    close(v, [[2.0, 3.0], [5.0, 9.0]])
    tv, ti = torch.mode(torch.tensor(x.numpy()), 2)
    close(i, ti)
    assert i.dtype == paddle.int64


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "int64"])
@pytest.mark.parametrize("axis,keepdim", [(-1, False), (0, True), (1, False)])
def test_mode_vs_torch(dtype, axis, keepdim):
    a = rng.integers(0, 4, (6, 9, 5)).astype(dtype)
    v, i = paddle.mode(T(a), axis, keepdim)
    tv, ti = torch.mode(torch.tensor(a), axis, keepdim)
    close(v, tv)
    close(i, ti)
    v2, i2 = T(a).mode(axis=axis, keepdim=keepdim)
    close(v2, tv)


def test_mode_ties_nan_and_grad():
    v, i = paddle.mode(T([3.0, 1.0, 3.0, 1.0, 2.0]))  # equally frequent: the smaller, last index
    assert v.item() == 1.0 and i.item() == 3
    v, i = paddle.mode(T([np.nan, np.nan, 2.0]))  # each NaN is a value of its own
    assert v.item() == 2.0 and i.item() == 2
    v, i = paddle.mode(T(4.0))
    assert v.shape == [] and v.item() == 4.0 and i.item() == 0
    a = rng.integers(0, 3, (4, 7)).astype("float64")
    grad_vs_torch(lambda x: paddle.mode(x, 1), lambda x: torch.mode(x, 1), a)
    grad_vs_torch(lambda x: paddle.mode(x, 0, True), lambda x: torch.mode(x, 0, True), a)


def test_mode_errors():
    with raises(ValueError, "(InvalidArgument) mode: argument 'x' expected a non-empty axis"):
        paddle.mode(T(np.zeros((2, 0))))
    with raises(IndexError, "mode: argument 'axis'"):
        paddle.mode(T(np.zeros((2, 3))), 2)


# searchsorted / bucketize ----------------------------------------------------------------------
def test_searchsorted_bucketize_doc_examples():
    seq = T([[1, 3, 5, 7, 9, 11], [2, 4, 6, 8, 10, 12]], "int32")
    values = T([[3, 6, 9, 10], [3, 6, 9, 10]], "int32")
    out = paddle.searchsorted(seq, values)
    assert out.dtype == paddle.int64
    close(out, [[1, 3, 4, 5], [1, 2, 4, 4]])
    close(paddle.searchsorted(seq, values, right=True), [[2, 3, 5, 5], [1, 3, 4, 5]])
    seq1 = T([1, 3, 5, 7, 9, 11, 13])
    close(paddle.searchsorted(seq1, values), [[1, 3, 4, 5], [1, 3, 4, 5]])
    boundaries = T([2, 4, 8, 16], "int64")
    x = T([[0, 8, 4, 16], [-1, 2, 8, 4]], "int64")
    close(paddle.bucketize(x, boundaries), [[0, 2, 1, 3], [0, 0, 2, 1]])
    close(paddle.bucketize(x, boundaries, right=True), [[0, 3, 2, 4], [0, 1, 3, 2]])
    close(x.bucketize(boundaries), [[0, 2, 1, 3], [0, 0, 2, 1]])
    out = x.bucketize(boundaries, out_int32=True, right=True)
    assert out.dtype == paddle.int32
    close(out, [[0, 3, 2, 4], [0, 1, 3, 2]])


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "int64"])
@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_vs_torch(dtype, right):
    seq = np.sort(rng.integers(-5, 6, (3, 4, 20)), axis=-1).astype(dtype)
    vals = rng.integers(-7, 8, (3, 4, 9)).astype(dtype)
    out = paddle.searchsorted(T(seq), T(vals), right=right)
    close(out, torch.searchsorted(torch.tensor(seq), torch.tensor(vals), right=right))
    one = seq[0, 0]
    vals = rng.integers(-7, 8, (2, 3, 5)).astype(dtype)
    out = paddle.searchsorted(T(one), T(vals), out_int32=True, right=right)
    assert out.dtype == paddle.int32
    close(out, np.searchsorted(one, vals, side="right" if right else "left"))
    close(paddle.bucketize(T(vals), T(one), right=right),
          torch.bucketize(torch.tensor(vals), torch.tensor(one), right=right))


def test_searchsorted_nan_mixed_dtypes_scalar():
    seq = np.array([1.0, 2.0, np.nan])
    for right in (False, True):
        side = "right" if right else "left"
        vals = np.array([np.nan, 2.0, 0.0, 5.0])
        close(paddle.searchsorted(T(seq), T(vals), right=right), np.searchsorted(seq, vals, side))
    out = paddle.searchsorted(T([1.0, 2.5, 4.0]), T([2, 3], "int64"))  # promoted
    close(out, [1, 2])
    out = paddle.searchsorted(T([1, 3, 5]), T(4))
    assert out.shape == [] and out.item() == 2


def test_searchsorted_errors():
    with raises(ValueError, "(InvalidArgument) searchsorted: argument 'sorted_sequence' "
                            "expected 1-D or the leading dims of values"):
        paddle.searchsorted(T(np.zeros((2, 3))), T(np.zeros((3, 3))))
    with raises(ValueError, "(InvalidArgument) bucketize: argument 'sorted_sequence' expected a "
                            "1-D tensor"):
        paddle.bucketize(T([1.0]), T(np.zeros((2, 3))))


# poisson ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS)
def test_poisson_statistics(dtype):
    paddle.seed(123)
    n = 20000
    for lam in (0.3, 3.0, 9.5, 10.0, 42.0, 1000.0):
        s = paddle.poisson(paddle.full([n], lam, dtype)).numpy()
        assert s.dtype == np.dtype(dtype)
        assert (s >= 0).all() and (s == np.round(s)).all()
        # the sample mean has std sqrt(lam / n); the sample variance about lam sqrt(2 / n)
        assert abs(s.mean() - lam) < 5 * np.sqrt(lam / n), (lam, s.mean())
        assert abs(s.var() - lam) < 6 * lam * np.sqrt((2 + 1 / lam) / n), (lam, s.var())
    s = paddle.poisson(paddle.full([n], 4.0)).numpy()
    from math import exp, factorial
    for k in range(9):  # the pmf, each within 5 sigma
        p = exp(-4.0) * 4.0 ** k / factorial(k)
        assert abs((s == k).mean() - p) < 5 * np.sqrt(p * (1 - p) / n), k


def test_poisson_seed_zero_rates_grad():
    rates = T(np.array([[0.0, 1.0, 20.0], [5.0, 0.0, 300.0]]), "float32")
    paddle.seed(9)
    a = paddle.poisson(rates).numpy()
    paddle.seed(9)
    b = paddle.poisson(rates).numpy()
    np.testing.assert_array_equal(a, b)
    assert a[0, 0] == 0 and a[1, 1] == 0
    x = T([2.0, 3.0], grad=True)
    paddle.poisson(x).sum().backward()
    close(x.grad, [0.0, 0.0])


def test_poisson_errors():
    with raises(ValueError, "(InvalidArgument) poisson: argument 'x' expected finite non-negative"):
        paddle.poisson(T([1.0, -1.0]))
    with raises(ValueError, "(InvalidArgument) poisson: argument 'x'"):
        paddle.poisson(T([np.inf]))
    with raises(TypeError, "(InvalidType) poisson: argument 'x' expected a floating point"):
        paddle.poisson(T([1, 2]))


def test_signatures():
    import inspect
    sig = {
        "nansum": "(x, axis=None, dtype=None, keepdim=False, name=None)",
        "nanmean": "(x, axis=None, keepdim=False, name=None)",
        "median": "(x, axis=None, keepdim=False, mode='avg', name=None)",
        "quantile": "(x, q, axis=None, keepdim=False, interpolation='linear', name=None)",
        "nanquantile": "(x, q, axis=None, keepdim=False, interpolation='linear', name=None)",
        "kthvalue": "(x, k, axis=None, keepdim=False, name=None)",
        "unique_consecutive": "(x, return_inverse=False, return_counts=False, axis=None, "
                              "dtype='int64', name=None)",
        "bincount": "(x, weights=None, minlength=0, name=None)",
        "histogram": "(input, bins=100, min=0.0, max=0.0, weight=None, density=False, name=None)",
        "bernoulli": "(x, p=None, name=None)",
        "multinomial": "(x, num_samples=1, replacement=False, name=None)",
        "cummax": "(x, axis=None, dtype='int64', name=None)",
        "cummin": "(x, axis=None, dtype='int64', name=None)",
        "logcumsumexp": "(x, axis=None, dtype=None, name=None)",
        "mode": "(x, axis=-1, keepdim=False, name=None)",
        "searchsorted": "(sorted_sequence, values, out_int32=False, right=False, name=None)",
        "bucketize": "(x, sorted_sequence, out_int32=False, right=False, name=None)",
        "poisson": "(x, name=None)",
    }
    for name, want in sig.items():
        fn = getattr(paddle, name)
        assert inspect.isfunction(fn), name
        assert str(inspect.signature(fn)) == want, name
