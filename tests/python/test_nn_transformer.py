"""MultiHeadAttention, TransformerEncoder(Layer), TransformerDecoder(Layer), Transformer against
torch.nn with the weights copied (forward and gradients), incremental decoding with Cache and
StaticCache against the full causal pass, masks, Paddle's state_dict names, to_static, errors."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn as nn

RTOL, ATOL = 1e-5, 2e-5


def t(x):
    return torch.tensor(x.numpy(), requires_grad=True)


def copy_mha(mha, tmha):
    """Paddle's q/k/v/out Linear weights ([in, out]) into torch's packed in_proj ([3E, E])."""
    with torch.no_grad():
        tmha.in_proj_weight.copy_(torch.tensor(np.concatenate(
            [mha.q_proj.weight.numpy().T, mha.k_proj.weight.numpy().T,
             mha.v_proj.weight.numpy().T])))
        tmha.in_proj_bias.copy_(torch.tensor(np.concatenate(
            [mha.q_proj.bias.numpy(), mha.k_proj.bias.numpy(), mha.v_proj.bias.numpy()])))
        tmha.out_proj.weight.copy_(torch.tensor(mha.out_proj.weight.numpy().T))
        tmha.out_proj.bias.copy_(torch.tensor(mha.out_proj.bias.numpy()))


def copy_linear(lin, tlin):
    with torch.no_grad():
        tlin.weight.copy_(torch.tensor(lin.weight.numpy().T))
        tlin.bias.copy_(torch.tensor(lin.bias.numpy()))


def copy_norm(norm, tnorm):
    with torch.no_grad():
        tnorm.weight.copy_(torch.tensor(norm.weight.numpy()))
        tnorm.bias.copy_(torch.tensor(norm.bias.numpy()))


def copy_encoder_layer(layer, tlayer):
    copy_mha(layer.self_attn, tlayer.self_attn)
    copy_linear(layer.linear1, tlayer.linear1)
    copy_linear(layer.linear2, tlayer.linear2)
    copy_norm(layer.norm1, tlayer.norm1)
    copy_norm(layer.norm2, tlayer.norm2)


def copy_decoder_layer(layer, tlayer):
    copy_mha(layer.self_attn, tlayer.self_attn)
    copy_mha(layer.cross_attn, tlayer.multihead_attn)
    copy_linear(layer.linear1, tlayer.linear1)
    copy_linear(layer.linear2, tlayer.linear2)
    for i in (1, 2, 3):
        copy_norm(getattr(layer, f"norm{i}"), getattr(tlayer, f"norm{i}"))


def causal(n):
    return np.triu(np.full((n, n), -np.inf, np.float32), 1)


def test_multi_head_attention_matches_torch_with_weights_and_grads():
    paddle.seed(1)
    mha = nn.MultiHeadAttention(8, 2, need_weights=True)
    tmha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    copy_mha(mha, tmha)
    q, k = paddle.randn([2, 5, 8]), paddle.randn([2, 7, 8])
    q.stop_gradient = False
    k.stop_gradient = False
    mask = np.where(np.random.default_rng(0).random((5, 7)) < 0.3, -1e9, 0).astype("float32")
    out, weights = mha(q, k, k, attn_mask=paddle.to_tensor(mask))
    tq, tk = t(q), t(k)
    tout, tweights = tmha(tq, tk, tk, attn_mask=torch.tensor(mask), average_attn_weights=False)
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), RTOL, ATOL)
    np.testing.assert_allclose(weights.numpy(), tweights.detach().numpy(), RTOL, ATOL)
    assert list(weights.shape) == [2, 2, 5, 7]
    w = np.random.default_rng(1).standard_normal(out.shape).astype("float32")
    (out * paddle.to_tensor(w)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(q.grad.numpy(), tq.grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(k.grad.numpy(), tk.grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mha.q_proj.weight.grad.numpy(),
                               tmha.in_proj_weight.grad.numpy()[:8].T, rtol=1e-4, atol=1e-5)


def test_bool_and_int_masks_equal_the_additive_mask():
    paddle.seed(2)
    mha = nn.MultiHeadAttention(8, 4)
    x = paddle.randn([2, 5, 8])
    allowed = np.tril(np.ones((5, 5), bool))
    additive = paddle.to_tensor(np.where(allowed, 0, -1e9).astype("float32"))
    want = mha(x, attn_mask=additive).numpy()
    np.testing.assert_allclose(mha(x, attn_mask=paddle.to_tensor(allowed)).numpy(), want,
                               RTOL, ATOL)
    np.testing.assert_allclose(mha(x, attn_mask=paddle.to_tensor(allowed.astype("int64")))
                               .numpy(), want, RTOL, ATOL)


def test_kdim_vdim_and_static_cache():
    paddle.seed(3)
    mha = nn.MultiHeadAttention(8, 2, kdim=6, vdim=4)
    q, k, v = paddle.randn([2, 3, 8]), paddle.randn([2, 5, 6]), paddle.randn([2, 5, 4])
    want = mha(q, k, v)
    cache = mha.gen_cache(k, v, type=nn.MultiHeadAttention.StaticCache)
    assert list(cache.k.shape) == [2, 2, 5, 4]
    got, same_cache = mha(q, k, v, cache=cache)
    assert same_cache is cache
    np.testing.assert_allclose(got.numpy(), want.numpy(), RTOL, ATOL)


def test_incremental_cache_equals_the_causal_pass():
    paddle.seed(4)
    mha = nn.MultiHeadAttention(8, 2)
    x = paddle.randn([2, 6, 8])
    full = mha(x, attn_mask=paddle.to_tensor(causal(6))).numpy()
    cache = mha.gen_cache(x)
    assert list(cache.k.shape) == [2, 2, 0, 4]
    for i in range(6):
        step, cache = mha(x[:, i:i + 1], cache=cache)
        np.testing.assert_allclose(step.numpy()[:, 0], full[:, i], RTOL, ATOL)
    assert list(cache.v.shape) == [2, 2, 6, 4]


@pytest.mark.parametrize("normalize_before", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_matches_torch(normalize_before, activation):
    paddle.seed(5)
    layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, activation=activation,
                                       normalize_before=normalize_before)
    enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(16))
    tlayer = torch.nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, activation=activation,
                                              batch_first=True, norm_first=normalize_before)
    tenc = torch.nn.TransformerEncoder(tlayer, 2, norm=torch.nn.LayerNorm(16),
                                       enable_nested_tensor=False)
    for mine, theirs in zip(enc.layers, tenc.layers):
        copy_encoder_layer(mine, theirs)
    copy_norm(enc.norm, tenc.norm)
    x = paddle.randn([2, 5, 16])
    x.stop_gradient = False
    mask = causal(5)
    out = enc(x, paddle.to_tensor(mask))
    tx = t(x)
    tout = tenc(tx, mask=torch.tensor(mask))
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), RTOL, ATOL)
    out.sum().backward()
    tout.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(enc.layers[1].linear1.weight.grad.numpy(),
                               tenc.layers[1].linear1.weight.grad.numpy().T, rtol=1e-4,
                               atol=1e-4)


def test_transformer_matches_torch_and_names():
    paddle.seed(6)
    model = nn.Transformer(16, 2, 2, 2, 32, dropout=0.0)
    tmodel = torch.nn.Transformer(16, 2, 2, 2, 32, dropout=0.0, batch_first=True)
    for mine, theirs in zip(model.encoder.layers, tmodel.encoder.layers):
        copy_encoder_layer(mine, theirs)
    for mine, theirs in zip(model.decoder.layers, tmodel.decoder.layers):
        copy_decoder_layer(mine, theirs)
    copy_norm(model.encoder.norm, tmodel.encoder.norm)
    copy_norm(model.decoder.norm, tmodel.decoder.norm)
    src, tgt = paddle.randn([2, 6, 16]), paddle.randn([2, 4, 16])
    tgt_mask = model.generate_square_subsequent_mask(4)
    np.testing.assert_array_equal(tgt_mask.numpy(),
                                  tmodel.generate_square_subsequent_mask(4).numpy())
    out = model(src, tgt, tgt_mask=tgt_mask)
    tout = tmodel(t(src), t(tgt), tgt_mask=torch.tensor(tgt_mask.numpy()))
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), RTOL, ATOL)
    keys = model.state_dict()
    for name in ("encoder.layers.1.self_attn.out_proj.weight", "encoder.norm.weight",
                 "decoder.layers.0.cross_attn.k_proj.bias", "decoder.layers.1.norm3.bias",
                 "decoder.layers.1.linear2.weight", "decoder.norm.bias"):
        assert name in keys
    assert len(keys) == 2 * 16 + 2 * 26 + 4
    # the clones are fresh layers, not shared ones
    assert model.encoder.layers[0].linear1.weight is not model.encoder.layers[1].linear1.weight


def test_decoder_incremental_decoding_equals_the_full_pass():
    paddle.seed(7)
    layer = nn.TransformerDecoderLayer(16, 4, 32, dropout=0.0, normalize_before=True)
    dec = nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(16))
    memory, tgt = paddle.randn([2, 5, 16]), paddle.randn([2, 4, 16])
    full = dec(tgt, memory, tgt_mask=paddle.to_tensor(causal(4))).numpy()
    cache = dec.gen_cache(memory)
    assert isinstance(cache[0][0], nn.MultiHeadAttention.Cache)
    assert isinstance(cache[0][1], nn.MultiHeadAttention.StaticCache)
    for i in range(4):
        step, cache = dec(tgt[:, i:i + 1], memory, cache=cache)
        np.testing.assert_allclose(step.numpy()[:, 0], full[:, i], RTOL, ATOL)
    zipped = dec.gen_cache(memory, do_zip=True)
    assert len(zipped) == 2 and len(zipped[0]) == 2


def test_encoder_cache_and_param_attr_lists():
    layer = nn.TransformerEncoderLayer(8, 2, 16, weight_attr=[None, paddle.ParamAttr(
        initializer=nn.initializer.Constant(0.5))], bias_attr=[False, None])
    assert layer.self_attn.q_proj.bias is None
    assert np.all(layer.linear1.weight.numpy() == 0.5)
    x = paddle.randn([2, 3, 8])
    cache = layer.gen_cache(x)
    out, cache = layer(x, cache=cache)
    assert list(cache.k.shape) == [2, 2, 3, 4]


def test_transformer_under_to_static_matches_eager():
    paddle.seed(8)
    model = nn.Transformer(16, 2, 1, 1, 32, dropout=0.0)
    src, tgt = paddle.randn([2, 6, 16]), paddle.randn([2, 4, 16])
    mask = model.generate_square_subsequent_mask(4)
    want = model(src, tgt, tgt_mask=mask)
    static = paddle.jit.to_static(model)
    got = static(src, tgt, tgt_mask=mask)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)


def test_scaled_dot_product_attention_matches_multi_head_math():
    paddle.seed(9)
    q, k, v = (paddle.randn([2, 5, 2, 4]) for _ in range(3))
    out = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    tq, tk, tv = (torch.tensor(a.numpy()).transpose(1, 2) for a in (q, k, v))
    want = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True) \
        if hasattr(torch.nn.functional, "scaled_dot_product_attention") else \
        torch.softmax(tq @ tk.transpose(-1, -2) / 2 + torch.tensor(causal(5)), -1) @ tv
    np.testing.assert_allclose(out.numpy(), want.transpose(1, 2).numpy(), RTOL, ATOL)


def test_errors():
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) MultiHeadAttention: embed_dim "
                                         r"must be divisible by num_heads"):
        nn.MultiHeadAttention(10, 3)
    with pytest.raises(ValueError, match=r"expected num_heads to be greater than 0"):
        nn.MultiHeadAttention(8, 0)
    mha = nn.MultiHeadAttention(8, 2)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) MultiHeadAttention: query must "
                                         r"be \[batch_size, seq_len, 8\], got shape \[2, 3, 6\]"):
        mha(paddle.randn([2, 3, 6]))
    with pytest.raises(TypeError, match=r"\(InvalidType\) MultiHeadAttention: argument 'cache'"):
        mha(paddle.randn([2, 3, 8]), cache=(1, 2))
    with pytest.raises(ValueError, match=r"activation 'swishy'"):
        nn.TransformerEncoderLayer(8, 2, 16, activation="swishy")
    with pytest.raises(ValueError, match=r"length of weight_attr/bias_attr should be 1, 2 or 3"):
        nn.Transformer(8, 2, 1, 1, 16, weight_attr=[None] * 4)


def test_bfloat16_and_float16_follow_float32():
    paddle.seed(10)
    layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0)
    x = paddle.randn([2, 5, 16])
    want = layer(x).numpy()
    for dtype, tol in (("bfloat16", 5e-2), ("float16", 5e-3)):
        low = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0)
        low.set_state_dict(layer.state_dict())
        low.to(dtype=dtype)
        out = low(x.astype(dtype))
        assert str(out.dtype) == f"paddle.{dtype}"
        # LayerNorm outputs are O(1); 16-bit rounding through two matmul blocks and two norms
        np.testing.assert_allclose(out.astype("float32").numpy(), want, atol=tol)
