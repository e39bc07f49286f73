"""Paddle's paddle.incubate.nn.functional.fused_rms_norm over the fused rms_norm op record.

The pre-norm sum x + bias + residual and the norm_bias shift are elementwise ops around the one
fused normalization kernel (they become part of a fused record later, see issue 16)."""
import math

from ....nn.functional._common_ops import ops as _ops

__all__ = ["fused_rms_norm"]


def fused_rms_norm(x, norm_weight, norm_bias, epsilon, begin_norm_axis, bias=None, residual=None,
                   quant_scale=-1, quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """out = rms_norm(x + bias + residual over dims >= begin_norm_axis) * norm_weight + norm_bias.

    Returns (out, residual_out): residual_out is x + bias + residual when residual is given, else
    None (Paddle's optional output)."""
    rank = len(x.shape)
    axis = int(begin_norm_axis)
    if axis < 0:
        axis += rank
    if not 0 <= axis < rank:
        raise ValueError(f"fused_rms_norm: argument 'begin_norm_axis' must be in [{-rank}, {rank}) "
                         f"for x of rank {rank}, got {begin_norm_axis}")
    if quant_scale is not None and quant_scale > 0:
        raise NotImplementedError("fused_rms_norm: argument 'quant_scale' (int8 output "
                                  f"quantization) is not supported, got {quant_scale}")
    norm_shape = list(x.shape[axis:])
    for arg, t in (("norm_weight", norm_weight), ("norm_bias", norm_bias)):
        if t is not None and list(t.shape) not in (norm_shape, [math.prod(norm_shape)]):
            raise ValueError(f"fused_rms_norm: argument '{arg}' must have shape {norm_shape} "
                             f"(the normalized dims of x), got {list(t.shape)}")
    h = x
    if bias is not None:
        h = _ops.add(h, bias)
    if residual is not None:
        h = _ops.add(h, residual)
    w = norm_weight
    if w is not None and list(w.shape) != norm_shape:
        w = _ops.reshape(w, norm_shape)
    out = _ops.rms_norm(h, w, float(epsilon), axis)[0]
    if norm_bias is not None:
        b = norm_bias if list(norm_bias.shape) == norm_shape else _ops.reshape(norm_bias, norm_shape)
        out = _ops.add(out, b)
    return out, (h if residual is not None else None)
