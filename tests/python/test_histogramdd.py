"""paddle.histogramdd against torch.histogramdd (bin counts, per-dim counts, ranges, explicit edge
tensors, weights, density, points on the last edge and outside), Paddle's documented example, and
the bad-input messages."""
import numpy as np
import pytest
import torch

import skiff as paddle

RNG = np.random.default_rng(4)


def test_paddle_example():
    x = paddle.to_tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]])
    hist, edges = paddle.histogramdd(x, bins=[3, 3], weights=paddle.to_tensor([1., 2., 4., 8.]))
    np.testing.assert_array_equal(hist.numpy(), [[0, 1, 0], [2, 0, 0], [4, 0, 8]])
    np.testing.assert_allclose(edges[0].numpy(), [0, 2 / 3, 4 / 3, 2], rtol=1e-6)
    assert hist.dtype == paddle.float32 and len(edges) == 2


@pytest.mark.parametrize("kw", [dict(bins=4), dict(bins=[2, 3, 5], density=True),
                                dict(bins=3, ranges=[-1, 1, -2, 0, 0, 0]),
                                dict(bins=[1, 2, 3], ranges=[-3, 3, -1, 1, 0.5, 2.5], density=True)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_against_torch(kw, dtype):
    a = RNG.standard_normal((5, 40, 3)).astype(dtype)
    w = RNG.uniform(0, 2, (5, 40)).astype(dtype)
    for weights in (None, w):
        h, e = paddle.histogramdd(paddle.to_tensor(a), **kw,
                                  weights=None if weights is None else paddle.to_tensor(weights))
        th, te = torch.histogramdd(torch.from_numpy(a), bins=kw["bins"], range=kw.get("ranges"),
                                   density=kw.get("density", False),
                                   weight=None if weights is None else torch.from_numpy(weights))
        np.testing.assert_allclose(h.numpy(), th.numpy(), rtol=1e-5, atol=1e-7)
        for got, want in zip(e, te):
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)


def test_explicit_edges_last_edge_and_outside():
    x = paddle.to_tensor([[0.0, 0.0], [1.0, 3.0], [3.0, 1.0], [5.0, 0.5], [-1.0, 1.0]])
    edges = [paddle.to_tensor([0.0, 1.0, 3.0]), paddle.to_tensor([0.0, 2.0, 3.0])]
    hist, out_edges = paddle.histogramdd(x, bins=edges)
    th, _ = torch.histogramdd(torch.tensor(x.numpy()), bins=[torch.tensor(e.numpy()) for e in edges])
    np.testing.assert_array_equal(hist.numpy(), th.numpy())
    assert hist.numpy().sum() == 3  # (3, 1) is on the closed last edge; 5 and -1 are outside
    same = paddle.histogramdd(paddle.ones([4, 1]), bins=2)
    np.testing.assert_allclose(same[1][0].numpy(), [0.5, 1.0, 1.5])


def test_errors():
    with pytest.raises(ValueError, match="histogramdd: argument 'x' expected a float tensor with "
                                         "at least 2 dims"):
        paddle.histogramdd(paddle.ones([3]))
    with pytest.raises(ValueError, match="histogramdd: argument 'bins' expected 2 entries"):
        paddle.histogramdd(paddle.ones([3, 2]), bins=[2, 2, 2])
    with pytest.raises(ValueError, match="histogramdd: argument 'ranges' expected 4 values"):
        paddle.histogramdd(paddle.ones([3, 2]), ranges=[0, 1])
    with pytest.raises(ValueError, match=r"histogramdd: argument 'weights' expected shape \[3\]"):
        paddle.histogramdd(paddle.ones([3, 2]), weights=paddle.ones([2]))
    with pytest.raises(ValueError, match="histogramdd: dim 0 expected ranges with min <= max"):
        paddle.histogramdd(paddle.ones([3, 1]), ranges=[1, 0])
