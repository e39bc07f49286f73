"""skiff.nn.quant (Paddle's paddle.nn.quant): weight-only and LLM.int8 quantization for
inference.

Skiff's CPU layout (docs/ARCHITECTURE.md "Weight-only and LLM.int8 quantization"):
weight_quantize turns a [in_features, out_features] weight into int8 rows [out_features,
in_features] (int4: two values per byte, [out_features, ceil(in_features / 2)]) and per-channel
scales [out_features] (or one per group of 64/128 input features: [groups, out_features]);
weight_only_linear multiplies with the rows as they are, converting each as it is read;
llm_int8_linear quantizes the activations as well and multiplies in int8. Paddle's `arch`
selects a CUDA tensor-core layout; Skiff has one layout, so `arch` must be None.
"""
from ... import _C, _errors

_ops = _C.ops

__all__ = ["weight_quantize", "weight_dequantize", "weight_only_linear", "llm_int8_linear",
           "apply_per_channel_scale"]

_ALGOS = ("weight_only_int8", "weight_only_int4", "llm.int8")


def _check_arch(fn, arch):
    if arch is not None:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'arch' expected None (Skiff's CPU layout; arch selects a CUDA "
            f"layout), got {arch!r}")


def _check_group_size(fn, group_size):
    if isinstance(group_size, bool) or not isinstance(group_size, int) or \
            group_size not in (-1, 64, 128):
        raise _errors.InvalidArgument(
            f"{fn}: argument 'group_size' expected -1 (per channel), 64 or 128, got {group_size!r}")


def _check_algo(fn, algo):
    if algo not in _ALGOS:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'algo' expected one of 'weight_only_int8', 'weight_only_int4', "
            f"'llm.int8', got {algo!r}")


def _check_tensor(fn, arg, value):
    if not isinstance(value, _C.Tensor):
        raise _errors.InvalidType(
            f"{fn}: argument '{arg}' expected a Tensor, got {type(value).__name__}")


def _check_linear_tensors(fn, x, weight, bias, weight_scale):
    for arg, value in (("x", x), ("weight", weight)):
        _check_tensor(fn, arg, value)
    if weight_scale is None:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'weight_scale' expected the scale Tensor weight_quantize returned, "
            "got None")
    _check_tensor(fn, "weight_scale", weight_scale)
    if bias is not None:
        _check_tensor(fn, "bias", bias)


def weight_quantize(x, algo="weight_only_int8", arch=None, group_size=-1):
    """Quantizes the weight x [in_features, out_features]: returns (out, scale), out int8
    [out_features, in_features] (int4: [out_features, ceil(in_features / 2)]) and scale in x's
    dtype (float32 for 'llm.int8'), [out_features] or [ceil(in_features / group_size),
    out_features]."""
    _check_tensor("weight_quantize", "x", x)
    _check_algo("weight_quantize", algo)
    _check_arch("weight_quantize", arch)
    _check_group_size("weight_quantize", group_size)
    return _ops.weight_quantize(x, algo, group_size)


def weight_dequantize(x, scale, algo="weight_only_int8", out_dtype="float16", group_size=-1):
    """The inverse of weight_quantize: x int8 [out_features, ...] and its scale -> the weight
    [in_features, out_features] in out_dtype."""
    _check_tensor("weight_dequantize", "x", x)
    _check_tensor("weight_dequantize", "scale", scale)
    _check_algo("weight_dequantize", algo)
    _check_group_size("weight_dequantize", group_size)
    out = _ops.weight_dequantize(x, scale, algo, group_size)
    return _ops.cast(out, out_dtype)


def weight_only_linear(x, weight, bias=None, weight_scale=None, weight_dtype="int8", arch=None,
                       group_size=-1):
    """x [..., in_features] @ dequantized(weight)^T + bias, in x's dtype; weight and
    weight_scale as weight_quantize returns them. Differentiable in x and bias."""
    fn = "weight_only_linear"
    _check_linear_tensors(fn, x, weight, bias, weight_scale)
    if weight_dtype not in ("int8", "int4"):
        raise _errors.InvalidArgument(
            f"{fn}: argument 'weight_dtype' expected 'int8' or 'int4', got {weight_dtype!r}")
    _check_arch(fn, arch)
    _check_group_size(fn, group_size)
    return _ops.weight_only_linear(x, weight, bias, weight_scale, weight_dtype, group_size)


def llm_int8_linear(x, weight, bias=None, weight_scale=None, threshold=6.0):
    """LLM.int8: x [..., in_features] @ dequantized(weight)^T + bias in x's dtype, with weight
    and weight_scale from weight_quantize(w, algo='llm.int8'). Columns of x holding a value with
    |value| > threshold are multiplied in floating point; every row's other values are quantized
    to int8 (its own scale) and multiplied in int8 (oneDNN's VNNI/AMX kernels). Not
    differentiable (an inference op, as in Paddle)."""
    fn = "llm_int8_linear"
    _check_linear_tensors(fn, x, weight, bias, weight_scale)
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise _errors.InvalidType(
            f"{fn}: argument 'threshold' expected a float, got {type(threshold).__name__}")
    return _ops.llm_int8_linear(x, weight, bias, weight_scale, float(threshold))


def apply_per_channel_scale(x, scales):
    """x [..., C] * scales [C]: the per-channel pre-quantization scale of activations (SmoothQuant
    style), in x's dtype."""
    _check_tensor("apply_per_channel_scale", "x", x)
    _check_tensor("apply_per_channel_scale", "scales", scales)
    if scales.ndim != 1 or x.ndim < 1 or scales.shape[0] != x.shape[-1]:
        raise _errors.InvalidArgument(
            "apply_per_channel_scale: argument 'scales' expected a 1-D tensor "
            f"[{x.shape[-1] if x.ndim else '?'}] (one per channel of x's last dim), got "
            f"{list(scales.shape)}")
    return _ops.multiply(x, _ops.cast(scales, x.dtype) if scales.dtype != x.dtype else scales)
