"""max_pool1d, avg_pool1d, adaptive_avg_pool1d, adaptive_max_pool1d and their layers against
torch (forward and gradients, float32/float64), Paddle's examples, bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F

TF = torch.nn.functional
R = np.random.RandomState(0)


def _check(fn, tfn, x, dtype):
    tol = 1e-5 if dtype == "float32" else 1e-12
    xs = paddle.to_tensor(x.astype(dtype), stop_gradient=False)
    X = torch.tensor(x.astype(dtype), requires_grad=True)
    y, Y = fn(xs), tfn(X)
    assert list(y.shape) == list(Y.shape)
    np.testing.assert_allclose(y.numpy(), Y.detach().numpy(), rtol=tol, atol=tol)
    g = R.randn(*Y.shape).astype(dtype)
    y.backward(paddle.to_tensor(g))
    Y.backward(torch.tensor(g))
    np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pools(dtype):
    x = R.randn(2, 3, 13)
    _check(lambda t: F.max_pool1d(t, 3, 2, 1), lambda t: TF.max_pool1d(t, 3, 2, 1), x, dtype)
    _check(lambda t: F.max_pool1d(t, 4, ceil_mode=True),
           lambda t: TF.max_pool1d(t, 4, ceil_mode=True), x, dtype)
    _check(lambda t: F.avg_pool1d(t, 3, 2, 1, exclusive=False),
           lambda t: TF.avg_pool1d(t, 3, 2, 1, count_include_pad=True), x, dtype)
    _check(lambda t: F.avg_pool1d(t, 3, 2, 1),
           lambda t: TF.avg_pool1d(t, 3, 2, 1, count_include_pad=False), x, dtype)
    _check(lambda t: F.adaptive_avg_pool1d(t, 5), lambda t: TF.adaptive_avg_pool1d(t, 5), x,
           dtype)
    _check(lambda t: F.adaptive_max_pool1d(t, 4), lambda t: TF.adaptive_max_pool1d(t, 4), x,
           dtype)


def test_layers_paddle_examples():
    data = paddle.uniform([1, 3, 32], dtype="float32", min=-1, max=1)
    assert paddle.nn.MaxPool1D(kernel_size=2, stride=2, padding=0)(data).shape == [1, 3, 16]
    assert paddle.nn.AvgPool1D(kernel_size=2, stride=2, padding=0)(data).shape == [1, 3, 16]
    assert paddle.nn.AdaptiveAvgPool1D(output_size=16)(data).shape == [1, 3, 16]
    assert paddle.nn.AdaptiveMaxPool1D(output_size=16)(data).shape == [1, 3, 16]
    y = F.adaptive_avg_pool1d(paddle.to_tensor([[[1.0, 2.0, 3.0, 4.0]]]), 2)
    np.testing.assert_allclose(y.numpy(), [[[1.5, 3.5]]])


def test_bad_inputs():
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) max_pool1d: argument 'x' "
                                         r"expected a 3-D tensor"):
        F.max_pool1d(paddle.rand([1, 3, 4, 4]), 2)
    with pytest.raises(ValueError, match=r"avg_pool1d: argument 'kernel_size' expected an int"):
        F.avg_pool1d(paddle.rand([1, 3, 8]), [2, 2])
    with pytest.raises(ValueError, match=r"avg_pool1d: argument 'padding' expected"):
        F.avg_pool1d(paddle.rand([1, 3, 8]), 2, padding=[1, 1, 1])
    with pytest.raises(ValueError, match=r"adaptive_avg_pool1d: argument 'output_size' "
                                         r"expected a positive int"):
        F.adaptive_avg_pool1d(paddle.rand([1, 3, 8]), 0)
    with pytest.raises(ValueError, match=r"max_pool1d: argument 'x' expected a 3-D tensor"):
        F.max_pool1d(paddle.rand([1, 3, 8, 8]), 2, return_mask=True)
