"""Paddle's paddle.incubate.nn.functional.fused_layer_norm (its fused_bias_residual_layernorm
op) over the fused layer_norm op record, like fused_rms_norm: the pre-norm sum
x + bias + residual_alpha * residual is elementwise ops around the one normalization kernel."""

from ....nn.functional._common_ops import ops as _ops
from ._args import check_tensors, dtype_name, normalized_dims

__all__ = ["fused_layer_norm"]

_NAME = "fused_layer_norm"


def fused_layer_norm(x, norm_weight, norm_bias, epsilon, residual_alpha=1.0, begin_norm_axis=1,
                     bias=None, residual=None, quant_scale=-1, quant_round_type=0,
                     quant_max_bound=0, quant_min_bound=0):
    """out = layer_norm(h over dims >= begin_norm_axis) * norm_weight + norm_bias with
    h = x + bias + residual_alpha * residual; with neither norm_weight nor norm_bias, out = h
    (Paddle's documented shortcut).

    Returns Paddle's dynamic-mode tuple (out, residual_out, mean, variance): residual_out is h
    when residual is given, else None; mean and variance (biased, without epsilon) are
    [prod(x.shape[:begin_norm_axis])], float32 for 16-bit x, and None when out = h."""
    check_tensors(_NAME, x=x, norm_weight=norm_weight, norm_bias=norm_bias, bias=bias,
                  residual=residual)
    axis, norm_shape = normalized_dims(_NAME, x, begin_norm_axis, quant_scale, norm_weight,
                                       norm_bias)
    if not epsilon >= 0:
        raise ValueError(f"(InvalidArgument) {_NAME}: argument 'epsilon' expected >= 0, got "
                         f"{epsilon}")
    shapes = {"bias": (list(x.shape), list(x.shape[-1:])), "residual": (list(x.shape),)}
    for arg, t in (("bias", bias), ("residual", residual)):
        if t is not None and list(t.shape) not in shapes[arg]:
            raise ValueError(f"(InvalidArgument) {_NAME}: argument '{arg}' expected shape "
                             f"{' or '.join(map(str, shapes[arg]))}, got {list(t.shape)}")
        if t is not None and t.dtype != x.dtype:
            raise TypeError(f"(InvalidType) {_NAME}: argument '{arg}' expected dtype "
                            f"{dtype_name(x.dtype)} (x's), got {dtype_name(t.dtype)}")
    h = x
    if bias is not None:
        h = _ops.add(h, bias)
    if residual is not None:
        r = residual if residual_alpha == 1.0 else _ops.scale(residual, float(residual_alpha),
                                                              0.0, True)
        h = _ops.add(h, r)
    res_out = h if residual is not None else None
    if norm_weight is None and norm_bias is None:
        return h, res_out, None, None
    out, mean, variance = _ops.layer_norm(h, norm_weight, norm_bias, float(epsilon), axis)
    return out, res_out, mean, variance
