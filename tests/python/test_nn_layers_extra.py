"""Softmax2D, ZeroPad1D, ZeroPad3D, FractionalMaxPool2D/3D layers: against torch or their
functional forms, Paddle's examples, bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F

R = np.random.RandomState(17)


def test_softmax2d():
    for shape in ([2, 3, 4, 5], [3, 4, 5]):
        x = R.randn(*shape)
        xs = paddle.to_tensor(x, stop_gradient=False)
        X = torch.tensor(x, requires_grad=True)
        y, Y = paddle.nn.Softmax2D()(xs), torch.nn.Softmax2d()(X)
        np.testing.assert_allclose(y.numpy(), Y.detach().numpy(), rtol=1e-12)
        g = R.randn(*shape)
        y.backward(paddle.to_tensor(g))
        Y.backward(torch.tensor(g))
        np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=1e-10, atol=1e-14)
    with pytest.raises(ValueError, match=r"Softmax2D: argument 'x' expected a 3-D or 4-D "
                                         r"tensor"):
        paddle.nn.Softmax2D()(paddle.rand([2, 3]))


def test_zero_pads():
    data = paddle.arange(6, dtype="float32").reshape([1, 2, 3]) + 1
    np.testing.assert_array_equal(paddle.nn.ZeroPad1D([1, 2])(data).numpy(),
                                  [[[0, 1, 2, 3, 0, 0], [0, 4, 5, 6, 0, 0]]])
    x = R.randn(1, 2, 3, 4, 5)
    out = paddle.nn.ZeroPad3D([1, 0, 2, 1, 0, 3])(paddle.to_tensor(x)).numpy()
    np.testing.assert_array_equal(out, torch.nn.functional.pad(torch.tensor(x),
                                                               [1, 0, 2, 1, 0, 3]).numpy())
    nlc = paddle.nn.ZeroPad1D(2, data_format="NLC")(paddle.to_tensor(x[0, :, :, :, 0]))
    assert nlc.shape == [2, 7, 4]


def test_fractional_layers():
    x = paddle.to_tensor(R.randn(2, 3, 9, 9))
    layer = paddle.nn.FractionalMaxPool2D(4, random_u=0.3, return_mask=True)
    v, m = layer(x)
    fv, fm = F.fractional_max_pool2d(x, 4, random_u=0.3, return_mask=True)
    np.testing.assert_array_equal(v.numpy(), fv.numpy())
    np.testing.assert_array_equal(m.numpy(), fm.numpy())
    x3 = paddle.to_tensor(R.randn(1, 2, 6, 7, 8))
    out = paddle.nn.FractionalMaxPool3D([2, 3, 4], kernel_size=2, random_u=0.6)(x3)
    np.testing.assert_array_equal(
        out.numpy(), F.fractional_max_pool3d(x3, [2, 3, 4], 2, 0.6).numpy())
