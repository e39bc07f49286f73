"""Paddle's paddle.incubate.nn.functional.fused_rotary_position_embedding over the fused_rope op
record (skiff/ops/yaml/fused.yaml): one pass per tensor, float32 compute for 16-bit inputs, its
backward the transposed rotation (by -sin).

Paddle's naming is kept: use_neox_rotary_style=True turns adjacent pairs (2i, 2i + 1), False the
halves (i, i + head_dim / 2), i.e. x * cos + rotate_half(x) * sin. Without sin and cos the angles
are position * rotary_emb_base^(-2i / head_dim) for pair i, also with position_ids and in the
rotate-half style, where Paddle refuses both (a superset of its behaviour)."""
from ....nn.functional._common_ops import ops as _ops
from ._args import check_tensors, dtype_name

__all__ = ["fused_rotary_position_embedding"]

_NAME = "fused_rotary_position_embedding"


def _fail(kind, arg, expected, got):
    code = "InvalidArgument" if kind is ValueError else "InvalidType"
    raise kind(f"({code}) {_NAME}: argument '{arg}' expected {expected}, got {got}")


def _rope(arg, x, sin, cos, position_ids, neox, time_major, base):
    # The record's errors name its own op and its input 'x': say which call and tensor.
    try:
        return _ops.fused_rope(x, sin, cos, position_ids, neox, time_major, base, False)
    except (ValueError, TypeError, IndexError) as e:
        msg = str(e).replace("fused_rope: argument 'x'", f"{_NAME}: argument '{arg}'")
        raise type(e)(msg.replace("fused_rope:", f"{_NAME}:")) from None


def fused_rotary_position_embedding(q, k=None, v=None, sin=None, cos=None, position_ids=None,
                                    use_neox_rotary_style=True, time_major=False,
                                    rotary_emb_base=10000.0):
    """Returns (out_q, out_k, out_v), each like its input; None where k or v is None.

    q, k, v: [batch, seq, heads, head_dim] ([seq, batch, heads, head_dim] with time_major), k
    and v may have fewer heads than q (GQA); sin, cos: [seq, head_dim] or [1, seq, 1, head_dim]
    (cast to q's dtype), rows picked by position_ids [batch, seq] when given."""
    check_tensors(_NAME, q=q, k=k, v=v, sin=sin, cos=cos, position_ids=position_ids)
    shape = list(q.shape)
    for arg, t in (("k", k), ("v", v)):
        if t is None or len(shape) != 4:  # a bad q is reported by its own call below
            continue
        ts = list(t.shape)
        if len(ts) != 4 or ts[:2] != shape[:2] or ts[3] != shape[3]:
            _fail(ValueError, arg, f"the batch, seq and head_dim of q {shape}", f"shape {ts}")
        if t.dtype != q.dtype:
            _fail(TypeError, arg, f"dtype {dtype_name(q.dtype)} (q's)", dtype_name(t.dtype))
    tables = []
    for arg, t in (("sin", sin), ("cos", cos)):
        if t is not None and t.dtype != q.dtype and t.is_floating_point() and \
                q.is_floating_point():
            t = _ops.cast(t, q.dtype)
        tables.append(t)
    sin, cos = tables
    base = float(rotary_emb_base)
    neox, tm = bool(use_neox_rotary_style), bool(time_major)
    return tuple(None if t is None else _rope(arg, t, sin, cos, position_ids, neox, tm, base)
                 for arg, t in (("q", q), ("k", k), ("v", v)))
