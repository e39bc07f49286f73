"""Paddle's paddle.incubate.nn.functional.fused_bias_act, its float path: act(x + bias) with act
gelu (erf), relu or silu (silu goes beyond Paddle, whose kernel refuses it), or for swiglu/geglu
silu(h1) * h2 / gelu(h1) * h2 over the two halves h1, h2 of the last axis. Composed from the
activation op records; the int32 dequantizing and int8 quantizing paths (dequant_scales, shift,
smooth, quant_scale > 0) are refused."""
from ....nn.functional._common_ops import ops as _ops
from ._args import check_tensors, dtype_name

__all__ = ["fused_bias_act"]

_NAME = "fused_bias_act"
_ACTS = ("gelu", "relu", "silu", "swiglu", "geglu")


def _gated(h, act):
    n = h.shape[-1] if len(h.shape) else 0
    if len(h.shape) == 0 or n % 2 != 0:
        raise ValueError(f"(InvalidArgument) {_NAME}: argument 'x' expected an even last dim "
                         f"for act_method '{act}', got shape {list(h.shape)}")
    a, b = _ops.split(h, [n // 2, n // 2], -1)
    return _ops.multiply(_ops.silu(a) if act == "swiglu" else _ops.gelu(a, False), b)


def fused_bias_act(x, bias=None, dequant_scales=None, shift=None, smooth=None,
                   act_method="gelu", compute_dtype="default", quant_scale=-1,
                   quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """x [..., n] floating; bias [n] of x's dtype or None."""
    check_tensors(_NAME, x=x, bias=bias)
    for arg, t in (("dequant_scales", dequant_scales), ("shift", shift), ("smooth", smooth)):
        if t is not None:
            raise NotImplementedError(f"(Unimplemented) {_NAME}: argument '{arg}' expected None "
                                      "(the quantized path is not supported), got a tensor")
    if quant_scale is not None and quant_scale > 0:
        raise NotImplementedError(f"(Unimplemented) {_NAME}: argument 'quant_scale' expected "
                                  f"<= 0 (int8 output is not supported), got {quant_scale}")
    if act_method not in _ACTS:
        raise ValueError(f"(InvalidArgument) {_NAME}: argument 'act_method' expected one of "
                         f"{', '.join(_ACTS)}, got {act_method!r}")
    if compute_dtype not in ("default", "fp32", "fp16", "bf16"):
        raise ValueError(f"(InvalidArgument) {_NAME}: argument 'compute_dtype' expected one of "
                         f"default, fp32, fp16, bf16, got {compute_dtype!r}")
    if not x.is_floating_point():
        raise TypeError(f"(InvalidType) {_NAME}: argument 'x' expected a floating-point tensor "
                        f"(int32 input is the quantized path), got "
                        f"{dtype_name(x.dtype)}")
    h = x
    if bias is not None:
        n = x.shape[-1] if len(x.shape) else None
        if list(bias.shape) != [n]:
            raise ValueError(f"(InvalidArgument) {_NAME}: argument 'bias' expected shape [{n}] "
                             f"(the last dim of x), got {list(bias.shape)}")
        if bias.dtype != x.dtype:
            raise TypeError(f"(InvalidType) {_NAME}: argument 'bias' expected dtype "
                            f"{dtype_name(x.dtype)} (x's), got {dtype_name(bias.dtype)}")
        h = _ops.add(h, bias)
    if act_method in ("swiglu", "geglu"):
        return _gated(h, act_method)
    if act_method == "gelu":
        return _ops.gelu(h, False)
    return _ops.relu(h) if act_method == "relu" else _ops.silu(h)
