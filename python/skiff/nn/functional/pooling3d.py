"""Paddle's 3-D pools (max_pool3d, avg_pool3d, adaptive_avg_pool3d, adaptive_max_pool3d) as two
pool2d passes: H and W first (depth folded into the channels), then depth (H*W flattened).

This is exact because every 3-D window is a product of per-axis intervals: a max over a box
is the max over depth of maxima over H x W, and an average's divisor (the window's valid
element count when exclusive, the kernel volume otherwise, or the adaptive window's size) is
the product of the per-axis divisors that each pass applies. Gradients are pool2d's."""
from ._common_ops import ops as _ops
from .conv3d import _pads_3d, _same_pads
from .conv_transpose import _ints

__all__ = ["max_pool3d", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d"]


def _bad(fn, msg):
    raise ValueError(f"(InvalidArgument) {fn}: {msg}")


def _prepare(fn, x, data_format):
    if data_format not in ("NCDHW", "NDHWC"):
        _bad(fn, f"argument 'data_format' expected 'NCDHW' or 'NDHWC', got {data_format!r}")
    if len(x.shape) != 5:
        _bad(fn, f"argument 'x' expected a 5-D tensor, got shape {list(x.shape)}")
    return _ops.transpose(x, [0, 4, 1, 2, 3]) if data_format == "NDHWC" else x


def _finish(y, data_format):
    return _ops.transpose(y, [0, 2, 3, 4, 1]) if data_format == "NDHWC" else y


def _two_pass(x, k, s, pads, ceil_mode, exclusive, kind, adaptive):
    n, c, d, h, w = x.shape
    y = _ops.pool2d(_ops.reshape(x, [n, c * d, h, w]), k[1:], s[1:], pads[2:], ceil_mode,
                    exclusive, "NCHW", kind, False, adaptive, "EXPLICIT")
    ho, wo = y.shape[2], y.shape[3]
    y = _ops.reshape(y, [n, c, d, ho * wo])
    kd = [k[0], ho * wo] if adaptive else [k[0], 1]
    y = _ops.pool2d(y, kd, [s[0], 1], pads[:2] + [0, 0], ceil_mode, exclusive, "NCHW", kind,
                    False, adaptive, "EXPLICIT")
    return _ops.reshape(y, [n, c, y.shape[2], ho, wo])


def _window(fn, x, kernel_size, stride, padding, data_format):
    k = _ints(kernel_size, 3, fn, "kernel_size")
    s = k if stride is None else _ints(stride, 3, fn, "stride")
    if min(k + s) <= 0:
        _bad(fn, f"arguments 'kernel_size' and 'stride' expected positive values, got {k} and "
             f"{s}")
    pads = _pads_3d(padding, fn, data_format == "NDHWC")
    if pads == "VALID":
        pads = [0] * 6
    elif pads == "SAME":
        pads = _same_pads(x.shape[2:], k, s, [1, 1, 1])
    return k, s, pads


def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCDHW", name=None):
    fn = "max_pool3d"
    x = _prepare(fn, x, data_format)
    k, s, pads = _window(fn, x, kernel_size, stride, padding, data_format)
    if return_mask:
        from .pool_mask import max_pool_with_mask
        if data_format != "NCDHW":
            _bad(fn, "return_mask=True expected data_format 'NCDHW'")
        return max_pool_with_mask(fn, x, k, s, pads, ceil_mode)
    return _finish(_two_pass(x, k, s, pads, ceil_mode, True, "max", False), data_format)


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCDHW", name=None):
    fn = "avg_pool3d"
    x = _prepare(fn, x, data_format)
    k, s, pads = _window(fn, x, kernel_size, stride, padding, data_format)
    y = _two_pass(x, k, s, pads, ceil_mode, exclusive, "avg", False)
    if divisor_override is not None:
        if divisor_override == 0:
            _bad(fn, "argument 'divisor_override' expected a non-zero value, got 0")
        y = _ops.scale(y, float(k[0] * k[1] * k[2]) / divisor_override, 0.0, True)
    return _finish(y, data_format)


def _adaptive_size(fn, x, output_size):
    dhw = x.shape[2:]
    if isinstance(output_size, int):
        output_size = [output_size] * 3
    output_size = list(output_size)
    if len(output_size) != 3:
        _bad(fn, f"argument 'output_size' expected an int or 3 values, got {output_size}")
    size = [dhw[i] if o is None else int(o) for i, o in enumerate(output_size)]
    if min(size) <= 0:
        _bad(fn, f"argument 'output_size' expected positive sizes, got {size}")
    return size


def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    fn = "adaptive_avg_pool3d"
    x = _prepare(fn, x, data_format)
    size = _adaptive_size(fn, x, output_size)
    y = _two_pass(x, size, [1, 1, 1], [0] * 6, False, True, "avg", True)
    return _finish(y, data_format)


def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    fn = "adaptive_max_pool3d"
    x = _prepare(fn, x, "NCDHW")
    size = _adaptive_size(fn, x, output_size)
    if return_mask:
        from .pool_mask import adaptive_max_pool_with_mask
        return adaptive_max_pool_with_mask(fn, x, size)
    return _two_pass(x, size, [1, 1, 1], [0] * 6, False, True, "max", True)
