"""paddle.nn.functional.flash_attention / scaled_dot_product_attention on the fused flash_attn
op: forward and gradients against float64 torch and the float64 composite, causal and not,
grouped-query heads, sequence lengths that are not multiples of the 64-row tiles, bf16/fp16,
softmax_lse and return_softmax, and Paddle's errors for bad inputs."""
import math

import numpy as np
import pytest

import skiff as paddle
import skiff.nn.functional as F
import importlib

torch = pytest.importorskip("torch")
fa_module = importlib.import_module("skiff.nn.functional.flash_attention")


def _inputs(b, sq, sk, h, hk, d, seed=0):
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((b, sq, h, d)).astype(np.float32)
    k = rng.standard_normal((b, sk, hk, d)).astype(np.float32)
    v = rng.standard_normal((b, sk, hk, d)).astype(np.float32)
    g = rng.standard_normal((b, sq, h, d)).astype(np.float32)
    return q, k, v, g


def _torch_attention(q, k, v, g, causal):
    """float64 torch: out, grads of q/k/v for the cotangent g, and the log-sum-exp."""
    tq, tk, tv = (torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in (q, k, v))
    rep = q.shape[2] // k.shape[2]
    kk, vv = tk.repeat_interleave(rep, 2), tv.repeat_interleave(rep, 2)
    scores = tq.transpose(1, 2) @ kk.transpose(1, 2).transpose(-1, -2) / math.sqrt(q.shape[3])
    if causal:
        sq, sk = q.shape[1], k.shape[1]
        visible = torch.arange(sk)[None, :] <= torch.arange(sq)[:, None] + sk - sq
        # A row that sees no key (seqlen_q > seqlen_k): probabilities 0, as flash attention.
        has_key = visible.any(-1, keepdim=True)
        scores = scores.masked_fill(~visible & has_key, float("-inf"))
        probs = torch.softmax(scores, -1) * has_key
    else:
        probs = torch.softmax(scores, -1)
    out = (probs @ vv.transpose(1, 2)).transpose(1, 2)
    (out * torch.tensor(g, dtype=torch.float64)).sum().backward()
    lse = torch.logsumexp(scores, -1)
    if causal:
        lse = lse.masked_fill(~has_key[..., 0], float("-inf"))
    return (out.detach().numpy(), tq.grad.numpy(), tk.grad.numpy(), tv.grad.numpy(),
            lse.detach().numpy())


def _run(q, k, v, g, causal, dtype="float32"):
    pq, pk, pv = (paddle.to_tensor(a).astype(dtype) for a in (q, k, v))
    for t in (pq, pk, pv):
        t.stop_gradient = False
    out, softmax = F.flash_attention(pq, pk, pv, causal=causal)
    assert softmax is None and out.dtype == pq.dtype
    (out.astype("float32") * paddle.to_tensor(g)).sum().backward()
    return [a.astype("float32").numpy() for a in (out, pq.grad, pk.grad, pv.grad)]


CASES = [  # b, sq, sk, h, hk, d, causal
    (1, 1, 1, 1, 1, 8, False),
    (2, 5, 5, 2, 2, 4, True),
    (2, 70, 70, 4, 2, 24, True),      # GQA, 70 = one tile + 6 rows
    (1, 130, 77, 2, 2, 64, False),    # seqlen_q != seqlen_k, both past a tile
    (1, 100, 150, 4, 1, 128, True),   # MQA, causal bottom-right aligned
    (1, 150, 100, 2, 2, 32, True),    # causal with rows that see no key
    (1, 129, 129, 2, 2, 80, True),
]


@pytest.mark.parametrize("b,sq,sk,h,hk,d,causal", CASES)
def test_float32_matches_float64_torch(b, sq, sk, h, hk, d, causal):
    q, k, v, g = _inputs(b, sq, sk, h, hk, d)
    ours = _run(q, k, v, g, causal)
    ref = _torch_attention(q, k, v, g, causal)
    for name, o, r in zip(("out", "q_grad", "k_grad", "v_grad"), ours, ref):
        np.testing.assert_allclose(o, r, rtol=2e-5, atol=2e-5, err_msg=name)


def test_matches_float64_composite():
    """The float64 composite (the Python path for float64) agrees with the fused float32 op."""
    q, k, v, g = _inputs(2, 67, 67, 4, 2, 32, seed=3)
    fused = _run(q, k, v, g, True)
    comp = _run(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64), g, True,
                "float64")
    for o, r in zip(fused, comp):
        np.testing.assert_allclose(o, r, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 3e-2), ("float16", 4e-3)])
def test_16bit_inputs_accumulate_in_float32(dtype, tol):
    q, k, v, g = _inputs(1, 97, 97, 4, 2, 64, seed=5)
    # The reference sees the same rounded inputs, so the error is only the kernel's rounding
    # of its results (one rounding per output element; P and dS stay float32).
    rounded = [paddle.to_tensor(a).astype(dtype).astype("float32").numpy() for a in (q, k, v)]
    ours = _run(*rounded, g, True, dtype)
    ref = _torch_attention(*rounded, g, True)
    for o, r in zip(ours, ref):
        scale = np.abs(r).max()
        assert np.abs(o - r).max() <= tol * scale, (np.abs(o - r).max(), scale)


def test_softmax_lse_and_return_softmax():
    q, k, v, g = _inputs(1, 70, 90, 2, 1, 16, seed=7)
    out, softmax, lse, seed_offset = paddle._C.ops.flash_attn(
        paddle.to_tensor(q), paddle.to_tensor(k), paddle.to_tensor(v), None, 0.0, True, True,
        False, "")
    ref_out, _, _, _, ref_lse = _torch_attention(q, k, v, g, True)
    np.testing.assert_allclose(lse.numpy(), ref_lse, rtol=1e-5, atol=1e-5)
    assert lse.dtype == paddle.float32 and list(seed_offset.shape) == [2]
    sm = softmax.numpy()
    assert sm.shape == (1, 2, 70, 90)
    np.testing.assert_allclose(sm.sum(-1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(np.einsum("bhij,bjd->bihd", sm, v[:, :, 0]), ref_out, rtol=1e-5,
                               atol=1e-5)
    out2, sm2 = F.flash_attention(paddle.to_tensor(q), paddle.to_tensor(k), paddle.to_tensor(v),
                                  causal=True, return_softmax=True)
    np.testing.assert_array_equal(sm2.numpy(), sm)


def test_scaled_dot_product_attention_uses_the_fused_op():
    q, k, v, g = _inputs(2, 33, 33, 2, 2, 16, seed=9)
    t = paddle.to_tensor
    out = F.scaled_dot_product_attention(t(q), t(k), t(v), is_causal=True)
    np.testing.assert_allclose(out.numpy(), _torch_attention(q, k, v, g, True)[0], rtol=2e-5,
                               atol=2e-5)
    assert fa_module._fused(t(q), t(k), t(v), 0.0, True)
    assert not fa_module._fused(t(q), t(k), t(v), 0.1, True)      # training dropout: composite
    assert fa_module._fused(t(q), t(k), t(v), 0.1, False)
    assert not fa_module._fused(t(q.astype(np.float64)), t(k), t(v), 0.0, True)


def test_gradient_check_finite_differences():
    """Central differences of sum(out * g) in float64 (through the composite's float64 path
    agreeing above) against the fused float32 gradients, on a small problem."""
    q, k, v, g = _inputs(1, 9, 11, 2, 1, 8, seed=11)
    grads = _run(q, k, v, g, True)[1:]

    def loss(qq, kk, vv):
        o = _torch_attention(qq, kk, vv, g, True)[0]
        return float((o * g).sum())

    rng = np.random.default_rng(0)
    eps = 1e-4
    for which, grad in enumerate(grads):
        for _ in range(6):
            args = [q.astype(np.float64), k.astype(np.float64), v.astype(np.float64)]
            idx = tuple(rng.integers(0, n) for n in args[which].shape)
            args[which][idx] += eps
            up = loss(*args)
            args[which][idx] -= 2 * eps
            down = loss(*args)
            np.testing.assert_allclose(grad[idx], (up - down) / (2 * eps), rtol=1e-3, atol=1e-4)


def _t(shape, dtype="float32"):
    return paddle.to_tensor(np.zeros(shape, np.float32)).astype(dtype)


@pytest.mark.parametrize("q,k,v,match", [
    (_t([2, 4, 8]), _t([2, 4, 2, 8]), _t([2, 4, 2, 8]),
     r"\(InvalidArgument\) flash_attn.*q.*4-D tensor \[batch, seqlen, num_heads, head_dim\].*\[2, 4, 8\]"),
    (_t([2, 4, 2, 8]), _t([2, 4, 2, 16]), _t([2, 4, 2, 16]),
     r"\(InvalidArgument\) flash_attn.*k.*head_dim 8 \(as q\).*\[2, 4, 2, 16\]"),
    (_t([2, 4, 3, 8]), _t([2, 4, 2, 8]), _t([2, 4, 2, 8]),
     r"\(InvalidArgument\) flash_attn.*k.*num_heads_k dividing q's num_heads 3.*\[2, 4, 2, 8\]"),
    (_t([2, 4, 2, 8]), _t([2, 4, 2, 8], "bfloat16"), _t([2, 4, 2, 8]),
     r"\(InvalidArgument\) flash_attn.*k.*dtype float32 \(as q\).*bfloat16"),
    (_t([2, 4, 2, 8]), _t([2, 4, 2, 8]), _t([2, 5, 2, 8]),
     r"\(InvalidArgument\) flash_attn.*v.*k's shape \[2, 4, 2, 8\].*\[2, 5, 2, 8\]"),
])
def test_bad_inputs(q, k, v, match):
    with pytest.raises(ValueError, match=match):
        F.flash_attention(q, k, v)


def test_training_dropout_is_refused_by_the_op():
    x = _t([1, 4, 1, 8])
    with pytest.raises(NotImplementedError, match=r"flash_attn.*dropout.*0 or is_test"):
        paddle._C.ops.flash_attn(x, x, x, None, 0.5, False, False, False, "")
