"""Attention (Paddle's scaled_dot_product_attention / flash_attention) in Paddle's [batch,
seq_len, num_heads, head_dim] layout. float32/bfloat16/float16 without an attn_mask and without
training dropout run the fused, tiled `flash_attn` op (O(seq_len) memory, causal tiles skipped,
grouped-query heads read in place); the rest (float64, a mask, dropout in training) is the
composite softmax(q k^T * scale + mask) v, which is also the tests' float64 reference."""
import math

from ._common_ops import ops as _ops

__all__ = ["scaled_dot_product_attention", "flash_attention"]

_causal_masks = {}


def _causal_mask(sq, sk, dtype, place):
    """Additive [sq, sk] mask: -inf where key j is after query i (query i sits at position
    sk - sq + i), cached per shape, dtype and place."""
    key = (sq, sk, str(dtype), str(place))
    mask = _causal_masks.get(key)
    if mask is None:
        mask = _ops.triu(_ops.full([sq, sk], float("-inf"), dtype), sk - sq + 1)
        if mask.place != place:
            mask = mask.to(place)
        if len(_causal_masks) > 64:
            _causal_masks.clear()
        _causal_masks[key] = mask
    return mask


def _attention(query, key, value, attn_mask, dropout_p, is_causal, training, scale=None):
    if len(query.shape) != 4 or len(key.shape) != 4 or len(value.shape) != 4:
        raise ValueError("scaled_dot_product_attention: query, key and value must be 4-D "
                         "[batch, seq_len, num_heads, head_dim], got shapes "
                         f"{list(query.shape)}, {list(key.shape)}, {list(value.shape)}")
    b, sq, h, d = query.shape
    sk, hk = key.shape[1], key.shape[2]
    if key.shape[3] != d or value.shape[1] != sk or value.shape[2] != hk:
        raise ValueError("scaled_dot_product_attention: key/value shapes "
                         f"{list(key.shape)}, {list(value.shape)} do not match query "
                         f"{list(query.shape)}")
    q = _ops.transpose(query, [0, 2, 1, 3])  # [b, h, sq, d]
    k = _ops.transpose(key, [0, 2, 1, 3])
    v = _ops.transpose(value, [0, 2, 1, 3])
    if hk != h:  # grouped-query attention: repeat the key/value heads
        if h % hk != 0:
            raise ValueError(f"scaled_dot_product_attention: query heads {h} must be a multiple "
                             f"of key heads {hk}")
        k = _ops.repeat_interleave(k, h // hk, 1)
        v = _ops.repeat_interleave(v, h // hk, 1)
    s = (1.0 / math.sqrt(d)) if scale is None else scale
    scores = _ops.matmul(_ops.scale(q, s, 0.0, True), k, False, True)  # [b, h, sq, sk]
    if is_causal:
        scores = _ops.add(scores, _causal_mask(sq, sk, scores.dtype, scores.place))
    if attn_mask is not None:
        if attn_mask.dtype == _bool_dtype():
            fill = _ops.full_like(scores, float("-inf"), scores.dtype)
            scores = _ops.where(attn_mask, scores, fill)
        else:
            scores = _ops.add(scores, attn_mask)
    probs = _ops.softmax(scores, -1)
    if dropout_p > 0.0 and training:
        probs = _ops.dropout(probs, float(dropout_p), False, "upscale_in_train", 0)[0]
    out = _ops.matmul(probs, v, False, False)  # [b, h, sq, d]
    return _ops.transpose(out, [0, 2, 1, 3]), probs


_FUSED_DTYPES = ("float32", "bfloat16", "float16")


def _fused(query, key, value, dropout_p, training):
    """Whether the fused op computes this call: query's dtype is one it takes (it checks key's
    and value's), no training dropout."""
    if dropout_p > 0.0 and training:
        return False
    return str(query.dtype).replace("paddle.", "") in _FUSED_DTYPES


def _bool_dtype():
    from ... import bool as _bool
    return _bool


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, training=True, name=None):
    """Returns [batch, seq_len, num_heads, head_dim]. attn_mask: bool (True = attend) or additive
    float, broadcastable to [batch, num_heads, seq_len, seq_len_key]."""
    if attn_mask is None and _fused(query, key, value, dropout_p, training):
        return _ops.flash_attn(query, key, value, None, float(dropout_p), bool(is_causal), False,
                               not training, "")[0]
    return _attention(query, key, value, attn_mask, dropout_p, is_causal, training)[0]


def flash_attention(query, key, value, dropout=0.0, causal=False, return_softmax=False, *,
                    fixed_seed_offset=None, rng_name="", training=True, name=None):
    """Paddle's flash_attention signature; returns (out, softmax or None)."""
    if _fused(query, key, value, dropout, training):
        out, softmax = _ops.flash_attn(query, key, value, fixed_seed_offset, float(dropout),
                                       bool(causal), bool(return_softmax), not training,
                                       rng_name)[:2]
        return out, (softmax if return_softmax else None)
    out, probs = _attention(query, key, value, None, dropout, causal, training)
    return out, (probs if return_softmax else None)
