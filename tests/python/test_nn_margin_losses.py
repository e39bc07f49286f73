"""pairwise_distance, triplet_margin_loss, triplet_margin_with_distance_loss, multi_margin_loss,
multi_label_soft_margin_loss, npair_loss, gaussian_nll_loss, dice_loss and their layers against
torch or numpy (forward and gradients, float32/float64), Paddle's examples, bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F

TF = torch.nn.functional
R = np.random.RandomState(0)


def _check(fn, tfn, arrays, dtype, grad_of=None, tol=None):
    """fn(*skiff tensors) vs tfn(*torch tensors): value and the gradient of each float input."""
    tol = tol or (1e-5 if dtype == "float32" else 1e-10)
    grad_of = range(len(arrays)) if grad_of is None else grad_of
    ps, ts = [], []
    for i, a in enumerate(arrays):
        a = a.astype(dtype) if a.dtype.kind == "f" else a
        ps.append(paddle.to_tensor(a, stop_gradient=i not in grad_of))
        ts.append(torch.tensor(a, requires_grad=i in grad_of))
    y, Y = fn(*ps), tfn(*ts)
    assert list(y.shape) == list(Y.shape)
    np.testing.assert_allclose(y.numpy(), Y.detach().numpy(), rtol=tol, atol=tol)
    g = R.uniform(0.5, 1.5, Y.shape).astype(dtype)
    y.backward(paddle.to_tensor(g))
    Y.backward(torch.tensor(g))
    for i in grad_of:
        np.testing.assert_allclose(ps[i].grad.numpy(), ts[i].grad.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pairwise_distance(dtype):
    x, y = R.randn(4, 5), R.randn(4, 5)
    for p in (2.0, 1.0, 3.0, float("inf")):
        _check(lambda a, b: F.pairwise_distance(a, b, p),
               lambda a, b: TF.pairwise_distance(a, b, p), [x, y], dtype)
    _check(lambda a, b: F.pairwise_distance(a, b, 2.0, 1e-3, True),
           lambda a, b: TF.pairwise_distance(a, b, 2.0, 1e-3, True), [x, y], dtype)
    _check(lambda a, b: paddle.nn.PairwiseDistance(1.5)(a, b),
           lambda a, b: TF.pairwise_distance(a, b, 1.5), [x[0], y[0]], dtype)


def test_pairwise_distance_paddle_example():
    x = paddle.to_tensor([[1., 3.], [3., 5.]], dtype="float64")
    y = paddle.to_tensor([[5., 6.], [7., 8.]], dtype="float64")
    np.testing.assert_allclose(F.pairwise_distance(x, y).numpy(), [4.99999860, 4.99999860],
                               rtol=1e-7)
    assert F.pairwise_distance(x[0], y[0]).shape == []


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_triplet_losses(dtype):
    a, p, n = R.randn(6, 4), R.randn(6, 4), R.randn(6, 4)
    for red in ("mean", "sum", "none"):
        _check(lambda x, y, z: F.triplet_margin_loss(x, y, z, 0.5, 2, 1e-6, True, red),
               lambda x, y, z: TF.triplet_margin_loss(x, y, z, 0.5, 2, 1e-6, True,
                                                      reduction=red), [a, p, n], dtype)
    _check(lambda x, y, z: paddle.nn.TripletMarginLoss(margin=2.0, p=1)(x, y, z),
           lambda x, y, z: TF.triplet_margin_loss(x, y, z, 2.0, 1), [a, p, n], dtype)

    def l1(u, v):
        return (u - v).abs().sum(-1)
    _check(lambda x, y, z: F.triplet_margin_with_distance_loss(x, y, z, l1, 1.5, True, "sum"),
           lambda x, y, z: TF.triplet_margin_with_distance_loss(
               x, y, z, distance_function=l1, margin=1.5, swap=True, reduction="sum"),
           [a, p, n], dtype)
    _check(lambda x, y, z: paddle.nn.TripletMarginWithDistanceLoss(margin=3.0)(x, y, z),
           lambda x, y, z: TF.triplet_margin_with_distance_loss(x, y, z, margin=3.0),
           [a, p, n], dtype)


def test_triplet_paddle_example():
    inp = paddle.to_tensor([[1, 5, 3], [0, 3, 2], [1, 4, 1]], dtype="float32")
    pos = paddle.to_tensor([[5, 1, 2], [3, 2, 1], [3, -1, 1]], dtype="float32")
    neg = paddle.to_tensor([[2, 1, -3], [1, 1, -1], [4, -2, 1]], dtype="float32")
    np.testing.assert_allclose(F.triplet_margin_loss(inp, pos, neg, reduction="none").numpy(),
                               [0., 0.57496738, 0.], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(F.triplet_margin_with_distance_loss(inp, pos, neg).numpy(),
                               0.19165580, rtol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_multi_margin_loss(dtype):
    x = R.randn(5, 4)
    lab = np.array([0, 3, 1, 2, 3], dtype=np.int64)
    w = R.uniform(0.5, 2.0, 4)
    for p, red in ((1, "mean"), (2, "sum"), (1, "none")):
        _check(lambda a, b: F.multi_margin_loss(a, b, p, 0.7, reduction=red),
               lambda a, b: TF.multi_margin_loss(a, b, p, 0.7, reduction=red), [x, lab], dtype,
               grad_of=[0])
    # p = 1: Paddle's weight inside the clip equals torch's outside (w > 0)
    _check(lambda a, b, c: paddle.nn.MultiMarginLoss(1, 1.0, c, "none")(a, b),
           lambda a, b, c: TF.multi_margin_loss(a, b, 1, 1.0, c, reduction="none"),
           [x, lab, w], dtype, grad_of=[0])


def test_multi_margin_loss_weighted_p2_is_paddles_formula():
    x = R.randn(3, 4)
    lab = np.array([2, 0, 1])
    w = np.array([0.5, 2.0, 1.5, 1.0])
    wy = w[lab][:, None]
    ref = (np.maximum(wy * (1.0 - x[np.arange(3), lab][:, None] + x), 0) ** 2).mean(1) \
        - wy[:, 0] * 1.0 / 4
    out = F.multi_margin_loss(paddle.to_tensor(x), paddle.to_tensor(lab), 2, 1.0,
                              paddle.to_tensor(w), "none")
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_multi_label_soft_margin_loss(dtype):
    x = R.randn(4, 6)
    y = (R.rand(4, 6) > 0.5).astype(np.float64)
    w = R.uniform(0.5, 2, 6)
    for red in ("mean", "sum", "none"):
        _check(lambda a, b: F.multi_label_soft_margin_loss(a, b, reduction=red),
               lambda a, b: TF.multilabel_soft_margin_loss(a, b, reduction=red), [x, y], dtype)
    _check(lambda a, b, c: paddle.nn.MultiLabelSoftMarginLoss(c)(a, b),
           lambda a, b, c: TF.multilabel_soft_margin_loss(a, b, c), [x, y, w], dtype,
           grad_of=[0, 1])


def test_multi_label_soft_margin_paddle_example():
    inp = paddle.to_tensor([[1, -2, 3], [0, -1, 2], [1, 0, 1]], dtype="float32")
    lab = paddle.to_tensor([[-1, 1, -1], [1, 1, 1], [1, -1, 1]], dtype="float32")
    np.testing.assert_allclose(F.multi_label_soft_margin_loss(inp, lab, reduction="none").numpy(),
                               [3.49625897, 0.71111226, 0.43989015], rtol=1e-5)


def _npair_ref(a, p, labels, l2_reg):
    same = (labels[:, None] == labels[None, :]).astype(np.float64)
    target = same / same.sum(1, keepdims=True)
    l2 = 0.25 * l2_reg * ((a ** 2).sum(1).mean() + (p ** 2).sum(1).mean())
    sim = a @ p.T
    logp = sim - sim.max(1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(1, keepdims=True))
    ce = -(target * logp).sum(1, keepdims=True)
    return l2 + (target * ce).sum(0).mean()


def test_npair_loss():
    a, p = R.randn(6, 3), R.randn(6, 3)
    labels = np.array([0, 1, 0, 2, 1, 1], dtype=np.float64)
    at = paddle.to_tensor(a, stop_gradient=False)
    pt = paddle.to_tensor(p, stop_gradient=False)
    out = F.npair_loss(at, pt, paddle.to_tensor(labels), 0.01)
    np.testing.assert_allclose(out.numpy(), _npair_ref(a, p, labels, 0.01), rtol=1e-12)
    out.backward()
    eps = 1e-6
    num = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[i] = eps
        num[i] = (_npair_ref(a + d, p, labels, 0.01) - _npair_ref(a - d, p, labels, 0.01)) / 2 / eps
    np.testing.assert_allclose(at.grad.numpy(), num, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gaussian_nll_loss(dtype):
    x, y = R.randn(4, 3), R.randn(4, 3)
    var = R.uniform(0.2, 2.0, (4, 3))
    var[0, 0] = 1e-9  # clamped to epsilon; the gradient passes the clamp as torch's
    for full, red in ((False, "mean"), (True, "sum"), (True, "none")):
        _check(lambda a, b, c: F.gaussian_nll_loss(a, b, c, full, 1e-6, red),
               lambda a, b, c: TF.gaussian_nll_loss(a, b, c, full, 1e-6, red), [x, y, var],
               dtype, tol=1e-4 if dtype == "float32" else None)
    _check(lambda a, b, c: paddle.nn.GaussianNLLLoss()(a, b, c),
           lambda a, b, c: TF.gaussian_nll_loss(a, b, c), [x, y, var[:, 0]], dtype)
    _check(lambda a, b, c: F.gaussian_nll_loss(a, b, c),
           lambda a, b, c: TF.gaussian_nll_loss(a, b, c), [x, y, var[:, :1]], dtype)


def test_dice_loss():
    x = R.rand(3, 4, 5, 2)
    x = x / x.sum(-1, keepdims=True)
    lab = R.randint(0, 2, (3, 4, 5, 1))
    xt = paddle.to_tensor(x, stop_gradient=False)
    out = F.dice_loss(xt, paddle.to_tensor(lab))
    onehot = np.eye(2)[lab[..., 0]]
    inse = (x * onehot).sum((1, 2, 3))
    den = x.sum((1, 2, 3)) + onehot.sum((1, 2, 3))
    np.testing.assert_allclose(out.numpy(), (1 - 2 * inse / (den + 1e-5)).mean(), rtol=1e-12)
    out.backward()
    d = den + 1e-5
    ref = -2 / 3 * (onehot * d[:, None, None, None] - inse[:, None, None, None]) \
        / (d ** 2)[:, None, None, None]
    np.testing.assert_allclose(xt.grad.numpy(), ref, rtol=1e-10)


def test_bad_inputs():
    a = paddle.rand([3, 4])
    with pytest.raises(ValueError, match=r"triplet_margin_loss: argument 'margin' expected a "
                                         r"value >= 0, got -1"):
        F.triplet_margin_loss(a, a, a, margin=-1)
    with pytest.raises(ValueError, match=r"triplet_margin_loss: arguments 'input', 'positive' "
                                         r"and 'negative' expected one shape"):
        F.triplet_margin_loss(a, a, paddle.rand([3, 5]))
    with pytest.raises(ValueError, match=r"triplet_margin_loss: argument 'reduction'"):
        F.triplet_margin_loss(a, a, a, reduction="max")
    with pytest.raises(ValueError, match=r"distances expected to be > 0"):
        F.triplet_margin_with_distance_loss(a, a, a, lambda u, v: (u - v).abs().sum(-1))
    with pytest.raises(TypeError, match=r"pairwise_distance: argument 'p' expected a float"):
        F.pairwise_distance(a, a, p="2")
    with pytest.raises(ValueError, match=r"multi_margin_loss: argument 'label' expected shape "
                                         r"\[3\], got \[4\]"):
        F.multi_margin_loss(a, paddle.to_tensor([0, 1, 2, 3]))
    with pytest.raises(ValueError, match=r"multi_margin_loss: argument 'label' expected class "
                                         r"indices in \[0, 4\), got 7"):
        F.multi_margin_loss(a, paddle.to_tensor([0, 1, 7]))
    with pytest.raises(TypeError, match=r"multi_margin_loss: argument 'label' expected dtype"):
        F.multi_margin_loss(a, paddle.to_tensor([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match=r"multi_margin_loss: argument 'weight' expected shape "
                                         r"\[4\]"):
        F.multi_margin_loss(a, paddle.to_tensor([0, 1, 2]), weight=paddle.rand([3]))
    with pytest.raises(ValueError, match=r"multi_label_soft_margin_loss: arguments 'input' and "
                                         r"'label' expected one shape"):
        F.multi_label_soft_margin_loss(a, paddle.rand([3, 3]))
    with pytest.raises(ValueError, match=r"npair_loss: argument 'labels' expected shape \[3\]"):
        F.npair_loss(a, a, paddle.rand([4]))
    with pytest.raises(TypeError, match=r"npair_loss: argument 'anchor' expected dtype"):
        F.npair_loss(paddle.to_tensor([[1, 2]]), a, paddle.rand([3]))
    with pytest.raises(ValueError, match=r"gaussian_nll_loss: argument 'variance' expected "
                                         r"non-negative entries"):
        F.gaussian_nll_loss(a, a, paddle.full([3, 4], -1.0))
    with pytest.raises(ValueError, match=r"gaussian_nll_loss: argument 'variance' expected shape"):
        F.gaussian_nll_loss(a, a, paddle.rand([3, 2]))
    with pytest.raises(ValueError, match=r"dice_loss: argument 'label' expected shape \[3, 1\]"):
        F.dice_loss(a, paddle.to_tensor([[0, 1], [1, 0], [0, 0]]))
    with pytest.raises(TypeError, match=r"dice_loss: argument 'label' expected dtype int32 or "
                                        r"int64"):
        F.dice_loss(a, paddle.rand([3, 1]))
    with pytest.raises(ValueError, match=r"GaussianNLLLoss: argument 'reduction'"):
        paddle.nn.GaussianNLLLoss(reduction="avg")
