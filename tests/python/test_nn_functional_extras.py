"""In-place activations (elu_, hardtanh_, leaky_relu_, softmax_, tanh_, thresholded_relu_),
rrelu, gumbel_softmax, channel_shuffle, temporal_shift, sequence_mask, lp_pool1d/2d, affine_grid
and their layers (Silu, RReLU, ChannelShuffle, LPPool1D/2D) against torch or numpy: forward,
gradients, bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F

TF = torch.nn.functional
R = np.random.RandomState(1)


def _check(fn, tfn, x, dtype, tol=None):
    tol = tol or (1e-5 if dtype == "float32" else 1e-11)
    xs = paddle.to_tensor(x.astype(dtype), stop_gradient=False)
    X = torch.tensor(x.astype(dtype), requires_grad=True)
    y, Y = fn(xs), tfn(X)
    assert list(y.shape) == list(Y.shape)
    np.testing.assert_allclose(y.numpy(), Y.detach().numpy(), rtol=tol, atol=tol)
    g = R.randn(*Y.shape).astype(dtype)
    y.backward(paddle.to_tensor(g))
    Y.backward(torch.tensor(g))
    np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=tol, atol=tol)


def _inplace(f):
    """f applied in place to a non-leaf copy of x; checks that the result is that tensor."""
    def run(x):
        y = x * 1.0
        out = f(y)
        assert out is y
        return y
    return run


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_inplace_activations(dtype):
    x = R.randn(3, 5) * 2
    x[0, 0] = 0.3  # away from thresholds
    # alpha and negative_slope are float attributes (as Paddle's): exact binary fractions here
    _check(_inplace(lambda t: F.elu_(t, 0.75)), lambda t: TF.elu(t * 1.0, 0.75), x, dtype)
    _check(_inplace(lambda t: F.hardtanh_(t, -0.5, 1.5)),
           lambda t: TF.hardtanh(t * 1.0, -0.5, 1.5), x, dtype)
    _check(_inplace(lambda t: F.leaky_relu_(t, 0.25)), lambda t: TF.leaky_relu(t * 1.0, 0.25), x,
           dtype)
    _check(_inplace(F.tanh_), lambda t: torch.tanh(t), x, dtype)
    _check(_inplace(lambda t: F.softmax_(t, 0)), lambda t: torch.softmax(t, 0), x, dtype)
    _check(_inplace(lambda t: F.thresholded_relu_(t, 0.5, 0.1)),
           lambda t: torch.where(t > 0.5, t, torch.full_like(t, 0.1)), x, dtype)


def test_inplace_on_leaf_and_bad_alpha():
    leaf = paddle.to_tensor([1.0, -1.0], stop_gradient=False)
    with pytest.raises(RuntimeError, match=r"\(PreconditionNotMet\) tanh_"):
        F.tanh_(leaf)
    with pytest.raises(ValueError, match=r"elu_: argument 'alpha' expected >= 0"):
        F.elu_(paddle.to_tensor([1.0]), -1.0)
    x = paddle.to_tensor([[1.0, 2.0, 3.0]])
    F.softmax_(x)
    np.testing.assert_allclose(x.numpy(), torch.softmax(torch.tensor([[1., 2., 3.]]), -1),
                               rtol=1e-6)


def test_rrelu():
    x = R.randn(200, 50)
    xt = paddle.to_tensor(x, stop_gradient=False)
    y = F.rrelu(xt, 0.1, 0.3)
    yn = y.numpy()
    np.testing.assert_array_equal(yn[x >= 0], x[x >= 0])
    slope = yn[x < 0] / x[x < 0]
    assert slope.min() >= 0.1 and slope.max() <= 0.3 and slope.std() > 0.04
    y.sum().backward()
    np.testing.assert_allclose(xt.grad.numpy()[x < 0], slope, rtol=1e-12)
    np.testing.assert_array_equal(xt.grad.numpy()[x >= 0], 1.0)
    _check(lambda t: F.rrelu(t, 0.1, 0.3, training=False),
           lambda t: TF.rrelu(t, 0.1, 0.3, training=False), x[:4], "float64")
    layer = paddle.nn.RReLU(0.1, 0.3)
    layer.eval()
    np.testing.assert_allclose(layer(paddle.to_tensor([-2.0])).numpy(), [-0.4])
    with pytest.raises(TypeError, match=r"rrelu: arguments 'lower' and 'upper' expected floats"):
        F.rrelu(xt, 0, 0.3)
    with pytest.raises(ValueError, match=r"rrelu: argument 'lower' expected a value in \[0, 1\]"):
        F.rrelu(xt, -0.1, 0.3)
    with pytest.raises(ValueError, match=r"rrelu: argument 'upper' expected a value >= lower"):
        F.rrelu(xt, 0.3, 0.2)
    with pytest.raises(ValueError, match=r"rrelu: argument 'upper' expected a value <= 1"):
        F.rrelu(xt, 0.3, 1.2)


def test_gumbel_softmax():
    logits = np.log(np.array([0.1, 0.2, 0.7]))
    x = paddle.to_tensor(np.tile(logits, (20000, 1)))
    y = F.gumbel_softmax(x, temperature=0.5)
    np.testing.assert_allclose(y.numpy().sum(-1), 1.0, rtol=1e-12)
    hard = F.gumbel_softmax(x, hard=True).numpy()
    assert set(np.unique(hard)) == {0.0, 1.0}
    np.testing.assert_array_equal(hard.sum(-1), 1.0)
    # the argmax of logits + Gumbel noise is a sample of softmax(logits)
    np.testing.assert_allclose(hard.mean(0), [0.1, 0.2, 0.7], atol=0.015)
    # gradient: with the same seed the noise is the same, so it is softmax((x + g) / t)'s
    w = R.randn(4, 3)
    base = R.randn(4, 3)
    xt = paddle.to_tensor(base, stop_gradient=False)
    paddle.seed(7)
    (F.gumbel_softmax(xt, 0.8, axis=0) * paddle.to_tensor(w)).sum().backward()
    paddle.seed(7)
    y0 = F.gumbel_softmax(paddle.to_tensor(base), 0.8, axis=0).numpy()
    g = (y0 * (w - (y0 * w).sum(0, keepdims=True))) / 0.8
    np.testing.assert_allclose(xt.grad.numpy(), g, rtol=1e-9, atol=1e-12)
    # hard: straight-through, the soft sample's gradient
    xt2 = paddle.to_tensor(base, stop_gradient=False)
    paddle.seed(7)
    (F.gumbel_softmax(xt2, 0.8, hard=True, axis=0) * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_allclose(xt2.grad.numpy(), g, rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match=r"gumbel_softmax: argument 'temperature' expected a "
                                         r"value > 0"):
        F.gumbel_softmax(xt, 0.0)
    with pytest.raises(ValueError, match=r"gumbel_softmax: argument 'axis' expected a value in "
                                         r"\[-2, 2\), got 2"):
        F.gumbel_softmax(xt, axis=2)


def _shuffle_ref(x, g):
    n, c, h, w = x.shape
    return x.reshape(n, g, c // g, h, w).transpose(0, 2, 1, 3, 4).reshape(n, c, h, w)


def test_channel_shuffle():
    x = R.randn(2, 6, 3, 4)
    xt = paddle.to_tensor(x, stop_gradient=False)
    out = F.channel_shuffle(xt, 3)
    np.testing.assert_array_equal(out.numpy(), TF.channel_shuffle(torch.tensor(x), 3).numpy())
    g = R.randn(*x.shape)
    out.backward(paddle.to_tensor(g))  # a permutation: the gradient is g shuffled back
    np.testing.assert_array_equal(xt.grad.numpy(), _shuffle_ref(g, 2))
    xt = paddle.to_tensor(x.transpose(0, 2, 3, 1))
    out = paddle.nn.ChannelShuffle(2, "NHWC")(xt).numpy()
    np.testing.assert_array_equal(out, _shuffle_ref(x, 2).transpose(0, 2, 3, 1))
    with pytest.raises(ValueError, match=r"channel_shuffle: argument 'groups' expected a "
                                         r"divisor of the channel count 6, got 4"):
        F.channel_shuffle(paddle.to_tensor(x), 4)
    with pytest.raises(TypeError, match=r"channel_shuffle: argument 'groups' expected an int"):
        F.channel_shuffle(paddle.to_tensor(x), 2.0)
    with pytest.raises(ValueError, match=r"channel_shuffle: argument 'x' expected a 4-D tensor"):
        F.channel_shuffle(paddle.rand([2, 6, 3]), 2)
    with pytest.raises(ValueError, match=r"channel_shuffle: argument 'groups' expected a value"):
        F.channel_shuffle(paddle.to_tensor(x), 0)


def _tsm_ref(x, seg, ratio):
    nt, c, h, w = x.shape
    y = x.reshape(nt // seg, seg, c, h, w)
    pad = np.pad(y, ((0, 0), (1, 1), (0, 0), (0, 0), (0, 0)))
    c1, c2 = int(c * ratio), int(c * 2 * ratio)
    out = np.concatenate([pad[:, :seg, :c1], pad[:, 2:seg + 2, c1:c2],
                          pad[:, 1:seg + 1, c2:]], axis=2)
    return out.reshape(x.shape)


def test_temporal_shift():
    x = R.randn(6, 8, 2, 2)
    xt = paddle.to_tensor(x, stop_gradient=False)
    out = F.temporal_shift(xt, 3, 0.25)
    np.testing.assert_array_equal(out.numpy(), _tsm_ref(x, 3, 0.25))
    g = R.randn(*x.shape)
    out.backward(paddle.to_tensor(g))
    # the shift is a permutation with zero fill: its gradient is the inverse shift of g
    xs = paddle.to_tensor(x)
    np.testing.assert_allclose((out * paddle.to_tensor(g)).sum().numpy(),
                               (xt.grad * xs).sum().numpy(), rtol=1e-12)
    nhwc = F.temporal_shift(paddle.to_tensor(x.transpose(0, 2, 3, 1)), 3, 0.2,
                            data_format="NHWC").numpy()
    np.testing.assert_array_equal(nhwc, _tsm_ref(x, 3, 0.2).transpose(0, 2, 3, 1))
    with pytest.raises(ValueError, match=r"temporal_shift: x's dim 0 \(6\) expected a multiple "
                                         r"of seg_num \(4\)"):
        F.temporal_shift(xt, 4)
    with pytest.raises(ValueError, match=r"temporal_shift: argument 'data_format'"):
        F.temporal_shift(xt, 3, data_format="NCDHW")
    with pytest.raises(ValueError, match=r"temporal_shift: argument 'shift_ratio'"):
        F.temporal_shift(xt, 3, 0.6)


def test_sequence_mask():
    lens = np.array([[3, 1], [0, 4]])
    m = F.sequence_mask(paddle.to_tensor(lens))
    assert m.dtype == paddle.int64 and m.shape == [2, 2, 4]
    np.testing.assert_array_equal(m.numpy(), (np.arange(4) < lens[..., None]).astype(np.int64))
    m = F.sequence_mask(paddle.to_tensor([2, 5]), maxlen=6, dtype="bool")
    np.testing.assert_array_equal(m.numpy(), np.arange(6) < np.array([2, 5])[:, None])
    m = F.sequence_mask(paddle.to_tensor([2, 5]), maxlen=paddle.to_tensor(3), dtype="float32")
    np.testing.assert_array_equal(m.numpy(), [[1, 1, 0], [1, 1, 1]])
    with pytest.raises(ValueError, match=r"sequence_mask: argument 'maxlen' expected a value "
                                         r">= 0"):
        F.sequence_mask(paddle.to_tensor([1]), maxlen=-1)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lp_pool(dtype):
    x = R.uniform(0.1, 2.0, (2, 3, 9))
    _check(lambda t: F.lp_pool1d(t, 2, 3, 2), lambda t: TF.lp_pool1d(t, 2, 3, 2), x, dtype)
    _check(lambda t: paddle.nn.LPPool1D(3.0, 2)(t), lambda t: TF.lp_pool1d(t, 3.0, 2), x, dtype)
    _check(lambda t: F.lp_pool1d(t, 1.5, 4, data_format="NLC"),
           lambda t: TF.lp_pool1d(t.transpose(1, 2), 1.5, 4).transpose(1, 2),
           x.transpose(0, 2, 1), dtype)
    x2 = R.uniform(0.1, 2.0, (2, 2, 7, 6))
    _check(lambda t: F.lp_pool2d(t, 2, [3, 2], 2), lambda t: TF.lp_pool2d(t, 2, [3, 2], 2), x2,
           dtype)
    _check(lambda t: paddle.nn.LPPool2D(4, 3)(t), lambda t: TF.lp_pool2d(t, 4, 3), x2, dtype,
           tol=1e-4)
    _check(lambda t: F.lp_pool2d(t, float("inf"), 2), lambda t: TF.max_pool2d(t, 2), x2, dtype)


def test_lp_pool_padding_and_errors():
    x = np.arange(1.0, 6.0).reshape(1, 1, 5)
    out = F.lp_pool1d(paddle.to_tensor(x), 2, 2, 2, padding=1).numpy()
    np.testing.assert_allclose(out, [[[1.0, np.sqrt(13), np.sqrt(41)]]])
    # ceil_mode: a window over the end sums the elements inside it (Paddle's formula; torch's
    # lp_pool scales their mean by the full window instead)
    out = F.lp_pool1d(paddle.to_tensor(x), 3, 2, ceil_mode=True).numpy()
    np.testing.assert_allclose(out, [[[9.0 ** (1 / 3), 91.0 ** (1 / 3), 5.0]]], rtol=1e-12)
    x2 = np.arange(1.0, 10.0).reshape(1, 1, 3, 3)
    out = paddle.nn.LPPool2D(1, 2, ceil_mode=True)(paddle.to_tensor(x2)).numpy()
    np.testing.assert_allclose(out, [[[[12.0, 9.0], [15.0, 9.0]]]], rtol=1e-12)
    with pytest.raises(ValueError, match=r"lp_pool2d: argument 'norm_type' expected a non-zero"):
        F.lp_pool2d(paddle.rand([1, 1, 4, 4]), 0, 2)
    with pytest.raises(ValueError, match=r"lp_pool1d: argument 'x' expected a 3-D tensor"):
        F.lp_pool1d(paddle.rand([1, 1, 4, 4]), 2, 2)
    with pytest.raises(ValueError, match=r"lp_pool2d: argument 'data_format'"):
        F.lp_pool2d(paddle.rand([1, 1, 4, 4]), 2, 2, data_format="NCL")


@pytest.mark.parametrize("align", [True, False])
def test_affine_grid(align):
    theta = R.randn(2, 2, 3)
    _check(lambda t: F.affine_grid(t, [2, 3, 4, 5], align),
           lambda t: TF.affine_grid(t, [2, 3, 4, 5], align), theta, "float64")
    theta3 = R.randn(2, 3, 4)
    _check(lambda t: F.affine_grid(t, paddle.to_tensor([2, 1, 3, 4, 2]), align),
           lambda t: TF.affine_grid(t, [2, 1, 3, 4, 2], align), theta3, "float32")


def test_affine_grid_errors_and_silu():
    with pytest.raises(ValueError, match=r"affine_grid: argument 'theta' expected shape "
                                         r"\[2, 2, 3\]"):
        F.affine_grid(paddle.rand([2, 3, 4]), [2, 3, 4, 5])
    with pytest.raises(ValueError, match=r"affine_grid: argument 'out_shape' expected 4 or 5"):
        F.affine_grid(paddle.rand([2, 2, 3]), [2, 3, 4])
    x = R.randn(3, 4)
    _check(lambda t: paddle.nn.Silu()(t), lambda t: TF.silu(t), x, "float64")
