"""conv3d, conv3d_transpose, max/avg/adaptive 3-D pools, return_mask for the 1-D/2-D/3-D max
pools, max_unpool1d/2d/3d and their layers against torch (forward and gradients,
float32/float64), bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F

TF = torch.nn.functional
R = np.random.RandomState(3)


def _check(fn, tfn, arrays, dtype):
    tol = 1e-4 if dtype == "float32" else 1e-10
    ps = [paddle.to_tensor(a.astype(dtype), stop_gradient=False) for a in arrays]
    ts = [torch.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
    y, Y = fn(*ps), tfn(*ts)
    assert list(y.shape) == list(Y.shape)
    np.testing.assert_allclose(y.numpy(), Y.detach().numpy(), rtol=tol, atol=tol)
    g = R.randn(*Y.shape).astype(dtype)
    y.backward(paddle.to_tensor(g))
    Y.backward(torch.tensor(g))
    for p, t in zip(ps, ts):
        np.testing.assert_allclose(p.grad.numpy(), t.grad.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_conv3d(dtype):
    x = R.randn(2, 4, 5, 6, 7)
    _check(lambda a, w, b: F.conv3d(a, w, b, [2, 1, 2], [1, 0, 1], [1, 2, 1], 2),
           lambda a, w, b: TF.conv3d(a, w, b, [2, 1, 2], [1, 0, 1], [1, 2, 1], 2),
           [x, R.randn(6, 2, 3, 2, 3), R.randn(6)], dtype)
    # asymmetric padding [d0, d1, h0, h1, w0, w1]
    _check(lambda a, w: F.conv3d(a, w, None, 1, [1, 2, 0, 1, 1, 0]),
           lambda a, w: TF.conv3d(TF.pad(a, [1, 0, 0, 1, 1, 2]), w), [x, R.randn(3, 4, 2, 2, 2)],
           dtype)
    _check(lambda a, w: F.conv3d(a, w, None, 2, "SAME"),
           lambda a, w: TF.conv3d(TF.pad(a, [1, 1, 0, 1, 1, 1]), w, None, 2),
           [x, R.randn(3, 4, 3, 3, 3)], dtype)
    _check(lambda a, w: F.conv3d(a, w, None, 1, 1, data_format="NDHWC"),
           lambda a, w: TF.conv3d(a.permute(0, 4, 1, 2, 3), w, None, 1, 1).permute(0, 2, 3, 4, 1),
           [x.transpose(0, 2, 3, 4, 1), R.randn(3, 4, 3, 3, 3)], dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_conv3d_transpose(dtype):
    x = R.randn(2, 4, 3, 4, 5)
    _check(lambda a, w, b: F.conv3d_transpose(a, w, b, [2, 1, 2], [1, 0, 1], [1, 0, 1], 2,
                                              [1, 2, 1]),
           lambda a, w, b: TF.conv_transpose3d(a, w, b, [2, 1, 2], [1, 0, 1], [1, 0, 1], 2,
                                               [1, 2, 1]),
           [x, R.randn(4, 3, 3, 2, 3), R.randn(6)], dtype)
    _check(lambda a, w: F.conv3d_transpose(a, w, None, 3, 0, 2),
           lambda a, w: TF.conv_transpose3d(a, w, None, 3, 0, 2), [x, R.randn(4, 2, 2, 2, 2)],
           dtype)
    _check(lambda a, w: F.conv3d_transpose(a, w, None, 2, 1, output_size=[6, 8, 10]),
           lambda a, w: TF.conv_transpose3d(a, w, None, 2, 1, output_padding=1),
           [x, R.randn(4, 2, 3, 3, 3)], dtype)


def test_conv3d_layers():
    paddle.seed(1)
    conv = paddle.nn.Conv3D(4, 6, 3, padding=1, groups=2)
    assert conv.weight.shape == [6, 2, 3, 3, 3] and conv.bias.shape == [6]
    x = R.randn(1, 4, 4, 5, 6).astype("float32")
    ref = TF.conv3d(torch.tensor(x), torch.tensor(conv.weight.numpy()),
                    torch.tensor(conv.bias.numpy()), 1, 1, 1, 2)
    np.testing.assert_allclose(conv(paddle.to_tensor(x)).numpy(), ref.numpy(), rtol=1e-4,
                               atol=1e-5)
    circ = paddle.nn.Conv3D(4, 2, 3, padding=1, padding_mode="circular")
    ref = TF.conv3d(TF.pad(torch.tensor(x), [1] * 6, mode="circular"),
                    torch.tensor(circ.weight.numpy()), torch.tensor(circ.bias.numpy()))
    np.testing.assert_allclose(circ(paddle.to_tensor(x)).numpy(), ref.numpy(), rtol=1e-4,
                               atol=1e-5)
    tconv = paddle.nn.Conv3DTranspose(4, 2, 2, stride=2)
    assert tconv.weight.shape == [4, 2, 2, 2, 2]
    assert tconv(paddle.to_tensor(x)).shape == [1, 2, 8, 10, 12]
    assert tconv(paddle.to_tensor(x), output_size=[9, 11, 13]).shape == [1, 2, 9, 11, 13]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pools3d(dtype):
    x = R.randn(2, 3, 7, 8, 9)
    _check(lambda t: F.max_pool3d(t, 3, 2, 1), lambda t: TF.max_pool3d(t, 3, 2, 1), [x], dtype)
    _check(lambda t: F.max_pool3d(t, [2, 3, 2], 2, 0, ceil_mode=True),
           lambda t: TF.max_pool3d(t, [2, 3, 2], 2, 0, ceil_mode=True), [x], dtype)
    _check(lambda t: F.avg_pool3d(t, 3, 2, 1),
           lambda t: TF.avg_pool3d(t, 3, 2, 1, count_include_pad=False), [x], dtype)
    _check(lambda t: paddle.nn.AvgPool3D(3, 2, 1, exclusive=False)(t),
           lambda t: TF.avg_pool3d(t, 3, 2, 1, count_include_pad=True), [x], dtype)
    _check(lambda t: F.avg_pool3d(t, 2, divisor_override=3),
           lambda t: TF.avg_pool3d(t, 2, divisor_override=3), [x], dtype)
    _check(lambda t: paddle.nn.AdaptiveAvgPool3D([3, 5, 4])(t),
           lambda t: TF.adaptive_avg_pool3d(t, [3, 5, 4]), [x], dtype)
    _check(lambda t: paddle.nn.AdaptiveMaxPool3D(3)(t),
           lambda t: TF.adaptive_max_pool3d(t, 3), [x], dtype)
    _check(lambda t: paddle.nn.MaxPool3D(2, data_format="NDHWC")(t),
           lambda t: TF.max_pool3d(t.permute(0, 4, 1, 2, 3), 2).permute(0, 2, 3, 4, 1), [x],
           dtype)


def _check_mask(fn, tfn, x):
    xs = paddle.to_tensor(x, stop_gradient=False)
    X = torch.tensor(x, requires_grad=True)
    (v, m), (V, M) = fn(xs), tfn(X)
    assert m.dtype == paddle.int32
    np.testing.assert_allclose(v.numpy(), V.detach().numpy(), rtol=1e-12)
    np.testing.assert_array_equal(m.numpy(), M.numpy())
    g = R.randn(*V.shape)
    v.backward(paddle.to_tensor(g))
    V.backward(torch.tensor(g))
    np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=1e-12)
    return v, m, V, M


def test_return_mask_and_unpool():
    x1, x2, x3 = R.randn(2, 3, 11), R.randn(2, 3, 8, 9), R.randn(1, 2, 4, 6, 8)
    v, m, V, M = _check_mask(lambda t: F.max_pool1d(t, 3, 2, 1, return_mask=True),
                             lambda t: TF.max_pool1d(t, 3, 2, 1, return_indices=True), x1)
    _check(lambda a: F.max_unpool1d(a, m, 3, 2, 1),
           lambda a: TF.max_unpool1d(a, M, 3, 2, 1), [V.detach().numpy()], "float64")
    v, m, V, M = _check_mask(lambda t: paddle.nn.MaxPool2D([2, 3], 2, [0, 1], True, True)(t),
                             lambda t: TF.max_pool2d(t, [2, 3], 2, [0, 1], ceil_mode=True,
                                                     return_indices=True), x2)
    _check(lambda a: paddle.nn.MaxUnPool2D([2, 3], 2, [0, 1], output_size=[8, 9])(a, m),
           lambda a: TF.max_unpool2d(a, M, [2, 3], 2, [0, 1], output_size=[8, 9]),
           [V.detach().numpy()], "float64")
    v, m, V, M = _check_mask(lambda t: F.max_pool3d(t, 2, return_mask=True),
                             lambda t: TF.max_pool3d(t, 2, return_indices=True), x3)
    _check(lambda a: paddle.nn.MaxUnPool3D(2)(a, m), lambda a: TF.max_unpool3d(a, M, 2),
           [V.detach().numpy()], "float64")
    _check_mask(lambda t: F.adaptive_max_pool1d(t, 4, return_mask=True),
                lambda t: TF.adaptive_max_pool1d(t, 4, return_indices=True), x1)
    _check_mask(lambda t: F.adaptive_max_pool2d(t, [3, 4], return_mask=True),
                lambda t: TF.adaptive_max_pool2d(t, [3, 4], return_indices=True), x2)
    _check_mask(lambda t: F.adaptive_max_pool3d(t, [2, 4, 3], return_mask=True),
                lambda t: TF.adaptive_max_pool3d(t, [2, 4, 3], return_indices=True), x3)
    # Paddle's example: unpooling restores the maxima at their positions
    data = paddle.rand([1, 1, 6, 6])
    pooled, idx = F.max_pool2d(data, 2, 2, return_mask=True)
    up = F.max_unpool2d(pooled, idx, 2, 2).numpy()
    d = data.numpy()
    keep = up != 0
    np.testing.assert_array_equal(up[keep], d[keep])
    assert keep.sum() == 9


def test_bad_inputs():
    x = paddle.rand([1, 4, 5, 6, 7])
    with pytest.raises(ValueError, match=r"conv3d: argument 'x' expected a 5-D tensor"):
        F.conv3d(paddle.rand([1, 4, 5, 6]), paddle.rand([2, 4, 3, 3, 3]))
    with pytest.raises(ValueError, match=r"conv3d: argument 'weight' expected shape \[out, "
                                         r"in_channels / groups"):
        F.conv3d(x, paddle.rand([2, 3, 3, 3, 3]))
    with pytest.raises(ValueError, match=r"conv3d: argument 'padding' expected an int, 3 or 6"):
        F.conv3d(x, paddle.rand([2, 4, 3, 3, 3]), padding=[1, 1])
    with pytest.raises(ValueError, match=r"conv3d: the output depth 0 is not positive"):
        F.conv3d(paddle.rand([1, 4, 2, 6, 7]), paddle.rand([2, 4, 3, 3, 3]))
    with pytest.raises(ValueError, match=r"conv3d: argument 'data_format'"):
        F.conv3d(x, paddle.rand([2, 4, 3, 3, 3]), data_format="NCHW")
    with pytest.raises(ValueError, match=r"conv3d_transpose: argument 'output_size' expected a "
                                         r"value in \[11, 13\), got 14"):
        F.conv3d_transpose(x, paddle.rand([4, 2, 3, 3, 3]), stride=2, output_size=[14, 13, 15])
    with pytest.raises(ValueError, match=r"conv3d_transpose: argument 'weight' expected "
                                         r"shape\[0\]"):
        F.conv3d_transpose(x, paddle.rand([3, 2, 3, 3, 3]))
    with pytest.raises(ValueError, match=r"max_pool3d: argument 'x' expected a 5-D tensor"):
        F.max_pool3d(paddle.rand([1, 4, 5, 6]), 2)
    with pytest.raises(ValueError, match=r"avg_pool3d: argument 'kernel_size' expected an int "
                                         r"or 3 ints"):
        F.avg_pool3d(x, [2, 2])
    with pytest.raises(ValueError, match=r"adaptive_avg_pool3d: argument 'output_size' expected "
                                         r"positive sizes"):
        F.adaptive_avg_pool3d(x, [0, 2, 2])
    with pytest.raises(ValueError, match=r"max_pool2d: return_mask=True expected data_format "
                                         r"'NCHW'"):
        F.max_pool2d(paddle.rand([1, 4, 4, 3]), 2, return_mask=True, data_format="NHWC")
    pooled, idx = F.max_pool2d(paddle.arange(16, dtype="float32").reshape([1, 1, 4, 4]), 2,
                               return_mask=True)
    np.testing.assert_array_equal(idx.numpy().reshape([-1]), [5, 7, 13, 15])
    with pytest.raises(ValueError, match=r"max_unpool2d: argument 'output_size' expected values "
                                         r"in \(2, 6\)"):
        F.max_unpool2d(pooled, idx, 2, output_size=[7, 4])
    with pytest.raises(ValueError, match=r"max_unpool2d: argument 'indices' expected values in "
                                         r"\[0, 9\) \(the output plane \[3, 3\]\), got 15"):
        F.max_unpool2d(pooled, idx, 2, 1)
    with pytest.raises(ValueError, match=r"max_unpool2d: argument 'indices' expected x's shape"):
        F.max_unpool2d(pooled, idx[:, :, :1], 2)
    with pytest.raises(ValueError, match=r"max_unpool1d: argument 'data_format' expected 'NCL'"):
        F.max_unpool1d(paddle.rand([1, 1, 4]), paddle.zeros([1, 1, 4], "int32"), 2,
                       data_format="NLC")
