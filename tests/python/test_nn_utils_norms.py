"""paddle.nn.utils.weight_norm / remove_weight_norm / spectral_norm and nn.SpectralNorm against
torch (weights, forward, gradients, power-iteration buffers), Paddle's examples, bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
from skiff.nn.utils import remove_weight_norm, spectral_norm, weight_norm

R = np.random.RandomState(5)


def _linear_pair(dim):
    """A Paddle Linear (weight [in, out]) with weight_norm and torch's equivalent on the same
    weight (torch's Linear weight is [out, in]: dim maps to 1 - dim)."""
    layer = paddle.nn.Linear(4, 3)
    w = R.randn(4, 3)
    b = R.randn(3)
    layer.weight.set_value(w.astype("float32"))
    layer.bias.set_value(b.astype("float32"))
    weight_norm(layer, dim=dim)
    tl = torch.nn.Linear(4, 3)
    with torch.no_grad():
        tl.weight.copy_(torch.tensor(w.T))
        tl.bias.copy_(torch.tensor(b))
    tl = torch.nn.utils.weight_norm(tl, dim=None if dim is None else 1 - dim)
    return layer, tl


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_linear(dim):
    layer, tl = _linear_pair(dim)
    names = sorted(n for n, _ in layer.named_parameters())
    assert names == ["bias", "weight_g", "weight_v"]
    g_shape = [] if dim is None else [[4], [3]][dim]
    assert layer.weight_g.shape == g_shape
    x = R.randn(5, 4).astype("float32")
    y = layer(paddle.to_tensor(x))
    Y = tl(torch.tensor(x))
    np.testing.assert_allclose(y.numpy(), Y.detach().numpy(), rtol=1e-5, atol=1e-6)
    gy = R.randn(5, 3).astype("float32")
    y.backward(paddle.to_tensor(gy))
    Y.backward(torch.tensor(gy))
    tg = tl.weight_g.grad.numpy()
    tv = tl.weight_v.grad.numpy().T
    np.testing.assert_allclose(layer.weight_g.grad.numpy(), tg.reshape(g_shape), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(layer.weight_v.grad.numpy(), tv, rtol=1e-4, atol=1e-5)
    # remove_weight_norm folds g and v back: same outputs, one parameter again
    remove_weight_norm(layer)
    assert sorted(n for n, _ in layer.named_parameters()) == ["bias", "weight"]
    np.testing.assert_allclose(layer(paddle.to_tensor(x)).numpy(), Y.detach().numpy(),
                               rtol=1e-5, atol=1e-6)


def test_weight_norm_conv_example():
    conv = paddle.nn.Conv2D(3, 5, 3)
    w = conv.weight.numpy()
    weight_norm(conv)
    assert conv.weight_g.shape == [5] and conv.weight_v.shape == [5, 3, 3, 3]
    np.testing.assert_allclose(conv.weight_g.numpy(),
                               np.sqrt((w.reshape(5, -1) ** 2).sum(1)), rtol=1e-5)
    np.testing.assert_allclose(conv.weight.numpy(), w, rtol=1e-5, atol=1e-6)
    weight_norm(paddle.nn.Conv2D(3, 5, 3), dim=2)  # a middle axis
    with pytest.raises(RuntimeError, match=r"cannot register two weight_norm hooks"):
        weight_norm(conv)
    with pytest.raises(ValueError, match=r"weight_norm: argument 'dim' expected a value in "
                                         r"\[-4, 4\)"):
        weight_norm(paddle.nn.Conv2D(3, 5, 3), dim=4)
    with pytest.raises(ValueError, match=r"remove_weight_norm: weight_norm of 'bias' not found"):
        remove_weight_norm(conv, "bias")


def _torch_sn(weight, u, v, dim, iters, eps=1e-12):
    w = torch.tensor(weight, requires_grad=True)
    mat = w if dim == 0 else w.transpose(0, dim)
    mat = mat.reshape(mat.shape[0], -1)
    u, v = torch.tensor(u), torch.tensor(v)
    with torch.no_grad():
        for _ in range(iters):
            v = torch.nn.functional.normalize(mat.t() @ u, dim=0, eps=eps)
            u = torch.nn.functional.normalize(mat @ v, dim=0, eps=eps)
    return w, w / torch.dot(u, mat @ v), u, v


def test_spectral_norm_hook():
    paddle.seed(3)
    conv = paddle.nn.Conv2D(3, 4, 2)
    w0 = conv.weight.numpy().astype(np.float64)
    spectral_norm(conv, n_power_iterations=2)
    assert "weight_orig" in dict(conv.named_parameters())
    u0, v0 = conv.weight_u.numpy(), conv.weight_v.numpy()
    assert u0.shape == (4,) and v0.shape == (12,)
    np.testing.assert_allclose(np.linalg.norm(u0), 1.0, rtol=1e-5)
    x = R.randn(2, 3, 5, 5).astype("float32")
    y = conv(paddle.to_tensor(x))
    w, wn, u, v = _torch_sn(w0, u0.astype(np.float64), v0.astype(np.float64), 0, 2)
    np.testing.assert_allclose(conv.weight.numpy(), wn.detach().numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(conv.weight_u.numpy(), u.numpy(), rtol=1e-4, atol=1e-6)
    y.sum().backward()
    ref = torch.nn.functional.conv2d(torch.tensor(x, dtype=torch.float64), wn,
                                     torch.tensor(conv.bias.numpy(), dtype=torch.float64))
    ref.sum().backward()
    np.testing.assert_allclose(conv.weight_orig.grad.numpy(), w.grad.numpy(), rtol=1e-3,
                               atol=1e-5)
    conv.eval()  # no power iteration in eval: the buffers stay
    u1 = conv.weight_u.numpy()
    conv(paddle.to_tensor(x))
    np.testing.assert_array_equal(conv.weight_u.numpy(), u1)
    lin = spectral_norm(paddle.nn.Linear(3, 6))
    assert lin.weight_u.shape == [6]  # dim 1 for Linear's [in, out] weight
    with pytest.raises(ValueError, match=r"spectral_norm: argument 'n_power_iterations' "
                                         r"expected a positive int"):
        spectral_norm(paddle.nn.Linear(3, 6), n_power_iterations=0)
    with pytest.raises(RuntimeError, match=r"cannot register two spectral_norm hooks"):
        spectral_norm(lin)


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_spectral_norm_layer(dim):
    shape = [2, 3, 4]
    layer = paddle.nn.SpectralNorm(shape, dim=dim, power_iters=3, dtype="float64")
    assert layer.weight_u.shape == [shape[dim]]
    assert layer.weight_u.stop_gradient and layer.weight_v.stop_gradient
    w = R.randn(*shape)
    wt = paddle.to_tensor(w, stop_gradient=False)
    out = layer(wt)
    # Paddle's kernel: u, v normalised by (||.|| + eps) from the initial parameters each call
    perm = [dim] + [d for d in range(3) if d != dim]
    mat = w.transpose(perm).reshape(shape[dim], -1)
    u, v = layer.weight_u.numpy(), layer.weight_v.numpy()
    for _ in range(3):
        v = mat.T @ u
        v = v / (np.linalg.norm(v) + 1e-12)
        u = mat @ v
        u = u / (np.linalg.norm(u) + 1e-12)
    sigma = u @ mat @ v
    np.testing.assert_allclose(out.numpy(), w / sigma, rtol=1e-12)
    g = R.randn(*shape)
    out.backward(paddle.to_tensor(g))
    uv = np.outer(u, v).reshape([shape[dim]] + [shape[d] for d in perm[1:]])
    uv = uv.transpose(np.argsort(perm))
    ref = g / sigma - (g * w).sum() / sigma ** 2 * uv
    np.testing.assert_allclose(wt.grad.numpy(), ref, rtol=1e-10)
    np.testing.assert_array_equal(layer(wt).numpy(), out.numpy())  # u, v are not updated
    with pytest.raises(ValueError, match=r"SpectralNorm: argument 'weight' expected shape"):
        layer(paddle.rand([2, 3]))
    with pytest.raises(ValueError, match=r"SpectralNorm: argument 'dim' expected a value in"):
        paddle.nn.SpectralNorm(shape, dim=3)
