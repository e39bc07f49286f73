"""paddle.autograd.jacobian/hessian and paddle.incubate.autograd (vjp, jvp, Jacobian, Hessian),
against torch.autograd.functional and Paddle's documented examples."""
import numpy as np
import pytest

import skiff as paddle

torch = pytest.importorskip("torch")


def _leaf(a):
    t = paddle.to_tensor(np.asarray(a, dtype="float64"))
    t.stop_gradient = False
    return t


def test_jacobian_matches_torch_unbatched():
    a = np.random.RandomState(0).randn(4)
    x = _leaf(a)
    y = paddle.tanh(x) * x.sum() + (x * x).sum()
    J = paddle.autograd.jacobian(y, x)
    assert J.shape == [4, 4]
    want = torch.autograd.functional.jacobian(
        lambda t: torch.tanh(t) * t.sum() + t @ t, torch.tensor(a))
    np.testing.assert_allclose(J[:].numpy(), want.numpy(), rtol=1e-12)
    np.testing.assert_allclose(J[1].numpy(), want[1].numpy(), rtol=1e-12)
    np.testing.assert_allclose(J[:, 2].numpy(), want[:, 2].numpy(), rtol=1e-12)
    np.testing.assert_allclose(J[1:3, ::2].numpy(), want[1:3, ::2].numpy(), rtol=1e-12)
    np.testing.assert_allclose(J[-1, -1].numpy(), want[-1, -1].numpy(), rtol=1e-12)


def test_jacobian_rows_are_lazy_and_cached():
    x = _leaf([1.0, 2.0, 3.0])
    J = paddle.autograd.jacobian(x * x, x)
    J[1]
    assert sorted(J._jac._rows) == [1]
    J[0:2]
    assert sorted(J._jac._rows) == [0, 1]
    np.testing.assert_array_equal(J[:].numpy(), np.diag([2.0, 4.0, 6.0]))


def test_jacobian_tuples_and_zero_d():
    x1, x2 = _leaf([1.0, 2.0, 3.0]), _leaf([4.0, 5.0, 6.0])
    J = paddle.autograd.jacobian(x1 + x2, (x1, x2))
    assert isinstance(J, tuple) and len(J) == 2
    np.testing.assert_array_equal(J[0][:].numpy(), np.eye(3))
    JJ = paddle.autograd.jacobian((x1 * 2, x1 * x2), (x1, x2))
    np.testing.assert_array_equal(JJ[1][0][:].numpy(), np.diag([4.0, 5.0, 6.0]))
    np.testing.assert_array_equal(JJ[0][1][:].numpy(), np.zeros((3, 3)))  # unused input
    s = (x1 * x1).sum()  # 0-D output: shape [N]
    Js = paddle.autograd.jacobian(s, x1)
    assert Js.shape == [3]
    np.testing.assert_array_equal(Js[:].numpy(), [2.0, 4.0, 6.0])
    z = _leaf(3.0)
    Jz = paddle.autograd.jacobian(z * z, z)  # both 0-D
    assert Jz.shape == []
    assert float(Jz[:]) == 6.0


def test_jacobian_batched_matches_torch():
    rng = np.random.RandomState(1)
    a, w = rng.randn(5, 3), rng.randn(3, 2)
    x = _leaf(a)
    y = paddle.tanh(paddle.matmul(x, paddle.to_tensor(w)))
    J = paddle.autograd.jacobian(y, x, batch_axis=0)
    assert J.shape == [5, 2, 3]
    tw = torch.tensor(w)
    want = torch.stack([torch.autograd.functional.jacobian(lambda r: torch.tanh(r @ tw),
                                                           torch.tensor(a[b]))
                        for b in range(5)])
    np.testing.assert_allclose(J[:].numpy(), want.numpy(), rtol=1e-12)
    np.testing.assert_allclose(J[:, 1, :].numpy(), want[:, 1, :].numpy(), rtol=1e-12)


def test_hessian_matches_torch():
    a = np.random.RandomState(2).randn(4)
    x = _leaf(a)
    H = paddle.autograd.hessian((paddle.sin(x) * x * x).sum(), x)
    assert isinstance(H, paddle.autograd.Hessian) and H.shape == [4, 4]
    want = torch.autograd.functional.hessian(lambda t: (torch.sin(t) * t * t).sum(),
                                             torch.tensor(a))
    np.testing.assert_allclose(H[:].numpy(), want.numpy(), rtol=1e-12)


def test_hessian_of_tuple_inputs_and_batched():
    x1, x2 = _leaf([1.0, 2.0, 3.0]), _leaf([4.0, 5.0])
    y = (x1 * x1).sum() * x2.sum()
    H = paddle.autograd.hessian(y, (x1, x2))
    assert [[h.shape for h in row] for row in H] == [[[3, 3], [3, 2]], [[2, 3], [2, 2]]]
    np.testing.assert_allclose(H[0][0][:].numpy(), 2 * 9.0 * np.eye(3))
    np.testing.assert_allclose(H[0][1][:].numpy(), np.outer([2.0, 4.0, 6.0], [1.0, 1.0]))
    np.testing.assert_allclose(H[1][1][:].numpy(), np.zeros((2, 2)))
    xb = _leaf(np.arange(6.0).reshape(2, 3))
    Hb = paddle.autograd.hessian((xb * xb * xb).sum(axis=1), xb, batch_axis=0)
    assert Hb.shape == [2, 3, 3]
    np.testing.assert_allclose(Hb[:].numpy(), np.stack([np.diag(6 * r) for r in xb.numpy()]))


def test_incubate_jacobian_hessian_doc_examples():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    J = paddle.incubate.autograd.Jacobian(lambda a, b: paddle.matmul(a, b), [x, x])
    assert J.shape == [4, 8]
    np.testing.assert_array_equal(J[:, :].numpy(),
                                  [[1, 3, 0, 0, 1, 0, 2, 0], [2, 4, 0, 0, 0, 1, 0, 2],
                                   [0, 0, 1, 3, 3, 0, 4, 0], [0, 0, 2, 4, 0, 3, 0, 4]])
    np.testing.assert_array_equal(J[0, :].numpy(), [1, 3, 0, 0, 1, 0, 2, 0])
    np.testing.assert_array_equal(J[:, 0].numpy(), [1, 2, 0, 0])
    h = paddle.incubate.autograd.Hessian(lambda a: paddle.sum(a * a), paddle.rand([2, 2]))
    np.testing.assert_array_equal(h[:].numpy(), 2 * np.eye(4))
    hb = paddle.incubate.autograd.Hessian(lambda a: (a * a * a).sum(axis=1, keepdim=True),
                                          paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]),
                                          is_batched=True)
    assert hb.shape == [2, 2, 2]
    np.testing.assert_allclose(hb[:].numpy(), [np.diag([6.0, 12.0]), np.diag([18.0, 24.0])])


def test_vjp_jvp_match_torch():
    rng = np.random.RandomState(3)
    a, u, t = rng.randn(2, 2), rng.randn(2, 2), rng.randn(2, 2)
    f = lambda m: paddle.matmul(m, m) + paddle.exp(m)  # noqa: E731
    tf = lambda m: m @ m + torch.exp(m)  # noqa: E731
    out, g = paddle.incubate.autograd.vjp(f, paddle.to_tensor(a), paddle.to_tensor(u))
    want_out, want_g = torch.autograd.functional.vjp(tf, torch.tensor(a), torch.tensor(u))
    np.testing.assert_allclose(out.numpy(), want_out.numpy(), rtol=1e-12)
    np.testing.assert_allclose(g.numpy(), want_g.numpy(), rtol=1e-12)
    _, jv = paddle.incubate.autograd.jvp(f, paddle.to_tensor(a), paddle.to_tensor(t))
    _, want_jv = torch.autograd.functional.jvp(tf, torch.tensor(a), torch.tensor(t))
    np.testing.assert_allclose(jv.numpy(), want_jv.numpy(), rtol=1e-12)
    # Paddle's documented example, v defaults to ones
    x = paddle.ones([2, 2])
    np.testing.assert_array_equal(
        paddle.incubate.autograd.vjp(lambda m: paddle.matmul(m, m), x)[1].numpy(),
        [[4.0, 4.0], [4.0, 4.0]])
    # several inputs
    _, gs = paddle.incubate.autograd.vjp(lambda p, q: p * q, [paddle.to_tensor(a),
                                                              paddle.to_tensor(u)])
    np.testing.assert_allclose(gs[0].numpy(), u)
    np.testing.assert_allclose(gs[1].numpy(), a)


def test_bad_inputs_name_the_problem():
    x = _leaf(np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) jacobian: xs.ndim should be 0 or 1"):
        paddle.autograd.jacobian(x * 2, x)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) batch_axis should be None or 0"):
        paddle.autograd.jacobian(x * 2, x, batch_axis=1)
    v = _leaf([1.0, 2.0])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) hessian: ys must hold one"):
        paddle.autograd.hessian(v * v, v)
    J = paddle.autograd.jacobian(v * v, v)
    with pytest.raises(IndexError, match=r"\(OutOfRange\)"):
        J[5]
    with pytest.raises(IndexError, match="Ellipsis"):
        J[..., 0]
    with pytest.raises(TypeError, match=r"\(InvalidType\) vjp: func must be callable"):
        paddle.incubate.autograd.vjp(3, v)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) vjp: v must match"):
        paddle.incubate.autograd.vjp(lambda a: a * 2, v, paddle.ones([3]))
    with pytest.raises(RuntimeError, match="single element"):
        paddle.incubate.autograd.Hessian(lambda a: a * 2, v)[:]
