"""paddle.incubate.nn.functional.fused_rotary_position_embedding: forward against numpy in both
pairing styles (sin/cos tables of both shapes, position_ids, time_major, computed angles, GQA,
a 4k sequence), gradients against torch autograd of the unfused composition, bf16/fp16,
to_static capture, and every bad input with its message."""
import numpy as np
import pytest

import skiff as paddle
import skiff.incubate.nn.functional as IF

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


def _rot(x, neox):
    """The partner of each element with its sign: adjacent pairs (neox) or halves."""
    if neox:
        r = np.empty_like(x)
        r[..., 0::2], r[..., 1::2] = -x[..., 1::2], x[..., 0::2]
        return r
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], -1)


def _angles(seq, dim, neox, base=10000.0):
    pair = np.arange(dim) // 2 if neox else np.arange(dim) % (dim // 2)
    return np.arange(seq)[:, None] * base ** (-2.0 * pair / dim)  # [seq, dim], float64


def _ref(x, sin, cos, pos=None, neox=True, time_major=False):
    """x [b, s, h, d] (or [s, b, h, d]); sin/cos [seq', d]; pos [b, s] picks their rows."""
    if time_major:
        x = x.transpose(1, 0, 2, 3)
    b, s = x.shape[:2]
    if pos is None:
        pos = np.broadcast_to(np.arange(s), (b, s))
    sn, cs = sin[pos][:, :, None, :], cos[pos][:, :, None, :]
    out = x * cs + _rot(x, neox) * sn
    return out.transpose(1, 0, 2, 3) if time_major else out


def _tables(seq, dim, neox):
    t = _angles(seq, dim, neox)
    return np.sin(t).astype(np.float32), np.cos(t).astype(np.float32)


def _t(a, grad=False):
    return paddle.to_tensor(a, stop_gradient=not grad)


@pytest.mark.parametrize("neox", [True, False])
@pytest.mark.parametrize("shape", [(1, 1, 1, 2), (2, 63, 3, 8), (1, 257, 2, 64), (3, 5, 1, 6)])
@pytest.mark.parametrize("four_d", [False, True])
def test_forward_matches_numpy(neox, shape, four_d):
    q, k, v = (RNG.standard_normal(shape).astype(np.float32) for _ in range(3))
    sin, cos = _tables(shape[1], shape[3], neox)
    ps, pc = (_t(a.reshape(1, shape[1], 1, shape[3]) if four_d else a) for a in (sin, cos))
    oq, ok, ov = IF.fused_rotary_position_embedding(_t(q), _t(k), _t(v), sin=ps, cos=pc,
                                                    use_neox_rotary_style=neox)
    for out, x in ((oq, q), (ok, k), (ov, v)):
        assert out.shape == list(shape) and out.dtype == paddle.float32
        np.testing.assert_allclose(out.numpy(), _ref(x, sin, cos, neox=neox), rtol=1e-5,
                                   atol=1e-5)


def test_none_passthrough_and_gqa():
    q = RNG.standard_normal((2, 7, 4, 8)).astype(np.float32)
    k = RNG.standard_normal((2, 7, 2, 8)).astype(np.float32)  # fewer KV heads
    sin, cos = _tables(7, 8, True)
    out = IF.fused_rotary_position_embedding(_t(q), sin=_t(sin), cos=_t(cos))
    assert isinstance(out, tuple) and len(out) == 3 and out[1] is None and out[2] is None
    np.testing.assert_allclose(out[0].numpy(), _ref(q, sin, cos), rtol=1e-5, atol=1e-5)
    oq, ok, ov = IF.fused_rotary_position_embedding(_t(q), None, _t(k), _t(sin), _t(cos))
    assert ok is None
    np.testing.assert_allclose(ov.numpy(), _ref(k, sin, cos), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("neox", [True, False])
def test_position_ids_pick_table_rows(neox):
    q = RNG.standard_normal((3, 11, 2, 16)).astype(np.float32)
    sin, cos = _tables(300, 16, neox)
    pos = RNG.integers(0, 300, (3, 11)).astype(np.int64)
    oq, _, _ = IF.fused_rotary_position_embedding(_t(q), sin=_t(sin), cos=_t(cos),
                                                  position_ids=_t(pos),
                                                  use_neox_rotary_style=neox)
    np.testing.assert_allclose(oq.numpy(), _ref(q, sin, cos, pos, neox), rtol=1e-5, atol=1e-5)
    p32 = _t(pos.astype(np.int32))
    o32, _, _ = IF.fused_rotary_position_embedding(_t(q), sin=_t(sin), cos=_t(cos),
                                                   position_ids=p32, use_neox_rotary_style=neox)
    np.testing.assert_array_equal(o32.numpy(), oq.numpy())


def test_time_major():
    q = RNG.standard_normal((9, 2, 3, 8)).astype(np.float32)  # [seq, batch, heads, dim]
    sin, cos = _tables(9, 8, False)
    oq, _, _ = IF.fused_rotary_position_embedding(_t(q), sin=_t(sin), cos=_t(cos),
                                                  use_neox_rotary_style=False, time_major=True)
    np.testing.assert_allclose(oq.numpy(), _ref(q, sin, cos, neox=False, time_major=True),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("neox", [True, False])
def test_computed_angles_at_a_4k_sequence(neox):
    # Without sin/cos the angles come from rotary_emb_base (Paddle's formula); at 4096 positions
    # they reach 4095 rad, so the kernel's angles must be exact to keep the phase.
    q = RNG.standard_normal((1, 4096, 2, 64)).astype(np.float32)
    t = _angles(4096, 64, neox, 500.0)
    oq, _, _ = IF.fused_rotary_position_embedding(_t(q), use_neox_rotary_style=neox,
                                                  rotary_emb_base=500.0)
    np.testing.assert_allclose(oq.numpy(), _ref(q.astype(np.float64), np.sin(t), np.cos(t),
                                                 neox=neox), rtol=1e-5, atol=1e-5)
    pos = RNG.integers(0, 8192, (1, 4096)).astype(np.int64)
    t = _angles(8192, 64, neox, 500.0)
    oq, _, _ = IF.fused_rotary_position_embedding(_t(q), position_ids=_t(pos),
                                                  use_neox_rotary_style=neox,
                                                  rotary_emb_base=500.0)
    np.testing.assert_allclose(oq.numpy(), _ref(q.astype(np.float64), np.sin(t), np.cos(t), pos,
                                                 neox), rtol=1e-5, atol=1e-5)


def _torch_rot(x, neox):
    if neox:
        return torch.stack([-x[..., 1::2], x[..., 0::2]], -1).flatten(-2)
    h = x.shape[-1] // 2
    return torch.cat([-x[..., h:], x[..., :h]], -1)


@pytest.mark.parametrize("neox", [True, False])
@pytest.mark.parametrize("general", [False, True])
def test_gradients_match_torch_autograd(neox, general):
    """Against torch autograd of x * cos + rotate(x) * sin. general: random tables (sin of the
    two elements of a pair differ), where the backward must be the exact transpose."""
    q = RNG.standard_normal((2, 63, 3, 8)).astype(np.float32)
    k = RNG.standard_normal((2, 63, 1, 8)).astype(np.float32)
    if general:
        sin, cos = (RNG.standard_normal((70, 8)).astype(np.float32) for _ in range(2))
    else:
        sin, cos = _tables(70, 8, neox)
    pos = RNG.integers(0, 70, (2, 63)).astype(np.int64)
    gq, gk = RNG.standard_normal(q.shape), RNG.standard_normal(k.shape)
    pq, pk = _t(q, True), _t(k, True)
    oq, ok, _ = IF.fused_rotary_position_embedding(pq, pk, sin=_t(sin), cos=_t(cos),
                                                   position_ids=_t(pos),
                                                   use_neox_rotary_style=neox)
    ((oq * _t(gq.astype(np.float32))).sum() + (ok * _t(gk.astype(np.float32))).sum()).backward()
    tq, tk = (torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in (q, k))
    ts, tc = (torch.tensor(a, dtype=torch.float64)[torch.tensor(pos)][:, :, None]
              for a in (sin, cos))
    loss = sum(((x * tc + _torch_rot(x, neox) * ts) * torch.tensor(g)).sum()
               for x, g in ((tq, gq), (tk, gk)))
    loss.backward()
    np.testing.assert_allclose(pq.grad.numpy(), tq.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(pk.grad.numpy(), tk.grad.numpy(), rtol=1e-5, atol=1e-5)


def test_second_derivative_is_the_forward_again():
    q = RNG.standard_normal((1, 5, 2, 4)).astype(np.float32)
    w = RNG.standard_normal(q.shape).astype(np.float32)
    pq = _t(q, True)
    oq, _, _ = IF.fused_rotary_position_embedding(pq)
    (g,) = paddle.grad([(oq * oq * _t(w)).sum()], [pq], create_graph=True)
    (gg,) = paddle.grad([g.sum()], [pq])
    tq = torch.tensor(q, dtype=torch.float64, requires_grad=True)
    t = _angles(5, 4, True)
    to = tq * torch.tensor(np.cos(t))[None, :, None] + _torch_rot(tq, True) * torch.tensor(
        np.sin(t))[None, :, None]
    (tg,) = torch.autograd.grad((to * to * torch.tensor(w)).sum(), tq, create_graph=True)
    (tgg,) = torch.autograd.grad(tg.sum(), tq)
    np.testing.assert_allclose(gg.numpy(), tgg.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 1e-2), ("float16", 2e-3)])
@pytest.mark.parametrize("neox", [True, False])
def test_16bit_inputs_compute_in_float32(dtype, tol, neox):
    q = RNG.standard_normal((2, 33, 2, 64)).astype(np.float32)
    sin, cos = _tables(33, 64, neox)
    xq, xs, xc = (_t(a).astype(dtype) for a in (q, sin, cos))
    oq, _, _ = IF.fused_rotary_position_embedding(xq, sin=xs, cos=xc, use_neox_rotary_style=neox)
    assert oq.dtype == getattr(paddle, dtype)
    r = [a.astype("float32").numpy().astype(np.float64) for a in (xq, xs, xc)]
    # One rounding of the output to 16 bits (2^-8 relative for bf16, 2^-11 for fp16); values
    # are at most |x_a| + |x_b| (about 6 here).
    np.testing.assert_allclose(oq.astype("float32").numpy(), _ref(r[0], r[1], r[2], neox=neox),
                               rtol=tol, atol=tol * 4)
    # float32 tables are cast to q's dtype.
    o32, _, _ = IF.fused_rotary_position_embedding(xq, sin=_t(sin), cos=_t(cos),
                                                   use_neox_rotary_style=neox)
    assert o32.dtype == getattr(paddle, dtype)
    np.testing.assert_array_equal(o32.astype("float32").numpy(), oq.astype("float32").numpy())
    xq.stop_gradient = False
    oq, _, _ = IF.fused_rotary_position_embedding(xq, sin=xs, cos=xc, use_neox_rotary_style=neox)
    oq.sum().backward()
    assert xq.grad.dtype == getattr(paddle, dtype)


def test_to_static_captures_the_fused_op_and_its_gradient():
    q = RNG.standard_normal((2, 9, 2, 8)).astype(np.float32)
    sin, cos = _tables(9, 8, False)
    w = RNG.standard_normal(q.shape).astype(np.float32)

    def f(x, s, c):
        o, _, _ = IF.fused_rotary_position_embedding(x, sin=s, cos=c,
                                                     use_neox_rotary_style=False)
        return (o * _t(w)).sum()

    sf = paddle.jit.to_static(f)
    pq = _t(q, True)
    loss = sf(pq, _t(sin), _t(cos))
    assert "op.fused_rope" in str(sf.concrete_program.main_program)
    loss.backward()
    eq = _t(q, True)
    el = f(eq, _t(sin), _t(cos))
    el.backward()
    np.testing.assert_allclose(loss.numpy(), el.numpy(), rtol=1e-5)
    np.testing.assert_allclose(pq.grad.numpy(), eq.grad.numpy(), rtol=1e-5, atol=1e-6)


IA = "\\(InvalidArgument\\) fused_rotary_position_embedding: argument"
IT = "\\(InvalidType\\) fused_rotary_position_embedding: argument"


def test_bad_inputs_name_the_argument():
    fn = IF.fused_rotary_position_embedding
    q = paddle.ones([2, 4, 2, 8])
    s8 = paddle.ones([4, 8])
    with pytest.raises(ValueError, match=f"{IA} 'q' expected a 4-D tensor.*shape \\[2, 4, 8\\]"):
        fn(paddle.ones([2, 4, 8]))
    with pytest.raises(ValueError, match=f"{IA} 'q' expected an even head_dim.*got 7"):
        fn(paddle.ones([2, 4, 2, 7]))
    with pytest.raises(TypeError, match=f"{IT} 'q' expected a floating-point tensor, got int32"):
        fn(paddle.ones([2, 4, 2, 8], dtype="int32"))
    with pytest.raises(ValueError, match=f"{IA} 'k' expected the batch, seq and head_dim of q"):
        fn(q, paddle.ones([2, 4, 2, 6]))
    with pytest.raises(ValueError, match=f"{IA} 'v' expected the batch, seq and head_dim of q"):
        fn(q, None, paddle.ones([2, 8]))
    with pytest.raises(TypeError, match=f"{IT} 'k' expected dtype float32"):
        fn(q, paddle.ones([2, 4, 2, 8], dtype="float64"))
    with pytest.raises(ValueError, match=f"{IA} 'sin' expected shape \\[seq, 8\\]"):
        fn(q, sin=paddle.ones([4, 6]), cos=paddle.ones([4, 6]))  # head_dim of sin != q's
    with pytest.raises(ValueError, match=f"{IA} 'sin' expected shape"):
        fn(q, sin=paddle.ones([8]), cos=paddle.ones([8]))
    with pytest.raises(ValueError, match=f"{IA} 'cos' expected given together"):
        fn(q, sin=s8)
    with pytest.raises(ValueError, match=f"{IA} 'sin' expected given together"):
        fn(q, cos=s8)
    with pytest.raises(ValueError, match=f"{IA} 'cos' expected the sequence length of sin"):
        fn(q, sin=paddle.ones([9, 8]), cos=paddle.ones([5, 8]), position_ids=paddle.zeros(
            [2, 4], dtype="int64"))
    with pytest.raises(ValueError, match=f"{IA} 'sin' expected sequence length 4"):
        fn(q, sin=paddle.ones([5, 8]), cos=paddle.ones([5, 8]))
    with pytest.raises(TypeError, match=f"{IT} 'sin' expected dtype float32"):
        fn(q, sin=paddle.ones([4, 8], dtype="int64"), cos=s8)
    with pytest.raises(ValueError, match=f"{IA} 'position_ids' expected shape \\[2, 4\\]"):
        fn(q, sin=s8, cos=s8, position_ids=paddle.zeros([4], dtype="int64"))
    with pytest.raises(TypeError, match=f"{IT} 'position_ids' expected an int64 or int32"):
        fn(q, sin=s8, cos=s8, position_ids=paddle.zeros([2, 4]))
    with pytest.raises(IndexError, match="fused_rotary_position_embedding: argument "
                                         "'position_ids' expected values in \\[0, 4\\), got 4"):
        fn(q, sin=s8, cos=s8, position_ids=paddle.full([2, 4], 4, dtype="int64"))
    with pytest.raises(IndexError, match="argument 'position_ids' expected values in"):
        fn(q, position_ids=paddle.full([2, 4], -1, dtype="int64"))
    with pytest.raises(ValueError, match=f"{IA} 'rotary_emb_base' expected > 0"):
        fn(q, rotary_emb_base=0.0)


def test_zero_size_inputs():
    oq, ok, _ = IF.fused_rotary_position_embedding(paddle.ones([0, 3, 2, 4]),
                                                   paddle.ones([0, 3, 1, 4]))
    assert oq.shape == [0, 3, 2, 4] and ok.shape == [0, 3, 1, 4]
