"""paddle.linalg.matrix_exp, householder_product and ormqr (LAPACK orgqr / ormqr records) against torch (forward and gradients in
float32/float64), Paddle's documented examples, and the bad-input messages."""
import numpy as np
import pytest
import torch

import skiff as paddle

DTYPES = [("float32", 2e-5), ("float64", 1e-10)]


def _t(a, dtype, grad=False):
    t = paddle.to_tensor(a.astype(dtype))
    t.stop_gradient = not grad
    return t


@pytest.mark.parametrize("dtype,tol", DTYPES)
@pytest.mark.parametrize("scale", [1e-3, 0.2, 0.9, 2.0, 5.0, 40.0])
def test_matrix_exp_matches_torch(dtype, tol, scale):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 4, 4)) * scale / 4
    ours = paddle.linalg.matrix_exp(_t(a, dtype)).numpy()
    ref = torch.linalg.matrix_exp(torch.tensor(a)).numpy()
    np.testing.assert_allclose(ours, ref, rtol=tol * 10, atol=tol * 10 * np.abs(ref).max())
    assert ours.dtype == np.dtype(dtype)


@pytest.mark.parametrize("dtype,tol", DTYPES)
@pytest.mark.parametrize("scale", [0.05, 1.0, 12.0])
def test_matrix_exp_gradient_matches_torch(dtype, tol, scale):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 3)) * scale / 3
    g = rng.standard_normal((3, 3))
    x = _t(a, dtype, grad=True)
    (paddle.linalg.matrix_exp(x) * paddle.to_tensor(g.astype(dtype))).sum().backward()
    tx = torch.tensor(a, requires_grad=True)
    (torch.linalg.matrix_exp(tx) * torch.tensor(g)).sum().backward()
    ref = tx.grad.numpy()
    np.testing.assert_allclose(x.grad.numpy(), ref, rtol=tol * 100, atol=tol * 100 * np.abs(ref).max())


def test_matrix_exp_known_values():
    x = paddle.to_tensor([[0.0, 1.0], [-1.0, 0.0]], dtype="float64")  # a rotation generator
    np.testing.assert_allclose(paddle.linalg.matrix_exp(x).numpy(),
                               [[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]], atol=1e-14)
    z = paddle.zeros([2, 3, 3], dtype="float64")
    np.testing.assert_allclose(paddle.linalg.matrix_exp(z).numpy(), np.broadcast_to(np.eye(3), (2, 3, 3)))
    d = paddle.to_tensor(np.diag([1.0, -2.0, 30.0]))
    np.testing.assert_allclose(paddle.linalg.matrix_exp(d).numpy(), np.diag(np.exp([1.0, -2.0, 30.0])),
                               rtol=1e-13)
    assert paddle.linalg.matrix_exp(paddle.zeros([0, 2, 2])).shape == [0, 2, 2]


def test_matrix_exp_bad_inputs():
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) matrix_exp: argument 'x' expected square"):
        paddle.linalg.matrix_exp(paddle.ones([2, 3]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) matrix_exp: argument 'x' expected square"):
        paddle.linalg.matrix_exp(paddle.ones([3]))
    with pytest.raises(TypeError, match=r"\(InvalidType\) matrix_exp: argument 'x' expected float32 or float64"):
        paddle.linalg.matrix_exp(paddle.ones([2, 2], dtype="int64"))
    with pytest.raises(TypeError, match=r"\(InvalidType\) matrix_exp: argument 'x' expected a Tensor"):
        paddle.linalg.matrix_exp(np.eye(2))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) matrix_exp: argument 'x' expected finite"):
        paddle.linalg.matrix_exp(paddle.to_tensor([[float("nan"), 0.0], [0.0, 1.0]]))


def _geqrf(a):
    """torch's geqrf: the reflectors and tau of a."""
    r, tau = torch.geqrf(torch.tensor(a))
    return r.numpy(), tau.numpy()


def test_householder_product_paddle_example():
    x = paddle.to_tensor([[-1.1280, 0.9012, -0.0190], [0.3699, 2.2133, -1.4792],
                          [0.0308, 0.3361, -3.1761], [-0.0726, 0.8245, -0.3812]])
    tau = paddle.to_tensor([1.7497, 1.1156, 1.7462])
    q = paddle.linalg.householder_product(x, tau)
    np.testing.assert_allclose(q.numpy(), [[-0.74969995, -0.02181768, 0.31115776],
                                           [-0.64721400, -0.12367040, -0.21738708],
                                           [-0.05389076, -0.37562513, -0.84836429],
                                           [0.12702821, -0.91822827, 0.36892807]], atol=1e-6)
    np.testing.assert_allclose(x.householder_product(tau).numpy(), q.numpy())


@pytest.mark.parametrize("dtype,tol", DTYPES)
@pytest.mark.parametrize("shape,k", [((5, 3), 3), ((2, 4, 4), 2), ((4, 2), 1), ((3, 3), 0),
                                     ((40, 36), 36)])
def test_householder_product_matches_torch(dtype, tol, shape, k):
    rng = np.random.default_rng(2)
    a = rng.standard_normal(shape)
    tau = rng.uniform(0.2, 1.8, shape[:-2] + (k,))
    if shape[-1] > 32:  # blocked orgqr; geqrf's reflectors keep the product orthogonal
        a, tau = _geqrf(a)
    g = rng.standard_normal(shape)
    x, t = _t(a, dtype, True), _t(tau, dtype, True)
    out = paddle.linalg.householder_product(x, t)
    tx, tt = torch.tensor(a, requires_grad=True), torch.tensor(tau, requires_grad=True)
    ref = torch.linalg.householder_product(tx, tt)
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=tol * 10, atol=tol * 10)
    if k == 0:
        return
    (out * paddle.to_tensor(g.astype(dtype))).sum().backward()
    (ref * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=tol * 100, atol=tol * 100)
    np.testing.assert_allclose(t.grad.numpy(), tt.grad.numpy(), rtol=tol * 100, atol=tol * 100)


def test_householder_product_of_geqrf_is_qr_q():
    a = np.random.default_rng(3).standard_normal((6, 4))
    r, tau = _geqrf(a)
    q = paddle.linalg.householder_product(paddle.to_tensor(r), paddle.to_tensor(tau)).numpy()
    np.testing.assert_allclose(q, np.linalg.qr(a)[0], atol=1e-12)


def test_ormqr_paddle_example():
    x = paddle.to_tensor([[-114.6, 10.9, 1.1], [-0.304, 38.07, 69.38], [-0.45, -0.17, 62]])
    tau = paddle.to_tensor([1.55, 1.94, 3.0])
    out = paddle.linalg.ormqr(x, tau, x)
    np.testing.assert_allclose(out.numpy(), [[63.82712936, -13.82312393, -116.28614044],
                                             [-53.65926361, -28.15783691, -70.42700958],
                                             [-79.54292297, 24.00182915, -41.34253311]], rtol=1e-5)


@pytest.mark.parametrize("dtype,tol", DTYPES)
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [True, False])
def test_ormqr_matches_torch(dtype, tol, left, transpose):
    rng = np.random.default_rng(4)
    mn = 4
    a = rng.standard_normal((2, mn, 3))
    tau = rng.uniform(0.2, 1.8, (2, 3))
    y = rng.standard_normal((2, mn, 5) if left else (2, 5, mn))
    g = rng.standard_normal(y.shape)
    x, t, yy = _t(a, dtype, True), _t(tau, dtype, True), _t(y, dtype, True)
    out = paddle.linalg.ormqr(x, t, yy, left, transpose)
    ref = torch.ormqr(torch.tensor(a), torch.tensor(tau), torch.tensor(y), left, transpose).numpy()
    np.testing.assert_allclose(out.numpy(), ref, rtol=tol * 10, atol=tol * 10)
    # gradients: torch's ormqr has none; its explicit Q (householder_product of the padded x) does
    (out * paddle.to_tensor(g.astype(dtype))).sum().backward()
    tx, tt, ty = (torch.tensor(v, requires_grad=True) for v in (a, tau, y))
    q = torch.linalg.householder_product(torch.nn.functional.pad(tx, (0, mn - 3)), tt)
    qq = q.transpose(-1, -2) if transpose else q
    ((qq @ ty if left else ty @ qq) * torch.tensor(g)).sum().backward()
    for ours, theirs in ((x, tx), (t, tt), (yy, ty)):
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=tol * 100, atol=tol * 100)


def test_reflector_bad_inputs():
    x, tau = paddle.ones([4, 3]), paddle.ones([3])
    hp = paddle.linalg.householder_product
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) householder_product: argument 'x' expected M >= N"):
        hp(paddle.ones([2, 3]), paddle.ones([2]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) householder_product: argument 'tau' expected K <= N"):
        hp(x, paddle.ones([4]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) householder_product: argument 'tau' expected shape"):
        hp(paddle.ones([2, 4, 3]), paddle.ones([3, 3]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) householder_product: argument 'x' expected a tensor"):
        hp(paddle.ones([3]), paddle.ones([1]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) householder_product: argument 'tau' expected dtype"):
        hp(x, paddle.ones([3], dtype="float64"))
    with pytest.raises(TypeError, match=r"\(InvalidType\) householder_product: argument 'x' expected float32"):
        hp(paddle.ones([4, 3], dtype="int32"), tau)
    with pytest.raises(TypeError, match=r"\(InvalidType\) householder_product: argument 'tau' expected a Tensor"):
        hp(x, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) ormqr: argument 'y' expected M = 4"):
        paddle.linalg.ormqr(x, tau, paddle.ones([3, 2]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) ormqr: argument 'y' expected N = 4"):
        paddle.linalg.ormqr(x, tau, paddle.ones([4, 2]), left=False)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) ormqr: argument 'tau' expected at most"):
        paddle.linalg.ormqr(x, paddle.ones([4]), paddle.ones([4, 2]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) ormqr: argument 'y' expected dtype"):
        paddle.linalg.ormqr(x, tau, paddle.ones([4, 2], dtype="float64"))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) ormqr: argument 'y' expected shape"):
        paddle.linalg.ormqr(x, tau, paddle.ones([2, 4, 2]))


def test_reflector_second_order_gradients():
    rng = np.random.default_rng(5)
    a, tau = rng.standard_normal((4, 3)), rng.uniform(0.2, 1.8, 3)
    x, t = _t(a, "float64", True), _t(tau, "float64", True)
    q = paddle.linalg.householder_product(x, t)
    (gx,) = paddle.grad([(q * q * q).sum()], [x], create_graph=True)
    (ggt,) = paddle.grad([gx.sum()], [t])
    tx, tt = torch.tensor(a, requires_grad=True), torch.tensor(tau, requires_grad=True)
    tq = torch.linalg.householder_product(tx, tt)
    (tgx,) = torch.autograd.grad((tq ** 3).sum(), tx, create_graph=True)
    (tggt,) = torch.autograd.grad(tgx.sum(), tt)
    np.testing.assert_allclose(gx.numpy(), tgx.detach().numpy(), atol=1e-10)
    np.testing.assert_allclose(ggt.numpy(), tggt.numpy(), atol=1e-9)
