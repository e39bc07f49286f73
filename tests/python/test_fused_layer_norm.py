"""paddle.incubate.nn.functional.fused_layer_norm: forward against numpy at odd sizes (bias,
residual_alpha * residual, residual_out, mean/variance, the no-weight shortcut), gradients of
every input against torch autograd of the unfused composition, bf16/fp16 with float32
statistics, to_static capture, and every bad input with its message."""
import numpy as np
import pytest

import skiff as paddle
import skiff.incubate.nn.functional as IF

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


def _ref(h, w, b, eps, axis):
    red = tuple(range(axis, h.ndim))
    mean = h.mean(axis=red, keepdims=True)
    var = h.var(axis=red, keepdims=True)
    y = (h - mean) / np.sqrt(var + eps)
    ns = h.shape[axis:]
    y = y * (1 if w is None else w.reshape(ns)) + (0 if b is None else b.reshape(ns))
    return y, mean.reshape(-1), var.reshape(-1)


def _t(a, grad=False):
    return paddle.to_tensor(a, stop_gradient=not grad)


@pytest.mark.parametrize("shape,axis", [((1, 1), 1), ((3, 63), 1), ((2, 5, 257), 2),
                                        ((2, 4, 6), 1), ((1, 4096, 16), 2)])
def test_forward_matches_numpy(shape, axis):
    x = RNG.standard_normal(shape).astype(np.float32)
    n = int(np.prod(shape[axis:]))
    w, b = (RNG.standard_normal(n).astype(np.float32) for _ in range(2))
    out, res, mean, var = IF.fused_layer_norm(_t(x), _t(w), _t(b), 1e-5, begin_norm_axis=axis)
    assert res is None
    y, m, v = _ref(x.astype(np.float64), w, b, 1e-5, axis)
    np.testing.assert_allclose(out.numpy(), y, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(mean.numpy(), m, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(var.numpy(), v, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_bias_residual_alpha_and_residual_out(alpha):
    x, r = (RNG.standard_normal((4, 33)).astype(np.float32) for _ in range(2))
    bias, w, b = (RNG.standard_normal(33).astype(np.float32) for _ in range(3))
    out, res, _, _ = IF.fused_layer_norm(_t(x), _t(w), _t(b), 1e-6, residual_alpha=alpha,
                                         bias=_t(bias), residual=_t(r))
    h = x + bias + alpha * r
    np.testing.assert_allclose(res.numpy(), h, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(out.numpy(), _ref(h, w, b, 1e-6, 1)[0], rtol=1e-4, atol=1e-4)


def test_without_norm_weight_and_bias_returns_the_sum():
    x, r = (RNG.standard_normal((3, 8)).astype(np.float32) for _ in range(2))
    out, res, mean, var = IF.fused_layer_norm(_t(x), None, None, 1e-5, residual_alpha=2.0,
                                              residual=_t(r))
    np.testing.assert_allclose(out.numpy(), x + 2 * r, rtol=1e-6)
    np.testing.assert_allclose(res.numpy(), x + 2 * r, rtol=1e-6)
    assert mean is None and var is None
    # Only the weight: a norm without shift.
    w = RNG.standard_normal(8).astype(np.float32)
    out, _, _, _ = IF.fused_layer_norm(_t(x), _t(w), None, 1e-5)
    np.testing.assert_allclose(out.numpy(), _ref(x, w, None, 1e-5, 1)[0], rtol=1e-4, atol=1e-4)


def test_gradients_match_torch_autograd():
    x, r = (RNG.standard_normal((3, 7, 16)).astype(np.float32) for _ in range(2))
    w, b, bias = (RNG.standard_normal(16).astype(np.float32) for _ in range(3))
    g, gr = (RNG.standard_normal((3, 7, 16)).astype(np.float32) for _ in range(2))
    px, pr, pw, pb, pbias = (_t(a, True) for a in (x, r, w, b, bias))
    out, res, _, _ = IF.fused_layer_norm(px, pw, pb, 1e-5, 0.7, 2, bias=pbias, residual=pr)
    ((out * _t(g)).sum() + (res * _t(gr)).sum()).backward()
    tx, tr, tw, tb, tbias = (torch.tensor(a, dtype=torch.float64, requires_grad=True)
                             for a in (x, r, w, b, bias))
    h = tx + tbias + 0.7 * tr
    ty = torch.nn.functional.layer_norm(h, [16], tw, tb, 1e-5)
    ((ty * torch.tensor(g)).sum() + (h * torch.tensor(gr)).sum()).backward()
    for p, t in ((px, tx), (pr, tr), (pw, tw), (pb, tb), (pbias, tbias)):
        np.testing.assert_allclose(p.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 2e-2), ("float16", 4e-3)])
def test_16bit_with_float32_weights_and_statistics(dtype, tol):
    x = RNG.standard_normal((8, 257)).astype(np.float32)
    w, b = (RNG.standard_normal(257).astype(np.float32) for _ in range(2))
    xb = _t(x).astype(dtype)
    out, _, mean, var = IF.fused_layer_norm(xb, _t(w), _t(b), 1e-5)  # Paddle's fp16 x, fp32 w
    assert out.dtype == getattr(paddle, dtype) and mean.dtype == paddle.float32
    xr = xb.astype("float32").numpy().astype(np.float64)
    y, m, v = _ref(xr, w, b, 1e-5, 1)
    # One rounding of out to 16 bits (|out| up to about 10 here); statistics stay float32.
    np.testing.assert_allclose(out.astype("float32").numpy(), y, rtol=tol, atol=tol * 4)
    np.testing.assert_allclose(mean.numpy(), m, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(var.numpy(), v, rtol=1e-4, atol=1e-5)


def test_to_static_matches_eager_with_gradients():
    x, r = (RNG.standard_normal((4, 12)).astype(np.float32) for _ in range(2))
    w, b = (RNG.standard_normal(12).astype(np.float32) for _ in range(2))

    def f(x, r, w, b):
        out, res, _, _ = IF.fused_layer_norm(x, w, b, 1e-5, residual=r)
        return (out * out).sum() + res.sum()

    sf = paddle.jit.to_static(f)
    sa = [_t(a, True) for a in (x, r, w, b)]
    ea = [_t(a, True) for a in (x, r, w, b)]
    ls, le = sf(*sa), f(*ea)
    assert "op.layer_norm" in str(sf.concrete_program.main_program)
    ls.backward()
    le.backward()
    np.testing.assert_allclose(ls.numpy(), le.numpy(), rtol=1e-5)
    for s, e in zip(sa, ea):
        np.testing.assert_allclose(s.grad.numpy(), e.grad.numpy(), rtol=1e-5, atol=1e-6)


IA = "\\(InvalidArgument\\) fused_layer_norm: argument"


def test_bad_inputs_name_the_argument():
    x, w = paddle.ones([2, 8]), paddle.ones([8])
    fn = IF.fused_layer_norm
    with pytest.raises(ValueError, match=f"{IA} 'begin_norm_axis' expected a value in"):
        fn(x, w, w, 1e-5, begin_norm_axis=2)
    with pytest.raises(ValueError, match=f"{IA} 'norm_weight' expected shape \\[8\\].*got \\[7\\]"):
        fn(x, paddle.ones([7]), w, 1e-5)
    with pytest.raises(ValueError, match=f"{IA} 'norm_bias' expected shape"):
        fn(x, w, paddle.ones([3]), 1e-5)
    with pytest.raises(ValueError, match=f"{IA} 'residual' expected shape \\[2, 8\\]"):
        fn(x, w, w, 1e-5, residual=paddle.ones([8]))
    with pytest.raises(ValueError, match=f"{IA} 'bias' expected shape"):
        fn(x, w, w, 1e-5, bias=paddle.ones([3]))
    with pytest.raises(TypeError, match="\\(InvalidType\\) fused_layer_norm: argument 'residual' "
                                        "expected dtype float32 \\(x's\\), got float64"):
        fn(x, w, w, 1e-5, residual=paddle.ones([2, 8], dtype="float64"))
    with pytest.raises(ValueError, match=f"{IA} 'epsilon' expected >= 0"):
        fn(x, w, w, -1.0)
    with pytest.raises(NotImplementedError, match="fused_layer_norm: argument 'quant_scale'"):
        fn(x, w, w, 1e-5, quant_scale=0.5)
    with pytest.raises(TypeError, match="layer_norm: argument 'x' expected a floating-point"):
        fn(paddle.ones([2, 8], dtype="int32"), w, w, 1e-5)
