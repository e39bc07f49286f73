"""The argument checks the fused functions share, with Paddle's error classes."""
import math

from .... import _C, _errors


def dtype_name(dtype):
    """Paddle's short dtype name for messages: float32, bfloat16."""
    return str(dtype).rsplit(".", 1)[-1]


def check_tensors(op, **args):
    """InvalidType (a TypeError) naming `op` and the argument unless each value is a Tensor;
    None passes (the optional inputs)."""
    for arg, value in args.items():
        if value is not None and not isinstance(value, _C.Tensor):
            raise _errors.InvalidType(
                f"{op}: argument '{arg}' expected a Tensor, got {type(value).__name__}")


def normalized_dims(op, x, begin_norm_axis, quant_scale, norm_weight, norm_bias):
    """(axis, norm_shape): begin_norm_axis made non-negative and x's dims from it on. Refuses an
    axis outside x's rank, int8 output quantization (quant_scale > 0), and a weight or bias
    whose shape is neither the normalized dims nor their product."""
    rank = len(x.shape)
    axis = int(begin_norm_axis)
    if axis < 0:
        axis += rank
    if not 0 <= axis < rank:
        raise ValueError(f"(InvalidArgument) {op}: argument 'begin_norm_axis' expected a "
                         f"value in [{-rank}, {rank}) for x of rank {rank}, got {begin_norm_axis}")
    if quant_scale is not None and quant_scale > 0:
        raise NotImplementedError(f"(Unimplemented) {op}: argument 'quant_scale' expected "
                                  f"<= 0 (int8 output quantization is not supported), got "
                                  f"{quant_scale}")
    norm_shape = list(x.shape[axis:])
    for arg, t in (("norm_weight", norm_weight), ("norm_bias", norm_bias)):
        if t is not None and list(t.shape) not in (norm_shape, [math.prod(norm_shape)]):
            raise ValueError(f"(InvalidArgument) {op}: argument '{arg}' expected shape "
                             f"{norm_shape} or [{math.prod(norm_shape)}] (the normalized dims "
                             f"of x), got {list(t.shape)}")
    return axis, norm_shape
