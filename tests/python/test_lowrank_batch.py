"""paddle.linalg.svd_lowrank / pca_lowrank (exact on matrices of rank <= q: singular values
against torch, reconstruction, orthonormal factors, gradients of the singular values against
torch's full SVD, Paddle's q checks) and paddle.batch."""
import numpy as np
import pytest
import torch

import skiff as paddle

RNG = np.random.default_rng(11)


def _low_rank(shape, rank):
    *batch, m, n = shape
    return RNG.standard_normal((*batch, m, rank)) @ RNG.standard_normal((*batch, rank, n))


@pytest.mark.parametrize("shape,q,niter", [((30, 20), 5, 2), ((12, 40), 4, 0), ((2, 10, 8), 8, 3)])
def test_svd_lowrank_is_exact_at_rank_q(shape, q, niter):
    a = _low_rank(shape, min(q, 4))
    u, s, v = paddle.linalg.svd_lowrank(paddle.to_tensor(a), q=q, niter=niter)
    assert u.shape == [*shape[:-1], q] and s.shape == [*shape[:-2], q]
    assert v.shape == [*shape[:-2], shape[-1], q]
    rec = np.einsum("...ik,...k,...jk->...ij", u.numpy(), s.numpy(), v.numpy())
    np.testing.assert_allclose(rec, a, atol=1e-10)
    want = torch.linalg.svdvals(torch.from_numpy(a)).numpy()[..., :q]
    np.testing.assert_allclose(s.numpy(), want, rtol=1e-10, atol=1e-10)
    eye = np.broadcast_to(np.eye(q), (*shape[:-2], q, q))
    np.testing.assert_allclose(np.swapaxes(u.numpy(), -1, -2) @ u.numpy(), eye, atol=1e-10)


def test_pca_lowrank_centers_and_gradient():
    a = _low_rank((25, 9), 3) + 5.0
    x = paddle.to_tensor(a, stop_gradient=False)
    u, s, v = paddle.linalg.pca_lowrank(x, q=3)
    c = a - a.mean(0)
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().T, c, atol=1e-10)
    s.sum().backward()
    t = torch.tensor(a, requires_grad=True)
    torch.linalg.svdvals(t - t.mean(0))[:3].sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), atol=1e-8)
    assert paddle.to_tensor(a).pca_lowrank(2)[1].shape == [2]
    # uncentered, a (rank 3 plus a constant) has rank 4
    u2, s2, _ = paddle.linalg.pca_lowrank(paddle.to_tensor(a), q=4, center=False)
    np.testing.assert_allclose(s2.numpy(), torch.linalg.svdvals(torch.from_numpy(a))[:4].numpy(),
                               rtol=1e-10)


def test_lowrank_errors():
    x = paddle.ones([4, 3])
    with pytest.raises(ValueError, match=r"svd_lowrank: argument 'q' expected a non-negative "
                                         r"integer not greater than min\(m, n\) = 3, got 4"):
        paddle.linalg.svd_lowrank(x, q=4)
    with pytest.raises(ValueError, match="pca_lowrank: argument 'x' expected a float tensor"):
        paddle.linalg.pca_lowrank(paddle.ones([3]))
    with pytest.raises(ValueError, match="argument 'niter' expected a non-negative integer"):
        paddle.linalg.svd_lowrank(x, niter=-1)


def test_batch_reader():
    def reader():
        return iter(range(7))

    assert list(paddle.batch(reader, 3)()) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(paddle.batch(reader, 3, drop_last=True)()) == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="batch_size should be a positive integer value, but "
                                         "got batch_size=0"):
        paddle.batch(reader, 0)
