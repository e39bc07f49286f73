"""Paddle's conv1d, conv1d_transpose and conv2d_transpose.

conv1d is conv2d over a unit height. A transposed convolution is the input gradient of a
convolution (its backward-data), so conv2d_transpose runs conv2d_grad with output_mask [1, 0]
(oneDNN's backward-data primitive) in a PyLayer whose backward is conv2d for x and conv2d_grad's
filter gradient for the weight: every pass is one real kernel, and the backward's ops record
history, so double backward works. The convolution input whose gradient is taken only supplies
a shape; it is an expanded zero (the kernel reads no data of it for the input gradient).
"""
from ...autograd.py_layer import PyLayer
from ._common_ops import ops as _ops
from .conv import conv2d, conv_padding

__all__ = ["conv1d", "conv1d_transpose", "conv2d_transpose"]


def _ints(v, n, fn, arg):
    if isinstance(v, int):
        return [v] * n
    v = [int(e) for e in v]
    if len(v) == 1:
        return v * n
    if len(v) != n:
        raise ValueError(f"{fn}: argument '{arg}' expected an int or {n} ints, got {v}")
    return v


def _check_format(fn, data_format, allowed):
    if data_format not in allowed:
        raise ValueError(f"{fn}: argument 'data_format' expected one of {list(allowed)}, got "
                         f"{data_format!r}")


def _check_rank(fn, x, rank):
    if len(x.shape) != rank:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'x' expected a {rank}-D tensor, got "
                         f"shape {list(x.shape)}")


def _pads_1d(padding, fn):
    """Paddle's conv1d padding -> conv2d padding (height 0) or an algorithm name."""
    if isinstance(padding, str):
        return padding
    if isinstance(padding, int):
        return [0, 0, padding, padding]
    p = list(padding)
    if len(p) == 1:
        return [0, 0, int(p[0]), int(p[0])]
    if len(p) == 2 and all(isinstance(e, int) for e in p):
        return [0, 0, int(p[0]), int(p[1])]
    if len(p) == 3 and all(isinstance(e, (list, tuple)) for e in p):
        return [0, 0] + [int(e) for e in (p[1] if p[2] == [0, 0] else p[2])]
    raise ValueError(f"{fn}: argument 'padding' expected an int, 1 or 2 ints, got {padding}")


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCL",
           name=None):
    """1-D convolution, x [N, C, L] (NCL) or [N, L, C] (NLC), weight [out, in/groups, k]."""
    _check_format("conv1d", data_format, ("NCL", "NLC"))
    _check_rank("conv1d", x, 3)
    if len(weight.shape) != 3:
        raise ValueError(f"(InvalidArgument) conv1d: argument 'weight' expected a 3-D tensor, "
                         f"got shape {list(weight.shape)}")
    nlc = data_format == "NLC"
    x4 = _ops.unsqueeze(x, [1 if nlc else 2])
    w4 = _ops.unsqueeze(weight, [2])
    out = conv2d(x4, w4, bias, [1, _ints(stride, 1, "conv1d", "stride")[0]],
                 _pads_1d(padding, "conv1d"), [1, _ints(dilation, 1, "conv1d", "dilation")[0]],
                 groups, "NHWC" if nlc else "NCHW")
    return _ops.squeeze(out, [1 if nlc else 2])


class _ConvTranspose2d(PyLayer):
    @staticmethod
    def forward(ctx, x, weight, out_shape, strides, pads, algo, dilations, groups, fmt):
        ctx.attrs = (strides, pads, algo, dilations, groups, fmt)
        ctx.save_for_backward(x, weight)
        like = _ops.expand(_ops.full([1], 0.0, x.dtype), out_shape)
        return _ops.conv2d_grad(like, weight, x, strides, pads, algo, dilations, groups, fmt,
                                [1, 0])[0]

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensor()
        strides, pads, algo, dilations, groups, fmt = ctx.attrs
        gx = _ops.conv2d(grad, weight, strides, pads, algo, dilations, groups, fmt)
        gw = _ops.conv2d_grad(grad, weight, x, strides, pads, algo, dilations, groups, fmt,
                              [0, 1])[1]
        return gx, gw


def _transpose_out_size(fn, in_size, k, s, d, pad_lo, pad_hi, output_padding, output_size, algo):
    """Paddle's transposed-conv output length; output_size picks one of the `stride` valid
    lengths, output_padding adds to the smallest."""
    if algo == "SAME":
        smallest = in_size * s
    else:
        smallest = (in_size - 1) * s - pad_lo - pad_hi + d * (k - 1) + 1
    if output_size is not None:
        if not smallest <= output_size < smallest + s:
            raise ValueError(f"(InvalidArgument) {fn}: argument 'output_size' expected a value "
                             f"in [{smallest}, {smallest + s}), got {output_size}")
        return output_size
    if not 0 <= output_padding < max(s, d):
        raise ValueError(f"(InvalidArgument) {fn}: argument 'output_padding' expected a value "
                         f"in [0, max(stride, dilation)) = [0, {max(s, d)}), got {output_padding}")
    if smallest + output_padding <= 0:
        raise ValueError(f"(InvalidArgument) {fn}: the output size {smallest + output_padding} "
                         f"is not positive")
    return smallest + output_padding


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, data_format="NCHW", output_size=None, name=None):
    """Transposed 2-D convolution, weight [in_channels, out_channels/groups, kh, kw]."""
    fn = "conv2d_transpose"
    _check_format(fn, data_format, ("NCHW", "NHWC"))
    _check_rank(fn, x, 4)
    if len(weight.shape) != 4:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'weight' expected a 4-D tensor, got "
                         f"shape {list(weight.shape)}")
    nhwc = data_format == "NHWC"
    c_in = x.shape[3 if nhwc else 1]
    if groups <= 0 or weight.shape[0] != c_in or c_in % groups != 0:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'weight' expected shape[0] equal to "
                         f"the input channels {c_in} and divisible by groups {groups}, got "
                         f"shape {list(weight.shape)}")
    strides = _ints(stride, 2, fn, "stride")
    dilations = _ints(dilation, 2, fn, "dilation")
    if output_size is not None and output_padding not in (0, [0, 0], (0, 0)):
        raise ValueError(f"{fn}: output_padding option is mutually exclusive with output_size")
    opad = _ints(output_padding, 2, fn, "output_padding")
    pads, algo = conv_padding(padding, fn, nhwc)
    if len(pads) == 2:
        pads = [pads[0], pads[0], pads[1], pads[1]]
    if algo == "VALID":
        pads, algo = [0, 0, 0, 0], "EXPLICIT"
    osize = [None, None] if output_size is None else _ints(output_size, 2, fn, "output_size")
    spatial = x.shape[1:3] if nhwc else x.shape[2:4]
    out_hw = [_transpose_out_size(fn, spatial[i], weight.shape[2 + i], strides[i], dilations[i],
                                  pads[2 * i], pads[2 * i + 1], opad[i], osize[i], algo)
              for i in range(2)]
    c_out = weight.shape[1] * groups
    shape = [x.shape[0]] + (out_hw + [c_out] if nhwc else [c_out] + out_hw)
    out = _ConvTranspose2d.apply(x, weight, shape, strides, pads, algo, dilations, groups,
                                 data_format)
    if bias is not None:
        out = _ops.add(out, _ops.reshape(bias, [1, 1, 1, -1] if nhwc else [1, -1, 1, 1]))
    return out


def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCL", name=None):
    """Transposed 1-D convolution, weight [in_channels, out_channels/groups, k]."""
    fn = "conv1d_transpose"
    _check_format(fn, data_format, ("NCL", "NLC"))
    _check_rank(fn, x, 3)
    if len(weight.shape) != 3:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'weight' expected a 3-D tensor, got "
                         f"shape {list(weight.shape)}")
    nlc = data_format == "NLC"
    osize = None if output_size is None else [1, _ints(output_size, 1, fn, "output_size")[0]]
    out = conv2d_transpose(_ops.unsqueeze(x, [1 if nlc else 2]), _ops.unsqueeze(weight, [2]),
                           bias, [1, _ints(stride, 1, fn, "stride")[0]], _pads_1d(padding, fn),
                           [0, _ints(output_padding, 1, fn, "output_padding")[0]], groups,
                           [1, _ints(dilation, 1, fn, "dilation")[0]],
                           "NHWC" if nlc else "NCHW", osize)
    return _ops.squeeze(out, [1 if nlc else 2])
