"""Paddle's power-average pooling lp_pool1d/lp_pool2d: (sum over the window of x^p)^(1/p).

The window sum is an average pool that counts padding (exclusive=False, a fixed divisor of the
window size) times the window size; p = inf is max pooling. Windows that hang over the edge in
ceil_mode sum only the elements inside, as the fixed divisor is undone exactly."""
from ._common_ops import ops as _ops
from .conv import _pair
from .pooling import avg_pool2d, max_pool2d
from .pooling1d import _one, avg_pool1d, max_pool1d

__all__ = ["lp_pool1d", "lp_pool2d"]


def _check_norm(fn, norm_type):
    if not isinstance(norm_type, (int, float)) or isinstance(norm_type, bool):
        raise TypeError(f"(InvalidArgument) {fn}: argument 'norm_type' expected an int or a "
                        f"float, got {type(norm_type).__name__}")
    if norm_type == 0:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'norm_type' expected a non-zero "
                         f"value, got 0")


def _root(s, norm_type, window):
    return _ops.pow(_ops.scale(s, float(window), 0.0, True), 1.0 / norm_type)


def lp_pool1d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCL", name=None):
    fn = "lp_pool1d"
    _check_norm(fn, norm_type)
    if data_format not in ("NCL", "NLC"):
        raise ValueError(f"(InvalidArgument) {fn}: argument 'data_format' expected 'NCL' or "
                         f"'NLC', got {data_format!r}")
    if len(x.shape) != 3:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'x' expected a 3-D tensor, got "
                         f"shape {list(x.shape)}")
    if data_format == "NLC":
        x = _ops.transpose(x, [0, 2, 1])
    k = _one(kernel_size, fn, "kernel_size")
    if norm_type == float("inf"):
        out = max_pool1d(x, k, stride, padding, False, ceil_mode)
    else:
        s = avg_pool1d(_ops.pow(x, float(norm_type)), k, stride, padding, False, ceil_mode)
        out = _root(s, norm_type, k)
    return _ops.transpose(out, [0, 2, 1]) if data_format == "NLC" else out


def lp_pool2d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCHW", name=None):
    fn = "lp_pool2d"
    _check_norm(fn, norm_type)
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"(InvalidArgument) {fn}: argument 'data_format' expected 'NCHW' or "
                         f"'NHWC', got {data_format!r}")
    if len(x.shape) != 4:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'x' expected a 4-D tensor, got "
                         f"shape {list(x.shape)}")
    k = _pair(kernel_size, fn, "kernel_size")
    if norm_type == float("inf"):
        return max_pool2d(x, k, stride, padding, False, ceil_mode, data_format)
    s = avg_pool2d(_ops.pow(x, float(norm_type)), k, stride, padding, ceil_mode, False, None,
                   data_format)
    return _root(s, norm_type, k[0] * k[1])
