"""Pooling (Paddle's paddle.nn.functional pooling)."""
from ._common_ops import ops as _ops
from .conv import _pair, conv_padding

__all__ = ["max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "adaptive_max_pool2d"]


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    k = _pair(kernel_size, "max_pool2d", "kernel_size")
    s = k if stride is None else _pair(stride, "max_pool2d", "stride")
    pads, algo = conv_padding(padding, "max_pool2d", data_format == "NHWC")
    if return_mask:
        return _with_mask("max_pool2d", x, k, s, pads, algo, ceil_mode, data_format)
    return _ops.pool2d(x, k, s, pads, ceil_mode, True, data_format, "max", False, False, algo)


def _with_mask(fn, x, k, s, pads, algo, ceil_mode, data_format):
    from .conv3d import _same_pads
    from .pool_mask import max_pool_with_mask
    if data_format != "NCHW":
        raise ValueError(f"(InvalidArgument) {fn}: return_mask=True expected data_format "
                         f"'NCHW', got {data_format!r}")
    if len(x.shape) != 4:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'x' expected a 4-D tensor, got "
                         f"shape {list(x.shape)}")
    if algo == "SAME":
        pads = _same_pads(x.shape[2:], k, s, [1, 1])
    elif algo == "VALID":
        pads = [0, 0, 0, 0]
    elif len(pads) == 2:
        pads = [pads[0], pads[0], pads[1], pads[1]]
    return max_pool_with_mask(fn, x, k, s, pads, ceil_mode)


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    k = _pair(kernel_size, "avg_pool2d", "kernel_size")
    s = k if stride is None else _pair(stride, "avg_pool2d", "stride")
    pads, algo = conv_padding(padding, "avg_pool2d", data_format == "NHWC")
    out = _ops.pool2d(x, k, s, pads, ceil_mode, exclusive, data_format, "avg", False, False, algo)
    if divisor_override is not None:
        out = _ops.scale(out, float(k[0] * k[1]) / divisor_override, 0.0, True)
    return out


def _adaptive_size(output_size, x, data_format):
    hw = x.shape[2:4] if data_format == "NCHW" else x.shape[1:3]
    if isinstance(output_size, int):
        output_size = [output_size, output_size]
    return [hw[i] if o is None else int(o) for i, o in enumerate(output_size)]


def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    size = _adaptive_size(output_size, x, data_format)
    return _ops.pool2d(x, size, [1, 1], [0, 0], False, True, data_format, "avg", False, True,
                       "EXPLICIT")


def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    size = _adaptive_size(output_size, x, "NCHW")
    if return_mask:
        from .pool_mask import adaptive_max_pool_with_mask
        return adaptive_max_pool_with_mask("adaptive_max_pool2d", x, size)
    return _ops.pool2d(x, size, [1, 1], [0, 0], False, True, "NCHW", "max", False, True,
                       "EXPLICIT")
