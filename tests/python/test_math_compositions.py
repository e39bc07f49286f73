"""logaddexp, nan_to_num(_), deg2rad, rad2deg, inner, fmax, fmin, hypot(_), copysign(_), signbit,
sinc(_), isneginf, isposinf, isreal, isin, trapezoid, cumulative_trapezoid, cartesian_prod,
block_diag, tril_indices, triu_indices and linalg.cholesky_inverse against numpy/torch (forward
and gradients in float32/float64), Paddle's conventions, and the bad-input messages."""
import numpy as np
import pytest
import torch

import skiff as paddle

FLOATS = [("float32", 1e-5), ("float64", 1e-12)]
SPECIAL = np.array([1.5, -2.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 3.0])


def _pt(a, grad=False):
    t = paddle.to_tensor(a)
    t.stop_gradient = not grad
    return t


def _grad_pair(fn_ours, fn_torch, arrays, dtype, tol):
    """Compares the forward and the gradients of sum(out * g) of a binary or unary function."""
    ours = [_pt(a.astype(dtype), True) for a in arrays]
    theirs = [torch.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
    out, ref = fn_ours(*ours), fn_torch(*theirs)
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=tol * 10, atol=tol * 10)
    g = np.random.default_rng(9).standard_normal(ref.shape).astype(dtype)
    (out * paddle.to_tensor(g)).sum().backward()
    (ref * torch.tensor(g)).sum().backward()
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=tol * 100, atol=tol * 100)


@pytest.mark.parametrize("dtype,tol", FLOATS)
def test_binary_functions_match_torch(dtype, tol):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4,))
    _grad_pair(paddle.logaddexp, torch.logaddexp, [a, b], dtype, tol)
    _grad_pair(paddle.hypot, torch.hypot, [a, b], dtype, tol)
    _grad_pair(paddle.fmax, torch.fmax, [a, b], dtype, tol)
    _grad_pair(paddle.fmin, torch.fmin, [a, b], dtype, tol)
    _grad_pair(paddle.inner, torch.inner, [a, rng.standard_normal((2, 5, 4))], dtype, tol)
    _grad_pair(lambda x: paddle.copysign(x, paddle.to_tensor(b.astype(dtype))),
               lambda x: torch.copysign(x, torch.tensor(b.astype(dtype))), [a], dtype, tol)
    _grad_pair(paddle.sinc, torch.sinc, [np.array([0.0, 0.25, -1.5, 2.0, 1e-3])], dtype, tol)
    _grad_pair(paddle.deg2rad, torch.deg2rad, [a * 100], dtype, tol)
    _grad_pair(paddle.rad2deg, torch.rad2deg, [a], dtype, tol)


def test_special_values_match_numpy():
    x = SPECIAL
    t = paddle.to_tensor(x)
    ones = np.ones_like(x)
    np.testing.assert_array_equal(paddle.signbit(t).numpy()[:-2], np.signbit(x)[:-2])
    np.testing.assert_array_equal(paddle.copysign(paddle.to_tensor(ones), t).numpy()[:6],
                                  np.copysign(ones, x)[:6])
    np.testing.assert_array_equal(paddle.isposinf(t).numpy(), np.isposinf(x))
    np.testing.assert_array_equal(paddle.isneginf(t).numpy(), np.isneginf(x))
    np.testing.assert_array_equal(paddle.isreal(t).numpy(), np.ones(8, bool))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(paddle.fmax(t, paddle.to_tensor(x[::-1].copy())).numpy(),
                                      np.fmax(x, x[::-1]))
        np.testing.assert_array_equal(paddle.fmin(t, paddle.to_tensor(x[::-1].copy())).numpy(),
                                      np.fmin(x, x[::-1]))
        np.testing.assert_array_equal(paddle.logaddexp(t, t).numpy(), np.logaddexp(x, x))
    np.testing.assert_array_equal(paddle.nan_to_num(t).numpy(), np.nan_to_num(x))
    np.testing.assert_array_equal(paddle.nan_to_num(t, 1.0, 9.0, -9.0).numpy(),
                                  np.nan_to_num(x, nan=1.0, posinf=9.0, neginf=-9.0))
    f32 = paddle.to_tensor(x.astype("float32"))
    np.testing.assert_array_equal(paddle.nan_to_num(f32).numpy(), np.nan_to_num(x.astype("float32")))
    np.testing.assert_array_equal(paddle.signbit(paddle.to_tensor([-3, 0, 2])).numpy(), [True, False, False])
    assert paddle.sinc(paddle.to_tensor([0, 1])).dtype == paddle.float32
    assert paddle.deg2rad(paddle.to_tensor([180])).dtype == paddle.float32


def test_nan_to_num_gradient_and_inplace():
    x = _pt(np.array([1.0, np.nan, np.inf, 2.0]), True)
    paddle.nan_to_num(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 0.0, 0.0, 1.0])
    y = paddle.to_tensor([np.nan, 1.0])
    assert y.nan_to_num_(nan=5.0) is y
    np.testing.assert_array_equal(y.numpy(), [5.0, 1.0])
    z = paddle.to_tensor([3.0, 4.0])
    paddle.hypot_(z, paddle.to_tensor([4.0, 3.0]))
    np.testing.assert_array_equal(z.numpy(), [5.0, 5.0])
    z.copysign_(paddle.to_tensor([-1.0, 1.0]))
    np.testing.assert_array_equal(z.numpy(), [-5.0, 5.0])
    s = paddle.to_tensor([0.0, 0.5])
    s.sinc_()
    np.testing.assert_allclose(s.numpy(), np.sinc([0.0, 0.5]))


@pytest.mark.parametrize("invert", [False, True])
def test_isin_matches_numpy(invert):
    rng = np.random.default_rng(1)
    x = rng.integers(0, 10, (3, 5))
    test = rng.integers(0, 10, (4,))
    out = paddle.isin(paddle.to_tensor(x), paddle.to_tensor(test), invert=invert)
    np.testing.assert_array_equal(out.numpy(), np.isin(x, test, invert=invert))
    xf = rng.standard_normal(6)
    tf = np.concatenate([xf[:3], rng.standard_normal(3)])
    out = paddle.isin(paddle.to_tensor(xf), paddle.to_tensor(tf), invert=invert)
    np.testing.assert_array_equal(out.numpy(), np.isin(xf, tf, invert=invert))
    empty = paddle.isin(paddle.to_tensor(x), paddle.to_tensor(np.zeros(0, "int64")), invert=invert)
    np.testing.assert_array_equal(empty.numpy(), np.full(x.shape, invert))


@pytest.mark.parametrize("dtype,tol", FLOATS)
def test_trapezoid_matches_torch(dtype, tol):
    rng = np.random.default_rng(2)
    y = rng.standard_normal((3, 5))
    xs = np.sort(rng.standard_normal(5))
    for axis in (-1, 1):
        _grad_pair(lambda t: paddle.trapezoid(t, axis=axis), lambda t: torch.trapezoid(t, dim=axis),
                   [y], dtype, tol)
        _grad_pair(lambda t: paddle.trapezoid(t, dx=0.5, axis=axis),
                   lambda t: torch.trapezoid(t, dx=0.5, dim=axis), [y], dtype, tol)
        _grad_pair(lambda t: paddle.cumulative_trapezoid(t, x=paddle.to_tensor(xs.astype(dtype))),
                   lambda t: torch.cumulative_trapezoid(t, x=torch.tensor(xs.astype(dtype))),
                   [y], dtype, tol)
    _grad_pair(lambda t: paddle.trapezoid(t, axis=0), lambda t: torch.trapezoid(t, dim=0), [y],
               dtype, tol)
    full_x = np.cumsum(rng.random((3, 5)), 1)
    np.testing.assert_allclose(
        paddle.trapezoid(paddle.to_tensor(y), x=paddle.to_tensor(full_x)).numpy(),
        np.trapz(y, full_x), rtol=1e-10)


def test_cartesian_prod_block_diag_indices():
    a, b, c = [1, 2], [3, 4, 5], [6]
    out = paddle.cartesian_prod([paddle.to_tensor(a), paddle.to_tensor(b), paddle.to_tensor(c)])
    ref = torch.cartesian_prod(torch.tensor(a), torch.tensor(b), torch.tensor(c)).numpy()
    np.testing.assert_array_equal(out.numpy(), ref)
    one = paddle.to_tensor([1.0, 2.0])
    assert paddle.cartesian_prod([one]) is one
    blocks = [np.array(1.0), np.array([[2.0, 3.0], [4.0, 5.0]]), np.array([6.0, 7.0])]
    ref = torch.block_diag(*[torch.tensor(m) for m in blocks]).numpy()
    ts = [_pt(m, True) for m in blocks]
    out = paddle.block_diag(ts)
    np.testing.assert_array_equal(out.numpy(), ref)
    (out * paddle.to_tensor(np.arange(ref.size, dtype="float64").reshape(ref.shape))).sum().backward()
    np.testing.assert_array_equal(ts[1].grad.numpy(), [[6.0, 7.0], [11.0, 12.0]])
    assert paddle.block_diag([paddle.to_tensor([1]), paddle.to_tensor([2.0])]).dtype == paddle.float32
    for row, col, off in [(4, 4, 0), (3, 5, 1), (5, 3, -2), (0, 2, 0), (3, 3, 5)]:
        np.testing.assert_array_equal(paddle.tril_indices(row, col, off).numpy(),
                                      torch.tril_indices(row, col, off).numpy())
        np.testing.assert_array_equal(paddle.triu_indices(row, col, off).numpy(),
                                      torch.triu_indices(row, col, off).numpy())
    assert paddle.tril_indices(3, 3, 0, "int32").dtype == paddle.int32
    np.testing.assert_array_equal(paddle.triu_indices(3).numpy(), torch.triu_indices(3, 3).numpy())


@pytest.mark.parametrize("dtype,tol", FLOATS)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_matches_torch(dtype, tol, upper):
    rng = np.random.default_rng(3)
    b = rng.standard_normal((2, 4, 4))
    a = b @ b.transpose(0, 2, 1) + 4 * np.eye(4)
    fac = np.linalg.cholesky(a)
    fac = fac.transpose(0, 2, 1) if upper else fac
    _grad_pair(lambda f: paddle.linalg.cholesky_inverse(f, upper),
               lambda f: torch.cholesky_inverse(f, upper), [fac], dtype, tol)


def test_bad_inputs():
    x = paddle.ones([2, 3])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) inner: argument 'y' expected the last dim 3"):
        paddle.inner(x, paddle.ones([2, 2]))
    with pytest.raises(TypeError, match=r"\(InvalidType\) hypot: argument 'y' expected a Tensor or a number"):
        paddle.hypot(x, "1")
    with pytest.raises(TypeError, match=r"\(InvalidType\) logaddexp: argument 'x' expected a Tensor"):
        paddle.logaddexp(1.0, x)
    with pytest.raises(TypeError, match=r"\(InvalidType\) isin: argument 'test_x' expected a float or int32/int64"):
        paddle.isin(x, paddle.ones([2], dtype="bool"))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) trapezoid: argument 'dx' expected None when x is given"):
        paddle.trapezoid(x, x=paddle.ones([3]), dx=1.0)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) trapezoid: argument 'x' expected 3 points"):
        paddle.trapezoid(x, x=paddle.ones([4]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) cumulative_trapezoid: argument 'axis' expected an int in \[-2, 2\)"):
        paddle.cumulative_trapezoid(x, axis=2)
    with pytest.raises(TypeError, match=r"\(InvalidType\) trapezoid: argument 'y' expected a floating point tensor"):
        paddle.trapezoid(paddle.ones([3], dtype="int64"))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) cartesian_prod: argument 'x\[1\]' expected a 1-D"):
        paddle.cartesian_prod([paddle.ones([2]), x])
    with pytest.raises(TypeError, match=r"\(InvalidType\) cartesian_prod: argument 'x' expected a non-empty list"):
        paddle.cartesian_prod(x)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) block_diag: argument 'inputs\[0\]' expected a tensor of rank <= 2"):
        paddle.block_diag([paddle.ones([1, 1, 1])])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) tril_indices: argument 'row' expected a non-negative int"):
        paddle.tril_indices(-1, 2)
    with pytest.raises(TypeError, match=r"\(InvalidType\) triu_indices: argument 'dtype' expected int32 or int64"):
        paddle.triu_indices(2, 2, 0, "float32")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) cholesky_inverse: argument 'x' expected square"):
        paddle.linalg.cholesky_inverse(x)
    with pytest.raises(TypeError, match=r"\(InvalidType\) sinc_: argument 'x' expected a floating point tensor"):
        paddle.sinc_(paddle.ones([2], dtype="int64"))
    w = paddle.ones([2])
    w.stop_gradient = False
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) nan_to_num_: argument 'x' expected a tensor that does not require grad"):
        w.nan_to_num_()


@pytest.mark.parametrize("dtype,tol", FLOATS)
def test_inverse_hyperbolic_and_atan2_match_torch(dtype, tol):
    rng = np.random.default_rng(4)
    _grad_pair(paddle.asinh, torch.asinh, [np.array([-3.0, -1e-4, 0.0, 0.5, 20.0])], dtype, tol)
    _grad_pair(paddle.acosh, torch.acosh, [np.array([1.5, 2.0, 10.0, 1e3])], dtype, tol)
    _grad_pair(paddle.atanh, torch.atanh, [np.array([-0.9, -1e-4, 0.0, 0.5, 0.99])], dtype, tol)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    _grad_pair(paddle.atan2, torch.atan2, [a, b], dtype, tol)
    x = np.array([1.0, -1, 0, 2, -2, 0, 3, -3])
    y = np.array([1.0, 1, -1, -1, -1, 0, 0, 0])
    np.testing.assert_allclose(paddle.atan2(paddle.to_tensor(x), paddle.to_tensor(y)).numpy(),
                               np.arctan2(x, y), atol=1e-15)
    assert paddle.atan2(paddle.to_tensor([1]), paddle.to_tensor([2])).dtype == paddle.float64
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(paddle.atanh(paddle.to_tensor([1.0, -1.0, 2.0])).numpy(),
                                      np.arctanh([1.0, -1.0, 2.0]))
        assert np.isnan(paddle.acosh(paddle.to_tensor([0.5])).numpy()[0])


def test_logspace():
    np.testing.assert_allclose(paddle.logspace(0, 3, 4).numpy(), np.logspace(0, 3, 4), rtol=1e-6)
    out = paddle.logspace(-1.0, 2.0, 5, 2.0, "float64")
    assert out.dtype == paddle.float64
    np.testing.assert_allclose(out.numpy(), np.logspace(-1, 2, 5, base=2.0), rtol=1e-14)
    assert paddle.logspace(1, 2, 0).shape == [0]
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) logspace: argument 'num' expected a non-negative int"):
        paddle.logspace(0, 1, -2)
    with pytest.raises(TypeError, match=r"\(InvalidType\) logspace: argument 'base' expected a number or a Tensor"):
        paddle.logspace(0, 1, 3, "10")
    with pytest.raises(TypeError, match=r"\(InvalidType\) atan2: argument 'y' expected a Tensor"):
        paddle.atan2(paddle.ones([2]), 1.0)
