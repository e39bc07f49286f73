"""paddle.incubate.nn.functional.fused_bias_act (float path: bias + gelu/relu/silu/swiglu/geglu)
and fused_dropout_add: forward against torch at odd sizes, gradients against torch autograd,
bf16, to_static, and the bad inputs with their messages."""
import numpy as np
import pytest

import skiff as paddle
import skiff.incubate.nn.functional as IF

torch = pytest.importorskip("torch")
TF = torch.nn.functional

RNG = np.random.default_rng(0)


def _torch_act(h, act):
    if act in ("swiglu", "geglu"):
        a, b = h.chunk(2, -1)
        return (TF.silu(a) if act == "swiglu" else TF.gelu(a)) * b
    return {"gelu": TF.gelu, "relu": TF.relu, "silu": TF.silu}[act](h)


@pytest.mark.parametrize("act", ["gelu", "relu", "silu", "swiglu", "geglu"])
@pytest.mark.parametrize("shape", [(1, 2), (3, 64), (2, 5, 514)])
@pytest.mark.parametrize("with_bias", [True, False])
def test_bias_act_matches_torch_with_gradients(act, shape, with_bias):
    x = RNG.standard_normal(shape).astype(np.float32)
    b = RNG.standard_normal(shape[-1]).astype(np.float32)
    g = RNG.standard_normal(shape[:-1] + ((shape[-1] // 2,) if act in ("swiglu", "geglu")
                                          else (shape[-1],))).astype(np.float32)
    px, pb = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(b, stop_gradient=False)
    out = IF.fused_bias_act(px, pb if with_bias else None, act_method=act)
    (out * paddle.to_tensor(g)).sum().backward()
    tx, tb = (torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in (x, b))
    ty = _torch_act(tx + tb if with_bias else tx, act)
    (ty * torch.tensor(g, dtype=torch.float64)).sum().backward()
    np.testing.assert_allclose(out.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(px.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-5)
    if with_bias:
        np.testing.assert_allclose(pb.grad.numpy(), tb.grad.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("act", ["gelu", "swiglu"])
def test_bias_act_bfloat16(act):
    x = RNG.standard_normal((4, 130)).astype(np.float32)
    b = RNG.standard_normal(130).astype(np.float32)
    xb, bb = (paddle.to_tensor(a).astype("bfloat16") for a in (x, b))
    out = IF.fused_bias_act(xb, bb, act_method=act)
    assert out.dtype == paddle.bfloat16
    h = torch.tensor(xb.astype("float32").numpy() + bb.astype("float32").numpy(),
                     dtype=torch.float64)
    # Two bf16 roundings (the biased sum, the output): about 2^-7 relative.
    np.testing.assert_allclose(out.astype("float32").numpy(), _torch_act(h, act).numpy(),
                               rtol=2e-2, atol=2e-2)


def test_bias_act_to_static():
    x = RNG.standard_normal((3, 16)).astype(np.float32)
    b = RNG.standard_normal(16).astype(np.float32)
    f = paddle.jit.to_static(lambda x, b: IF.fused_bias_act(x, b, act_method="geglu"))
    out = f(paddle.to_tensor(x), paddle.to_tensor(b))
    want = IF.fused_bias_act(paddle.to_tensor(x), paddle.to_tensor(b), act_method="geglu")
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=1e-6)
    assert "op.gelu" in str(f.concrete_program.main_program)


def test_bias_act_bad_inputs():
    x = paddle.ones([2, 8])
    ia = "\\(InvalidArgument\\) fused_bias_act: argument"
    with pytest.raises(ValueError, match=f"{ia} 'act_method' expected one of gelu.*'tanh'"):
        IF.fused_bias_act(x, act_method="tanh")
    with pytest.raises(ValueError, match=f"{ia} 'x' expected an even last dim.*swiglu"):
        IF.fused_bias_act(paddle.ones([2, 7]), act_method="swiglu")
    with pytest.raises(ValueError, match=f"{ia} 'bias' expected shape \\[8\\]"):
        IF.fused_bias_act(x, paddle.ones([4]))
    with pytest.raises(TypeError, match="\\(InvalidType\\) fused_bias_act: argument 'bias' "
                                        "expected dtype float32"):
        IF.fused_bias_act(x, paddle.ones([8], dtype="float64"))
    with pytest.raises(TypeError, match="\\(InvalidType\\) fused_bias_act: argument 'x' "
                                        "expected a floating-point tensor"):
        IF.fused_bias_act(paddle.ones([2, 8], dtype="int32"))
    with pytest.raises(NotImplementedError, match="fused_bias_act: argument 'dequant_scales'"):
        IF.fused_bias_act(x, dequant_scales=paddle.ones([8]))
    with pytest.raises(NotImplementedError, match="fused_bias_act: argument 'quant_scale'"):
        IF.fused_bias_act(x, quant_scale=1.0)
    with pytest.raises(ValueError, match=f"{ia} 'compute_dtype'"):
        IF.fused_bias_act(x, compute_dtype="fp64")


@pytest.mark.parametrize("shape", [(1,), (63,), (4, 257)])
def test_dropout_add_eval_and_p_zero_one(shape):
    x, y = (RNG.standard_normal(shape).astype(np.float32) for _ in range(2))
    px, py = paddle.to_tensor(x), paddle.to_tensor(y)
    np.testing.assert_allclose(IF.fused_dropout_add(px, py, 0.3, training=False).numpy(), x + y,
                               rtol=1e-6)
    np.testing.assert_allclose(IF.fused_dropout_add(px, py, 0.3, False, "downgrade_in_infer")
                               .numpy(), 0.7 * x + y, rtol=1e-6)
    np.testing.assert_allclose(IF.fused_dropout_add(px, py, 0.0).numpy(), x + y, rtol=1e-6)
    np.testing.assert_allclose(IF.fused_dropout_add(px, py, 1.0).numpy(), y, rtol=1e-6)


def test_dropout_add_training_masks_scale_and_gradients():
    x = RNG.uniform(1, 2, (64, 257)).astype(np.float32)
    y = RNG.standard_normal((64, 257)).astype(np.float32)
    px, py = (paddle.to_tensor(a, stop_gradient=False) for a in (x, y))
    out = IF.fused_dropout_add(px, py, p=0.25)
    d = out.numpy() - y
    kept = np.abs(d) > 0
    np.testing.assert_allclose(d[kept], x[kept] / 0.75, rtol=1e-5)
    assert abs(kept.mean() - 0.75) < 0.02
    out.sum().backward()
    np.testing.assert_allclose(px.grad.numpy(), kept / 0.75, rtol=1e-6)
    np.testing.assert_allclose(py.grad.numpy(), np.ones_like(y))


def test_dropout_add_bad_inputs():
    x = paddle.ones([2, 3])
    with pytest.raises(ValueError, match="\\(InvalidArgument\\) fused_dropout_add: argument 'y' "
                                         "expected the shape of x"):
        IF.fused_dropout_add(x, paddle.ones([3]))
    with pytest.raises(TypeError, match="\\(InvalidType\\) fused_dropout_add: argument 'y' "
                                        "expected dtype float32"):
        IF.fused_dropout_add(x, paddle.ones([2, 3], dtype="float64"))
    with pytest.raises(ValueError, match="fused_dropout_add: argument 'p' expected a value in"):
        IF.fused_dropout_add(x, x, p=1.5)
    with pytest.raises(ValueError, match="fused_dropout_add: argument 'mode'"):
        IF.fused_dropout_add(x, x, mode="bad")
