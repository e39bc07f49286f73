"""paddle.incubate.nn.functional.fused_rms_norm: forward against numpy (with norm_bias, bias and
residual, residual_out), gradients against torch, bf16 with float32 statistics, and errors."""
import numpy as np
import pytest

import skiff as paddle
import skiff.incubate.nn.functional as IF

torch = pytest.importorskip("torch")


def _ref(x, w, b, eps, axis):
    red = tuple(range(axis, x.ndim))
    y = x / np.sqrt(np.mean(x * x, axis=red, keepdims=True) + eps)
    return y * w + (0 if b is None else b)


@pytest.mark.parametrize("shape,axis", [((1, 1), 1), ((3, 63), 1), ((2, 5, 257), 2),
                                        ((2, 4, 6), 1)])
def test_forward_matches_numpy(shape, axis):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal(shape[axis:]).astype(np.float32)
    b = rng.standard_normal(shape[axis:]).astype(np.float32)
    out, res = IF.fused_rms_norm(paddle.to_tensor(x), paddle.to_tensor(w), paddle.to_tensor(b),
                                 1e-6, axis)
    assert res is None
    np.testing.assert_allclose(out.numpy(), _ref(x, w, b, 1e-6, axis), rtol=1e-5, atol=1e-5)


def test_bias_residual_and_residual_out():
    rng = np.random.default_rng(1)
    x, r = (rng.standard_normal((4, 33)).astype(np.float32) for _ in range(2))
    bias, w = (rng.standard_normal(33).astype(np.float32) for _ in range(2))
    out, res = IF.fused_rms_norm(paddle.to_tensor(x), paddle.to_tensor(w), None, 1e-5, 1,
                                 bias=paddle.to_tensor(bias), residual=paddle.to_tensor(r))
    h = x + bias + r
    np.testing.assert_allclose(res.numpy(), h, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(out.numpy(), _ref(h, w, None, 1e-5, 1), rtol=1e-5, atol=1e-5)


def test_gradients_match_torch():
    rng = np.random.default_rng(2)
    x, r = (rng.standard_normal((3, 7, 16)).astype(np.float32) for _ in range(2))
    w, b = (rng.standard_normal(16).astype(np.float32) for _ in range(2))
    g = rng.standard_normal((3, 7, 16)).astype(np.float32)
    px, pr, pw, pb = (paddle.to_tensor(a, stop_gradient=False) for a in (x, r, w, b))
    out, _ = IF.fused_rms_norm(px, pw, pb, 1e-6, -1, residual=pr)
    (out * paddle.to_tensor(g)).sum().backward()
    tx, tr, tw, tb = (torch.tensor(a, requires_grad=True) for a in (x, r, w, b))
    h = tx + tr
    ty = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6) * tw + tb
    (ty * torch.tensor(g)).sum().backward()
    for p, t in ((px, tx), (pr, tr), (pw, tw), (pb, tb)):
        np.testing.assert_allclose(p.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-4)


def test_bfloat16():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, 64)).astype(np.float32)
    w = rng.standard_normal(64).astype(np.float32)
    xb = paddle.to_tensor(x).astype("bfloat16")
    out, _ = IF.fused_rms_norm(xb, paddle.to_tensor(w).astype("bfloat16"), None, 1e-6, 1)
    assert out.dtype == paddle.bfloat16
    xr = xb.astype("float32").numpy()
    wr = paddle.to_tensor(w).astype("bfloat16").astype("float32").numpy()
    # bf16 has an 8-bit mantissa: one rounding of the output is 2^-8 relative.
    np.testing.assert_allclose(out.astype("float32").numpy(), _ref(xr, wr, None, 1e-6, 1),
                               rtol=1e-2, atol=1e-2)


def test_bad_inputs_name_the_argument():
    x = paddle.ones([2, 8])
    with pytest.raises(ValueError, match="fused_rms_norm: argument 'begin_norm_axis'"):
        IF.fused_rms_norm(x, paddle.ones([8]), None, 1e-6, 2)
    with pytest.raises(ValueError, match="fused_rms_norm: argument 'norm_weight'.*got \\[7\\]"):
        IF.fused_rms_norm(x, paddle.ones([7]), None, 1e-6, 1)
    with pytest.raises(ValueError, match="fused_rms_norm: argument 'norm_bias'"):
        IF.fused_rms_norm(x, paddle.ones([8]), paddle.ones([3]), 1e-6, 1)
    with pytest.raises(NotImplementedError, match="fused_rms_norm: argument 'quant_scale'"):
        IF.fused_rms_norm(x, paddle.ones([8]), None, 1e-6, 1, quant_scale=0.5)


@pytest.mark.parametrize("shape", [(1,), (3, 63), (2, 5, 257)])
def test_swiglu_matches_torch_with_gradients(shape):
    rng = np.random.default_rng(4)
    x, y, g = (rng.standard_normal(shape).astype(np.float32) for _ in range(3))
    px, py = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(y, stop_gradient=False)
    out = IF.swiglu(px, py)
    (out * paddle.to_tensor(g)).sum().backward()
    tx, ty = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
    tout = torch.nn.functional.silu(tx) * ty
    (tout * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(px.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(py.grad.numpy(), ty.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_swiglu_halves_of_x_and_bf16():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 10)).astype(np.float32)
    ref = torch.nn.functional.silu(torch.tensor(x[:, :5])) * torch.tensor(x[:, 5:])
    np.testing.assert_allclose(IF.swiglu(paddle.to_tensor(x)).numpy(), ref.numpy(), rtol=1e-5,
                               atol=1e-6)
    xb = paddle.to_tensor(x).astype("bfloat16")
    out = IF.swiglu(xb)
    assert out.dtype == paddle.bfloat16
    xr = torch.tensor(xb.astype("float32").numpy())
    ref = torch.nn.functional.silu(xr[:, :5]) * xr[:, 5:]
    # silu and the product each round to bf16 (2^-8 relative).
    np.testing.assert_allclose(out.astype("float32").numpy(), ref.numpy(), rtol=2e-2, atol=2e-2)


def test_swiglu_bad_inputs():
    with pytest.raises(ValueError, match="swiglu: argument 'x' must have an even last dim"):
        IF.swiglu(paddle.ones([2, 3]))
    with pytest.raises(ValueError, match="swiglu: arguments 'x' and 'y' must have the same shape"):
        IF.swiglu(paddle.ones([2, 4]), paddle.ones([2, 3]))
