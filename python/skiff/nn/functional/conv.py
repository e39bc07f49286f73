"""Convolution (Paddle's paddle.nn.functional.conv2d)."""
from ._common_ops import ops as _ops

__all__ = ["conv2d"]


def _pair(v, fn, arg):
    if isinstance(v, int):
        return [v, v]
    v = list(v)
    if len(v) == 1:
        return v * 2
    if len(v) != 2:
        raise ValueError(f"{fn}: argument '{arg}' expected an int or 2 ints, got {v}")
    return v


def conv_padding(padding, fn, nhwc=False):
    """Paddle's padding forms -> (paddings list, padding_algorithm)."""
    if isinstance(padding, str):
        algo = padding.upper()
        if algo not in ("SAME", "VALID"):
            raise ValueError(f"{fn}: argument 'padding' expected 'SAME', 'VALID', an int or a "
                             f"list, got {padding!r}")
        return [0, 0], algo
    if isinstance(padding, int):
        return [padding, padding], "EXPLICIT"
    padding = list(padding)
    if len(padding) == 4 and all(isinstance(p, (list, tuple)) for p in padding):
        # [[0,0],[0,0],[top,bottom],[left,right]] (NCHW) or NHWC order
        spatial = padding[1:3] if nhwc else padding[2:4]
        return [spatial[0][0], spatial[0][1], spatial[1][0], spatial[1][1]], "EXPLICIT"
    if len(padding) in (2, 4):
        return [int(p) for p in padding], "EXPLICIT"
    raise ValueError(f"{fn}: argument 'padding' expected an int, 2 or 4 ints, got {padding}")


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW",
           name=None):
    """2-D convolution, weight [out_channels, in_channels/groups, kh, kw]."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"conv2d: argument 'data_format' expected 'NCHW' or 'NHWC', got "
                         f"{data_format!r}")
    pads, algo = conv_padding(padding, "conv2d", data_format == "NHWC")
    out = _ops.conv2d(x, weight, _pair(stride, "conv2d", "stride"), pads, algo,
                      _pair(dilation, "conv2d", "dilation"), groups, data_format)
    if bias is not None:
        shape = [1, -1, 1, 1] if data_format == "NCHW" else [1, 1, 1, -1]
        out = _ops.add(out, _ops.reshape(bias, shape))
    return out
