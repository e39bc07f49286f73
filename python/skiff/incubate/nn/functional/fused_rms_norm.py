"""Paddle's paddle.incubate.nn.functional.fused_rms_norm over the fused rms_norm op record.

The pre-norm sum x + bias + residual and the norm_bias shift are elementwise ops around the one
fused normalization kernel (they become part of a fused record later, see issue 16)."""

from ....nn.functional._common_ops import ops as _ops
from ._args import check_tensors, normalized_dims

__all__ = ["fused_rms_norm"]


def fused_rms_norm(x, norm_weight, norm_bias, epsilon, begin_norm_axis, bias=None, residual=None,
                   quant_scale=-1, quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """out = rms_norm(x + bias + residual over dims >= begin_norm_axis) * norm_weight + norm_bias.

    Returns (out, residual_out): residual_out is x + bias + residual when residual is given, else
    None (Paddle's optional output)."""
    check_tensors("fused_rms_norm", x=x, norm_weight=norm_weight, norm_bias=norm_bias, bias=bias,
                  residual=residual)
    axis, norm_shape = normalized_dims("fused_rms_norm", x, begin_norm_axis, quant_scale,
                                       norm_weight, norm_bias)
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
