"""conv1d, conv1d_transpose, conv2d_transpose and their layers against torch (forward and
gradients of x, weight, bias in float32/float64), Paddle's documented shapes, bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F

TF = torch.nn.functional
TOL = {"float32": 1e-4, "float64": 1e-10}


def _run(fn, tfn, x, w, b, kw, tkw, dtype, fmt_perm=None):
    xs = paddle.to_tensor(x.astype(dtype), stop_gradient=False)
    ws = paddle.to_tensor(w.astype(dtype), stop_gradient=False)
    bs = paddle.to_tensor(b.astype(dtype), stop_gradient=False)
    y = fn(xs, ws, bs, **kw)
    X = torch.tensor(x.astype(dtype), requires_grad=True)
    W = torch.tensor(w.astype(dtype), requires_grad=True)
    B = torch.tensor(b.astype(dtype), requires_grad=True)
    Xin = X.permute(*fmt_perm[0]) if fmt_perm else X
    Y = tfn(Xin, W, B, **tkw)
    if fmt_perm:
        Y = Y.permute(*fmt_perm[1])
    assert list(y.shape) == list(Y.shape)
    tol = TOL[dtype]
    np.testing.assert_allclose(y.numpy(), Y.detach().numpy(), rtol=tol, atol=tol)
    g = np.random.RandomState(1).randn(*Y.shape).astype(dtype)
    y.backward(paddle.to_tensor(g))
    Y.backward(torch.tensor(g))
    for a, t in ((xs, X), (ws, W), (bs, B)):
        np.testing.assert_allclose(a.grad.numpy(), t.grad.numpy(), rtol=tol, atol=tol * 10)


R = np.random.RandomState(0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", [dict(stride=1, padding=0), dict(stride=2, padding=1),
                                dict(stride=2, padding=2, dilation=3, groups=2)])
def test_conv1d(dtype, kw):
    g = kw.get("groups", 1)
    x, w, b = R.randn(2, 4, 11), R.randn(6, 4 // g, 3), R.randn(6)
    _run(F.conv1d, TF.conv1d, x, w, b, kw, kw, dtype)


def test_conv1d_nlc_and_pair_padding():
    x, w, b = R.randn(2, 9, 4), R.randn(5, 4, 3), R.randn(5)
    _run(F.conv1d, TF.conv1d, x, w, b, dict(padding=1, data_format="NLC"), dict(padding=1),
         "float64", fmt_perm=((0, 2, 1), (0, 2, 1)))
    xs = paddle.to_tensor(R.randn(1, 2, 7))
    ws = paddle.to_tensor(R.randn(3, 2, 3))
    y = F.conv1d(xs, ws, padding=[1, 2])
    ref = TF.conv1d(TF.pad(torch.tensor(xs.numpy()), (1, 2)), torch.tensor(ws.numpy()))
    np.testing.assert_allclose(y.numpy(), ref.numpy(), atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", [dict(stride=1, padding=0), dict(stride=2, padding=1,
                                                                 output_padding=1),
                                dict(stride=3, padding=[1, 0], dilation=2, groups=2)])
def test_conv2d_transpose(dtype, kw):
    g = kw.get("groups", 1)
    x, w, b = R.randn(2, 4, 5, 6), R.randn(4, 3, 3, 2), R.randn(3 * g)
    tkw = {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items()}
    _run(F.conv2d_transpose, TF.conv_transpose2d, x, w, b, kw, tkw, dtype)


def test_conv2d_transpose_nhwc_output_size():
    x, w, b = R.randn(2, 5, 6, 4), R.randn(4, 3, 3, 3), R.randn(3)
    # stride 2, padding 1: smallest output 9 x 11; output_size picks 10 x 12
    _run(F.conv2d_transpose, TF.conv_transpose2d, x, w, b,
         dict(stride=2, padding=1, data_format="NHWC", output_size=[10, 12]),
         dict(stride=2, padding=1, output_padding=1), "float64",
         fmt_perm=((0, 3, 1, 2), (0, 2, 3, 1)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_conv1d_transpose(dtype):
    x, w, b = R.randn(2, 4, 7), R.randn(4, 2, 3), R.randn(4)
    kw = dict(stride=2, padding=1, output_padding=1, groups=2, dilation=1)
    _run(F.conv1d_transpose, TF.conv_transpose1d, x, w, b, kw, kw, dtype)


def test_double_backward_conv2d_transpose():
    x = paddle.to_tensor(R.randn(1, 2, 4, 4), stop_gradient=False)
    w = paddle.to_tensor(R.randn(2, 3, 3, 3), stop_gradient=False)
    X = torch.tensor(x.numpy(), requires_grad=True)
    W = torch.tensor(w.numpy(), requires_grad=True)
    (gx,) = paddle.grad((F.conv2d_transpose(x, w, stride=2) ** 2).sum(), [x], create_graph=True)
    (GX,) = torch.autograd.grad((TF.conv_transpose2d(X, W, stride=2) ** 2).sum(), [X],
                                create_graph=True)
    gx.sum().backward()
    GX.sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), W.grad.numpy(), rtol=1e-10, atol=1e-9)


def test_layers_paddle_examples():
    # Paddle's Conv1D / Conv1DTranspose / Conv2DTranspose docstring shapes
    conv = paddle.nn.Conv1D(3, 2, 3, padding=1)
    assert conv.weight.shape == [2, 3, 3]
    assert conv(paddle.rand([1, 3, 8])).shape == [1, 2, 8]
    convt = paddle.nn.Conv1DTranspose(2, 1, 2)
    assert convt.weight.shape == [2, 1, 2]
    assert convt(paddle.rand([1, 2, 2])).shape == [1, 1, 3]
    conv2t = paddle.nn.Conv2DTranspose(4, 6, (3, 3))
    assert conv2t.weight.shape == [4, 6, 3, 3]
    y = conv2t(paddle.rand([2, 4, 8, 8]))
    assert y.shape == [2, 6, 10, 10]
    y.sum().backward()
    assert conv2t.weight.grad.shape == [4, 6, 3, 3] and conv2t.bias.grad.shape == [6]
    conv2s = paddle.nn.Conv2DTranspose(4, 6, 3, stride=2)
    assert conv2s(paddle.rand([2, 4, 8, 8]), output_size=[18, 18]).shape == [2, 6, 18, 18]
    same = paddle.nn.Conv2DTranspose(4, 6, 3, stride=2, padding="SAME")
    assert same(paddle.rand([1, 4, 5, 5])).shape == [1, 6, 10, 10]
    reflect = paddle.nn.Conv1D(2, 2, 3, padding=1, padding_mode="reflect")
    assert reflect(paddle.rand([1, 2, 6])).shape == [1, 2, 6]


def test_bad_inputs():
    x4, w4 = paddle.rand([1, 4, 5, 5]), paddle.rand([4, 2, 3, 3])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) conv2d_transpose: argument "
                                         r"'output_size' expected a value in \[7, 8\)"):
        F.conv2d_transpose(x4, w4, output_size=[9, 9])
    with pytest.raises(ValueError, match="mutually exclusive"):
        F.conv2d_transpose(x4, w4, stride=2, output_padding=1, output_size=[12, 12])
    with pytest.raises(ValueError, match=r"'output_padding' expected a value in \[0, max"):
        F.conv2d_transpose(x4, w4, stride=2, output_padding=2)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) conv2d_transpose: argument "
                                         r"'weight' expected shape\[0\] equal to"):
        F.conv2d_transpose(x4, paddle.rand([3, 2, 3, 3]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) conv2d_transpose: argument 'x' "
                                         r"expected a 4-D tensor"):
        F.conv2d_transpose(paddle.rand([4, 5, 5]), w4)
    with pytest.raises(ValueError, match="conv1d: argument 'data_format' expected one of"):
        F.conv1d(paddle.rand([1, 2, 5]), paddle.rand([2, 2, 3]), data_format="NCHW")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) conv1d: argument 'weight' "
                                         r"expected a 3-D tensor"):
        F.conv1d(paddle.rand([1, 2, 5]), paddle.rand([2, 2, 3, 3]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) conv2d"):
        F.conv1d(paddle.rand([1, 2, 5]), paddle.rand([2, 3, 3]))  # channel mismatch
    with pytest.raises(ValueError, match="divisible by groups"):
        paddle.nn.Conv1DTranspose(3, 4, 2, groups=2)
