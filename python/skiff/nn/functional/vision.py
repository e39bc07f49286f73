"""Paddle's interpolate/upsample, pixel_shuffle/pixel_unshuffle, channel_shuffle, unfold/fold.

All are compositions over differentiable ops, so gradients come from their rules:
interpolation is separable, one index_select (nearest) or two and a lerp (linear) per spatial
axis with Paddle's source coordinates (align_corners, align_mode, scale_factor's ratio),
four taps with Keys' cubic weights for bicubic; 'area' is adaptive average pooling. unfold
is a grouped conv2d with a one-hot kernel (output channel c*kh*kw + i*kw + j reads tap (i, j)
of channel c, Paddle's order) and fold is the same kernel's conv2d_transpose, which adds
overlapping blocks as Paddle's fold does.
"""
import numpy as np

from ._common_ops import ops as _ops
from .conv import conv2d
from .conv_transpose import conv2d_transpose

__all__ = ["interpolate", "upsample", "pixel_shuffle", "pixel_unshuffle", "unfold", "fold",
           "channel_shuffle"]

_MODES = {"nearest": (3, 4, 5), "linear": (3,), "bilinear": (4,), "trilinear": (5,),
          "area": (3, 4, 5), "bicubic": (4,)}
_FORMATS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _bad(fn, arg, expected, got, cls=ValueError):
    raise cls(f"(InvalidArgument) {fn}: argument '{arg}' expected {expected}, got {got}")


def _source(i_out, n_in, n_out, scale, mode, align_corners, align_mode):
    """Paddle's interp kernels: source coordinate of each output index along one axis."""
    if align_corners:
        ratio = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        ratio = 1.0 / scale if scale else n_in / n_out
    if mode == "nearest":
        src = np.floor(ratio * i_out + 0.5) if align_corners else np.floor(ratio * i_out)
        return np.minimum(src.astype(np.int64), n_in - 1)
    if mode == "cubic":  # Paddle's bicubic kernel does not clamp the source at 0
        return ratio * i_out if align_corners else ratio * (i_out + 0.5) - 0.5
    if align_corners or align_mode == 1:
        return ratio * i_out
    return np.maximum(ratio * (i_out + 0.5) - 0.5, 0.0)


def _resize_axis(x, axis, n_out, scale, mode, align_corners, align_mode):
    n_in = x.shape[axis]
    src = _source(np.arange(n_out, dtype=np.float64), n_in, n_out, scale, mode, align_corners,
                  align_mode)
    if mode == "nearest":
        return _ops.index_select(x, _idx(src), axis)
    if mode == "cubic":
        return _cubic_axis(x, axis, src, n_in)
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    i1 = np.minimum(i0 + 1, n_in - 1)
    lam = (src - i0).reshape([-1 if d == axis else 1 for d in range(len(x.shape))])
    lam_t = _const(lam, x.dtype)
    a = _ops.index_select(x, _idx(i0), axis)
    b = _ops.index_select(x, _idx(i1), axis)
    return _ops.add(a, _ops.multiply(_ops.subtract(b, a), lam_t))


def _cubic_weights(t, a=-0.75):
    """Keys' cubic convolution weights (A = -0.75, Paddle's and torch's) of the four taps
    floor(src) - 1 .. floor(src) + 2 at fraction t."""
    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)]


def _cubic_axis(x, axis, src, n_in):
    """Bicubic along one axis: four index_selects (indices clamped to the input) weighted."""
    base = np.floor(src).astype(np.int64)
    weights = _cubic_weights(src - base)
    shape = [-1 if d == axis else 1 for d in range(len(x.shape))]
    out = None
    for k in range(4):
        tap = _ops.index_select(x, _idx(np.clip(base - 1 + k, 0, n_in - 1)), axis)
        term = _ops.multiply(tap, _const(weights[k].reshape(shape), x.dtype))
        out = term if out is None else _ops.add(out, term)
    return out


def _idx(a):
    from ...tensor.creation import to_tensor
    return to_tensor(np.ascontiguousarray(a, dtype=np.int64))


def _const(a, dtype):
    from ...tensor.creation import to_tensor
    return _ops.cast(to_tensor(np.ascontiguousarray(a, dtype=np.float64)), dtype)


def _as_list(v, n, fn, arg):
    from ... import Tensor
    if isinstance(v, Tensor):
        v = v.numpy().reshape([-1]).tolist()
    if isinstance(v, (int, float)):
        return [v] * n
    v = [e.item() if isinstance(e, Tensor) else e for e in v]
    if len(v) != n:
        _bad(fn, arg, f"{n} values for a {n + 2}-D input", v)
    return v


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
                align_mode=0, data_format=None, recompute_scale_factor=None, name=None):
    """Resizes the spatial dims of a 3-D, 4-D or 5-D tensor (Paddle's interpolate).
    recompute_scale_factor=True samples with in/out instead of 1/scale_factor."""
    fn = "interpolate"
    mode = mode.lower() if isinstance(mode, str) else mode
    rank = len(x.shape)
    if mode not in _MODES:
        _bad(fn, "mode", f"one of {sorted(_MODES)}", repr(mode))
    if rank not in _MODES[mode]:
        _bad(fn, "x", f"a {' or '.join(f'{r}-D' for r in _MODES[mode])} tensor for mode "
             f"'{mode}'", f"shape {list(x.shape)}")
    if data_format is None:
        data_format = _FORMATS[rank][0]
    if data_format not in _FORMATS[rank]:
        _bad(fn, "data_format", f"one of {list(_FORMATS[rank])} for a {rank}-D input",
             repr(data_format))
    if align_mode not in (0, 1):
        _bad(fn, "align_mode", "0 or 1", align_mode)
    if align_corners and mode in ("nearest", "area"):
        _bad(fn, "align_corners", f"False for mode '{mode}'", align_corners)
    if (size is None) == (scale_factor is None):
        _bad(fn, "size", "exactly one of size and scale_factor to be set",
             f"size={size}, scale_factor={scale_factor}")
    n = rank - 2
    channels_last = data_format[-1] == "C"
    axes = list(range(1, 1 + n)) if channels_last else list(range(2, 2 + n))
    in_sizes = [x.shape[a] for a in axes]
    if size is not None:
        out_sizes = [int(s) for s in _as_list(size, n, fn, "size")]
        scales = [None] * n
    else:
        scales = [float(s) for s in _as_list(scale_factor, n, fn, "scale_factor")]
        if any(s <= 0 for s in scales):
            _bad(fn, "scale_factor", "positive values", scales)
        out_sizes = [int(i * s) for i, s in zip(in_sizes, scales)]
        if recompute_scale_factor:
            scales = [None] * n
    if any(s <= 0 for s in out_sizes):
        _bad(fn, "size", "positive output sizes", out_sizes)
    if mode == "area":
        return _area(x, out_sizes, channels_last)
    kind = {"nearest": "nearest", "bicubic": "cubic"}.get(mode, "linear")
    for axis, n_out, scale in zip(axes, out_sizes, scales):
        x = _resize_axis(x, axis, n_out, scale, kind, align_corners, align_mode)
    return x


def _area(x, out_sizes, channels_last):
    from .pooling import adaptive_avg_pool2d
    rank = len(x.shape)
    if rank != 4:
        _bad("interpolate", "x", "a 4-D tensor for mode 'area'", f"shape {list(x.shape)}")
    return adaptive_avg_pool2d(x, out_sizes, "NHWC" if channels_last else "NCHW")


def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
             data_format=None, name=None):
    """Paddle's upsample: interpolate under its older name."""
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)


def _check_shuffle(fn, x, factor, arg, data_format):
    if len(x.shape) != 4:
        _bad(fn, "x", "a 4-D tensor", f"shape {list(x.shape)}")
    if not isinstance(factor, int) or factor <= 0:
        _bad(fn, arg, "a positive int", factor)
    if data_format not in ("NCHW", "NHWC"):
        _bad(fn, "data_format", "'NCHW' or 'NHWC'", repr(data_format))


def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None):
    """[N, C*r*r, H, W] -> [N, C, H*r, W*r]."""
    fn, r = "pixel_shuffle", upscale_factor
    _check_shuffle(fn, x, r, "upscale_factor", data_format)
    if data_format == "NHWC":
        n, h, w, c = x.shape
    else:
        n, c, h, w = x.shape
    if c % (r * r):
        _bad(fn, "x", f"channels divisible by upscale_factor^2 = {r * r}", c)
    oc = c // (r * r)
    if data_format == "NHWC":
        y = _ops.reshape(x, [n, h, w, oc, r, r])
        return _ops.reshape(_ops.transpose(y, [0, 1, 4, 2, 5, 3]), [n, h * r, w * r, oc])
    y = _ops.reshape(x, [n, oc, r, r, h, w])
    return _ops.reshape(_ops.transpose(y, [0, 1, 4, 2, 5, 3]), [n, oc, h * r, w * r])


def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None):
    """[N, C, H*r, W*r] -> [N, C*r*r, H, W]."""
    fn, r = "pixel_unshuffle", downscale_factor
    _check_shuffle(fn, x, r, "downscale_factor", data_format)
    if data_format == "NHWC":
        n, h, w, c = x.shape
    else:
        n, c, h, w = x.shape
    if h % r or w % r:
        _bad(fn, "x", f"height and width divisible by downscale_factor {r}", [h, w])
    oh, ow = h // r, w // r
    if data_format == "NHWC":
        y = _ops.reshape(x, [n, oh, r, ow, r, c])
        return _ops.reshape(_ops.transpose(y, [0, 1, 3, 5, 2, 4]), [n, oh, ow, c * r * r])
    y = _ops.reshape(x, [n, c, oh, r, ow, r])
    return _ops.reshape(_ops.transpose(y, [0, 1, 3, 5, 2, 4]), [n, c * r * r, oh, ow])


def channel_shuffle(x, groups, data_format="NCHW", name=None):
    """ShuffleNet's channel shuffle: channels viewed as [groups, C / groups], transposed."""
    fn = "channel_shuffle"
    if len(x.shape) != 4:
        _bad(fn, "x", "a 4-D tensor", f"shape {list(x.shape)}")
    if not isinstance(groups, int) or isinstance(groups, bool):
        _bad(fn, "groups", "an int", type(groups).__name__, TypeError)
    if groups <= 0:
        _bad(fn, "groups", "a value > 0", groups)
    if data_format not in ("NCHW", "NHWC"):
        _bad(fn, "data_format", "'NCHW' or 'NHWC'", repr(data_format))
    if data_format == "NHWC":
        n, h, w, c = x.shape
    else:
        n, c, h, w = x.shape
    if c % groups:
        _bad(fn, "groups", f"a divisor of the channel count {c}", groups)
    if data_format == "NHWC":
        y = _ops.reshape(x, [n, h, w, groups, c // groups])
        return _ops.reshape(_ops.transpose(y, [0, 1, 2, 4, 3]), [n, h, w, c])
    y = _ops.reshape(x, [n, groups, c // groups, h, w])
    return _ops.reshape(_ops.transpose(y, [0, 2, 1, 3, 4]), [n, c, h, w])


def _pair_arg(v, fn, arg):
    if isinstance(v, int):
        return [v, v]
    v = [int(e) for e in v]
    if len(v) != 2:
        _bad(fn, arg, "an int or 2 ints", v)
    return v


def _block_pads(p, fn):
    """Paddle's unfold paddings (int, [ph, pw] or [top, left, bottom, right]) -> conv2d's
    [top, bottom, left, right]."""
    if isinstance(p, int):
        return [p, p, p, p]
    p = [int(e) for e in p]
    if len(p) == 2:
        return [p[0], p[0], p[1], p[1]]
    if len(p) == 4:
        return [p[0], p[2], p[1], p[3]]
    _bad(fn, "paddings", "an int, 2 or 4 ints", p)


def _one_hot_kernel(c, kh, kw, dtype):
    eye = np.eye(kh * kw).reshape(kh * kw, 1, kh, kw)
    return _const(np.tile(eye, (c, 1, 1, 1)), dtype)


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """im2col: [N, C, H, W] -> [N, C*kh*kw, L] (Paddle's unfold)."""
    fn = "unfold"
    if len(x.shape) != 4:
        _bad(fn, "x", "a 4-D tensor", f"shape {list(x.shape)}")
    kh, kw = _pair_arg(kernel_sizes, fn, "kernel_sizes")
    s, d = _pair_arg(strides, fn, "strides"), _pair_arg(dilations, fn, "dilations")
    if min(kh, kw, *s, *d) <= 0:
        _bad(fn, "kernel_sizes", "positive kernel sizes, strides and dilations",
             [kh, kw, s, d])
    n, c = x.shape[0], x.shape[1]
    y = conv2d(x, _one_hot_kernel(c, kh, kw, x.dtype), None, s, _block_pads(paddings, fn), d,
               c)
    return _ops.reshape(y, [n, c * kh * kw, -1])


def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """col2im: [N, C*kh*kw, L] -> [N, C, H, W], overlapping values added (Paddle's fold)."""
    fn = "fold"
    if len(x.shape) != 3:
        _bad(fn, "x", "a 3-D tensor", f"shape {list(x.shape)}")
    oh, ow = _pair_arg(output_sizes, fn, "output_sizes")
    kh, kw = _pair_arg(kernel_sizes, fn, "kernel_sizes")
    s, d = _pair_arg(strides, fn, "strides"), _pair_arg(dilations, fn, "dilations")
    pads = _block_pads(paddings, fn)
    n, ckk, length = x.shape
    if ckk % (kh * kw):
        _bad(fn, "x", f"dim 1 divisible by kernel_sizes' product {kh * kw}", ckk)
    bh = (oh + pads[0] + pads[1] - (d[0] * (kh - 1) + 1)) // s[0] + 1
    bw = (ow + pads[2] + pads[3] - (d[1] * (kw - 1) + 1)) // s[1] + 1
    if bh <= 0 or bw <= 0 or bh * bw != length:
        _bad(fn, "x", f"{max(bh, 0) * max(bw, 0)} blocks (dim 2) for output_sizes "
             f"{[oh, ow]}", length)
    c = ckk // (kh * kw)
    cols = _ops.reshape(x, [n, ckk, bh, bw])
    return conv2d_transpose(cols, _one_hot_kernel(c, kh, kw, x.dtype), None, s, pads, 0, c, d,
                            "NCHW", [oh, ow])
