"""Paddle's conv3d and conv3d_transpose, as sums over the depth taps of 2-D convolutions.

A 3-D convolution is, for each depth tap i of the kernel, a 2-D convolution of the input's
depth slices i*dilation + t*stride (t over the output depths, folded into the batch) with the
kernel's slice i; the taps' results add up. The transposed convolution is its adjoint: each
tap's conv2d_transpose of every input depth lands at depth t*stride + i*dilation of the full
output, which is then cropped by the depth padding. The 2-D pieces are the oneDNN conv2d and
conv2d_transpose paths, so every pass runs real kernels and the gradients (and double
backward) come from theirs; x is padded in depth explicitly and the H/W padding goes to conv2d.
"""
from ._common_ops import ops as _ops
from .conv import conv2d
from .conv_transpose import _check_format, _check_rank, _ints, _transpose_out_size, \
    conv2d_transpose

__all__ = ["conv3d", "conv3d_transpose"]


def _bad(fn, msg):
    raise ValueError(f"(InvalidArgument) {fn}: {msg}")


def _pads_3d(padding, fn, channel_last):
    """Paddle's 3-D padding forms -> [d0, d1, h0, h1, w0, w1] or 'SAME'/'VALID'."""
    if isinstance(padding, str):
        algo = padding.upper()
        if algo not in ("SAME", "VALID"):
            _bad(fn, f"argument 'padding' expected 'SAME', 'VALID', an int or a list, got "
                 f"{padding!r}")
        return algo
    if isinstance(padding, int):
        return [padding] * 6
    p = list(padding)
    if len(p) == 5 and all(isinstance(e, (list, tuple)) for e in p):
        spatial = p[1:4] if channel_last else p[2:5]
        return [int(v) for pair in spatial for v in pair]
    if len(p) == 3:
        return [int(p[0])] * 2 + [int(p[1])] * 2 + [int(p[2])] * 2
    if len(p) == 6:
        return [int(v) for v in p]
    _bad(fn, f"argument 'padding' expected an int, 3 or 6 ints or 5 pairs, got {padding}")


def _same_pads(sizes, kernel, strides, dilations):
    pads = []
    for n, k, s, d in zip(sizes, kernel, strides, dilations):
        out = (n + s - 1) // s
        total = max((out - 1) * s + d * (k - 1) + 1 - n, 0)
        pads += [total // 2, total - total // 2]
    return pads


def _resolve(padding, fn, channel_last, sizes, kernel, strides, dilations):
    pads = _pads_3d(padding, fn, channel_last)
    if pads == "VALID":
        return [0] * 6
    if pads == "SAME":
        return _same_pads(sizes, kernel, strides, dilations)
    if min(pads) < 0:
        _bad(fn, f"argument 'padding' expected values >= 0, got {pads}")
    return pads


def _check_common(fn, x, weight, data_format):
    _check_format(fn, data_format, ("NCDHW", "NDHWC"))
    _check_rank(fn, x, 5)
    if len(weight.shape) != 5:
        _bad(fn, f"argument 'weight' expected a 5-D tensor, got shape {list(weight.shape)}")


def _to_ncdhw(x, channel_last):
    return _ops.transpose(x, [0, 4, 1, 2, 3]) if channel_last else x


def _from_ncdhw(y, channel_last):
    return _ops.transpose(y, [0, 2, 3, 4, 1]) if channel_last else y


def _bias(out, bias):
    return out if bias is None else _ops.add(out, _ops.reshape(bias, [1, -1, 1, 1, 1]))


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCDHW", name=None):
    """3-D convolution, x [N, C, D, H, W] (NCDHW) or [N, D, H, W, C], weight
    [out_channels, in_channels/groups, kd, kh, kw]."""
    fn = "conv3d"
    _check_common(fn, x, weight, data_format)
    cl = data_format == "NDHWC"
    x = _to_ncdhw(x, cl)
    n, c, d, h, w = x.shape
    o, cg, kd, kh, kw = weight.shape
    if groups <= 0 or c % groups or cg * groups != c or o % groups:
        _bad(fn, f"argument 'weight' expected shape [out, in_channels / groups, kd, kh, kw] "
             f"with in_channels {c} and groups {groups}, got {list(weight.shape)}")
    s = _ints(stride, 3, fn, "stride")
    dl = _ints(dilation, 3, fn, "dilation")
    if min(s + dl) <= 0:
        _bad(fn, f"arguments 'stride' and 'dilation' expected positive values, got {s} and {dl}")
    pads = _resolve(padding, fn, cl, [d, h, w], [kd, kh, kw], s, dl)
    if pads[0] or pads[1]:
        x = _ops.pad(x, [0, 0, 0, 0, pads[0], pads[1], 0, 0, 0, 0])
    dp = d + pads[0] + pads[1]
    d_out = (dp - (dl[0] * (kd - 1) + 1)) // s[0] + 1
    if d_out <= 0:
        _bad(fn, f"the output depth {d_out} is not positive (input depth {d}, kernel {kd})")
    out = None
    for i in range(kd):
        start = i * dl[0]
        xs = _ops.strided_slice(x, [2], [start], [start + (d_out - 1) * s[0] + 1], [s[0]])
        xs = _ops.reshape(_ops.transpose(xs, [0, 2, 1, 3, 4]), [n * d_out, c, h, w])
        wi = _ops.squeeze(_ops.slice(weight, [2], [i], [i + 1]), [2])
        yi = conv2d(xs, wi, None, s[1:], pads[2:], dl[1:], groups)
        out = yi if out is None else _ops.add(out, yi)
    ho, wo = out.shape[2], out.shape[3]
    out = _ops.transpose(_ops.reshape(out, [n, d_out, o, ho, wo]), [0, 2, 1, 3, 4])
    return _from_ncdhw(_bias(out, bias), cl)


def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCDHW", name=None):
    """Transposed 3-D convolution, weight [in_channels, out_channels/groups, kd, kh, kw]."""
    fn = "conv3d_transpose"
    _check_common(fn, x, weight, data_format)
    cl = data_format == "NDHWC"
    x = _to_ncdhw(x, cl)
    n, c, d, h, w = x.shape
    ci, og, kd, kh, kw = weight.shape
    if groups <= 0 or ci != c or c % groups:
        _bad(fn, f"argument 'weight' expected shape[0] equal to the input channels {c} and "
             f"divisible by groups {groups}, got shape {list(weight.shape)}")
    s = _ints(stride, 3, fn, "stride")
    dl = _ints(dilation, 3, fn, "dilation")
    if min(s + dl) <= 0:
        _bad(fn, f"arguments 'stride' and 'dilation' expected positive values, got {s} and {dl}")
    if output_size is not None and output_padding not in (0, [0, 0, 0], (0, 0, 0)):
        _bad(fn, "output_padding option is mutually exclusive with output_size")
    opad = _ints(output_padding, 3, fn, "output_padding")
    pads = _resolve(padding, fn, cl, [d, h, w], [kd, kh, kw], s, dl)
    osize = [None] * 3 if output_size is None else _ints(output_size, 3, fn, "output_size")
    d_out = _transpose_out_size(fn, d, kd, s[0], dl[0], pads[0], pads[1], opad[0], osize[0],
                                "EXPLICIT")
    hw_size = None if output_size is None else osize[1:]
    full = (d - 1) * s[0] + dl[0] * (kd - 1) + 1
    xs = _ops.reshape(_ops.transpose(x, [0, 2, 1, 3, 4]), [n * d, c, h, w])
    out = None
    for i in range(kd):
        wi = _ops.squeeze(_ops.slice(weight, [2], [i], [i + 1]), [2])
        yi = conv2d_transpose(xs, wi, None, s[1:], pads[2:], opad[1:] if hw_size is None else 0,
                              groups, dl[1:], "NCHW", hw_size)
        oc, ho, wo = yi.shape[1:]
        yi = _ops.reshape(yi, [n, d, 1, oc, ho, wo])
        if s[0] > 1:  # input depth t lands at t * stride: interleave stride - 1 zero slices
            yi = _ops.concat([yi, _ops.expand(_ops.zeros([1, 1, 1, 1, 1, 1], yi.dtype),
                                              [n, d, s[0] - 1, oc, ho, wo])], 2)
        yi = _ops.slice(_ops.reshape(yi, [n, d * s[0], oc, ho, wo]), [1], [0],
                        [(d - 1) * s[0] + 1])
        lo = i * dl[0]
        yi = _ops.pad(yi, [0, 0, lo, full - lo - ((d - 1) * s[0] + 1), 0, 0, 0, 0, 0, 0])
        out = yi if out is None else _ops.add(out, yi)
    if pads[0] + d_out > full:  # output_padding beyond the last tap: zeros
        out = _ops.pad(out, [0, 0, 0, pads[0] + d_out - full, 0, 0, 0, 0, 0, 0])
    out = _ops.slice(out, [1], [pads[0]], [pads[0] + d_out])
    out = _ops.transpose(out, [0, 2, 1, 3, 4])
    return _from_ncdhw(_bias(out, bias), cl)
