"""paddle.vision.ops: building blocks of the vision models and the detection ops.

roi_align, roi_pool, nms and box_coder call the op records of skiff/ops/yaml/vision.yaml
(kernels in skiff/ops/kernels/*/vision.cc); nms with scores or categories is composed here
from the plain nms op, as in Paddle. deform_conv2d is a composition of existing ops (bilinear
gathers with take_along_axis, then a grouped matmul), differentiable through their rules.
"""
import numpy as np

from .. import _C, _errors, nn
from ..nn.layer.layers import Layer

__all__ = ["ConvNormActivation", "roi_align", "RoIAlign", "roi_pool", "RoIPool", "nms",
           "box_coder", "deform_conv2d", "DeformConv2D"]

_ops = _C.ops


class ConvNormActivation(nn.Sequential):
    """Conv2D, then norm_layer (default BatchNorm2D) and activation_layer (default ReLU), as a
    Sequential (`0.weight`, `1._mean`, ...). The conv has a bias only without a norm layer
    (unless `bias` says otherwise); padding defaults to 'same' for odd kernels."""

    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=None,
                 groups=1, norm_layer=nn.BatchNorm2D, activation_layer=nn.ReLU, dilation=1,
                 bias=None):
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [nn.Conv2D(in_channels, out_channels, kernel_size, stride, padding,
                            dilation=dilation, groups=groups,
                            bias_attr=None if bias else False)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)


def _output_size(output_size, fn):
    """Paddle's output_size: an int (square) or a pair (h, w) of positive ints."""
    if isinstance(output_size, bool) or not isinstance(output_size, (int, tuple, list)):
        raise _errors.InvalidType(f"{fn}: argument 'output_size' expected an int or a tuple of "
                                  f"2 ints, got {type(output_size).__name__}")
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    if len(size) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in size):
        raise _errors.InvalidType(f"{fn}: argument 'output_size' expected an int or a tuple of "
                                  f"2 ints, got {output_size!r}")
    if size[0] <= 0 or size[1] <= 0:
        raise _errors.InvalidArgument(f"{fn}: argument 'output_size' expected positive sizes, "
                                      f"got {output_size!r}")
    return size


def roi_align(x, boxes, boxes_num, output_size, spatial_scale=1.0, sampling_ratio=-1,
              aligned=True, name=None):
    """RoIAlign (Mask R-CNN): x [N, C, H, W], boxes [K, 4] as (x1, y1, x2, y2) in input
    coordinates (times spatial_scale on x), boxes_num [N] int32 counts per image (boxes ordered
    by image; None for a single image). Each of the output_size bins of a box is the mean of
    sampling_ratio x sampling_ratio bilinear samples (ceil(box size / output size) when
    sampling_ratio <= 0). aligned shifts the box by -0.5 pixel (Detectron2). -> [K, C, h, w]."""
    h, w = _output_size(output_size, "roi_align")
    return _ops.roi_align(x, boxes, boxes_num, h, w, float(spatial_scale), int(sampling_ratio),
                          bool(aligned))


class RoIAlign(Layer):
    """roi_align as a layer: RoIAlign(output_size, spatial_scale)(x, boxes, boxes_num)."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num, aligned=True):
        return roi_align(x, boxes, boxes_num, self._output_size, self._spatial_scale,
                         aligned=aligned)


def roi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """RoIPool (Fast R-CNN): the maximum of each output bin of the box rounded to the input's
    pixels (widened by one pixel); empty bins are 0. Arguments as roi_align. -> [K, C, h, w]."""
    h, w = _output_size(output_size, "roi_pool")
    out, _ = _ops.roi_pool(x, boxes, boxes_num, h, w, float(spatial_scale))
    return out


class RoIPool(Layer):
    """roi_pool as a layer: RoIPool(output_size, spatial_scale)(x, boxes, boxes_num)."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self):
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


def nms(boxes, iou_threshold=0.3, scores=None, category_idxs=None, categories=None, top_k=None):
    """Non-maximum suppression: the int64 indices of the kept boxes ([K, 4], (x1, y1, x2, y2)).
    A box is dropped when a kept box before it has IoU > iou_threshold with it. Without scores
    the boxes are taken in their order; with scores in descending score order; with
    category_idxs (and the list of categories to keep) per category, the kept boxes of all
    categories then sorted by score. top_k keeps the first top_k indices."""
    from .. import tensor as T

    if scores is None:
        return _ops.nms(boxes, float(iou_threshold))
    if category_idxs is not None and categories is None:
        raise _errors.InvalidArgument(
            "nms: argument 'categories' expected the list of category ids when category_idxs "
            "is given, got None")
    if top_k is not None and top_k > boxes.shape[0]:
        raise _errors.InvalidArgument(
            f"nms: argument 'top_k' expected at most the number of boxes ({boxes.shape[0]}), "
            f"got {top_k}")
    order = T.argsort(scores, descending=True)
    candidates = boxes
    if category_idxs is not None:
        # Per-category suppression in one pass: each category's boxes are moved by its rank in
        # `categories` times the extent of all boxes, so boxes of different categories never
        # overlap; boxes of categories outside the list are dropped.
        cats = T.to_tensor([int(c) for c in categories] or [0], dtype="int64")
        match = T.equal(T.unsqueeze(category_idxs.astype("int64"), [1]),
                        T.unsqueeze(cats, [0]))
        if not categories:
            match = T.logical_and(match, T.zeros_like(match))
        rank = T.argmax(match.astype("int64"), axis=1).astype("float64")
        listed = T.any(match, axis=1)
        order = T.masked_select(order, T.gather(listed, order))
        wide = boxes.astype("float64")
        extent = float(wide.max()) - float(wide.min()) + 1.0 if boxes.shape[0] else 1.0
        candidates = T.add(wide, T.unsqueeze(T.scale(rank, extent), [1]))
    keep = T.gather(order, _ops.nms(T.gather(candidates, order), float(iou_threshold)))
    if top_k is not None:
        keep = keep[:top_k]
    return keep


def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size",
              box_normalized=True, axis=0, name=None):
    """Encodes target boxes against prior boxes (encode_center_size: target_box [N, 4] ->
    [N, M, 4] offsets) or decodes offsets back to boxes (decode_center_size: target_box
    [N, M, 4], prior boxes along axis 0 ([M, 4]) or 1 ([N, 4])). prior_box_var: a Tensor of
    prior_box's shape, a list of 4 variances, or None (1). box_normalized=False counts box
    widths with +1 pixel."""
    variance = []
    var_tensor = None
    if isinstance(prior_box_var, _C.Tensor):
        var_tensor = prior_box_var
    elif isinstance(prior_box_var, (list, tuple)):
        if len(prior_box_var) != 4:
            raise _errors.InvalidArgument(
                f"box_coder: argument 'prior_box_var' expected 4 variances, got "
                f"{len(prior_box_var)}")
        variance = [float(v) for v in prior_box_var]
    elif prior_box_var is not None:
        raise _errors.InvalidType(
            f"box_coder: argument 'prior_box_var' expected a Tensor, a list of 4 floats or "
            f"None, got {type(prior_box_var).__name__}")
    return _ops.box_coder(prior_box, var_tensor, target_box, code_type, bool(box_normalized),
                          int(axis), variance)


def _int_pair(v, fn, arg):
    if isinstance(v, int) and not isinstance(v, bool):
        return (v, v)
    v = tuple(v) if isinstance(v, (list, tuple)) else (v,)
    if len(v) == 1:
        v = v * 2
    if len(v) != 2 or not all(isinstance(e, int) and not isinstance(e, bool) for e in v):
        raise _errors.InvalidArgument(f"{fn}: argument '{arg}' expected an int or 2 ints, "
                                      f"got {v}")
    return v


def _deform_checks(x, offset, weight, bias, mask, stride, padding, dilation, dg, groups):
    """Paddle's deformable_conv shape rules; returns (kh, kw, oh, ow)."""
    fn = "deform_conv2d"
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    if min(sh, sw, dh, dw) <= 0 or min(ph, pw) < 0:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'stride/dilation/padding' expected positive strides and "
            f"dilations and non-negative paddings, got {stride}, {dilation}, {padding}")
    if x.ndim != 4:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'x' expected a 4-D tensor [N, C, H, W], got {x.shape}")
    n, c, h, w = x.shape
    if weight.ndim != 4:
        raise _errors.InvalidArgument(f"{fn}: argument 'weight' expected a 4-D tensor "
                                      f"[M, C / groups, KH, KW], got {weight.shape}")
    oc, cg, kh, kw = weight.shape
    if groups <= 0 or c % groups or oc % groups or cg * groups != c:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'weight' expected dim 1 equal to x's channels / groups "
            f"({c} / {groups}) and dim 0 divisible by groups, got {weight.shape}")
    if dg <= 0 or c % dg:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'deformable_groups' expected a positive divisor of x's channels "
            f"({c}), got {dg}")
    oh = (h + 2 * ph - (dh * (kh - 1) + 1)) // sh + 1
    ow = (w + 2 * pw - (dw * (kw - 1) + 1)) // sw + 1
    if oh <= 0 or ow <= 0:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'x' expected a spatial size giving a positive output, got "
            f"{x.shape} (output {oh}x{ow})")
    want = [n, 2 * dg * kh * kw, oh, ow]
    if list(offset.shape) != want:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'offset' expected shape {want} ([N, 2 * deformable_groups * KH * "
            f"KW, OH, OW]), got {offset.shape}")
    if mask is not None and list(mask.shape) != [n, dg * kh * kw, oh, ow]:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'mask' expected shape {[n, dg * kh * kw, oh, ow]}, got {mask.shape}")
    if bias is not None and list(bias.shape) != [oc]:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'bias' expected shape {[oc]}, got {bias.shape}")
    return kh, kw, oh, ow


def deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1,
                  deformable_groups=1, groups=1, mask=None, name=None):
    """Deformable convolution (v1; v2 with mask): kernel tap k of output (oh, ow) reads x
    bilinearly at (oh * stride - padding + i * dilation + offset_y, ... + offset_x), the
    offsets of its deformable group (offset [N, 2 * dg * KH * KW, OH, OW], (y, x) pairs per tap),
    times mask [N, dg * KH * KW, OH, OW] when given; then a grouped convolution with weight.
    Positions outside (-1, H) x (-1, W) read 0, corners outside the image read 0 (Paddle)."""
    from .. import tensor as T
    from ..nn import functional as F

    stride = _int_pair(stride, "deform_conv2d", "stride")
    padding = _int_pair(padding, "deform_conv2d", "padding")
    dilation = _int_pair(dilation, "deform_conv2d", "dilation")
    dg = int(deformable_groups)
    kh, kw, oh, ow = _deform_checks(x, offset, weight, bias, mask, stride, padding, dilation,
                                    dg, groups)
    n, c, h, w = x.shape
    oc, k, taps = weight.shape[0], kh * kw, kh * kw * oh * ow
    # Positions in float32 (float64 for float64 x): 16-bit floats cannot hold pixel indices.
    pos_dtype = "float64" if x.dtype == _C.dtype.float64 else "float32"
    off = T.reshape(offset.astype(pos_dtype), [n, dg, k, 2, oh, ow])
    ki, kj = np.divmod(np.arange(k), kw)
    base_y = (np.arange(oh)[None] * stride[0] - padding[0] + ki[:, None] * dilation[0])
    base_x = (np.arange(ow)[None] * stride[1] - padding[1] + kj[:, None] * dilation[1])
    ys = off[:, :, :, 0] + T.to_tensor(base_y.reshape(1, 1, k, oh, 1).astype(pos_dtype))
    xs = off[:, :, :, 1] + T.to_tensor(base_x.reshape(1, 1, k, 1, ow).astype(pos_dtype))
    inside = T.logical_and(T.logical_and(ys > -1, xs > -1), T.logical_and(ys < h, xs < w))
    y0, x0 = T.floor(ys), T.floor(xs)
    ly, lx = ys - y0, xs - x0
    scale = inside.astype(pos_dtype)
    if mask is not None:
        scale = scale * T.reshape(mask.astype(pos_dtype), [n, dg, k, oh, ow])
    # x padded by one zero pixel: every corner of a position inside (-1, H) x (-1, W) is a
    # valid index there, and corners outside the image read the padding's 0.
    row, plane = w + 2, (h + 2) * (w + 2)
    xpad = T.reshape(F.pad(x, [1, 1, 1, 1]), [n, dg, c // dg, plane])
    col = None
    for dy, dx, weight_of in ((0, 0, (1 - ly) * (1 - lx)), (0, 1, (1 - ly) * lx),
                              (1, 0, ly * (1 - lx)), (1, 1, ly * lx)):
        idx = T.clip((y0 + (1 + dy)) * row + (x0 + (1 + dx)), 0, plane - 1).astype("int64")
        vals = T.take_along_axis(xpad, T.reshape(idx, [n, dg, 1, taps]), 3)
        term = vals * T.reshape((weight_of * scale).astype(x.dtype), [n, dg, 1, taps])
        col = term if col is None else col + term
    col = T.reshape(col, [n, groups, (c // groups) * k, oh * ow])
    kernel = T.reshape(weight, [groups, oc // groups, (c // groups) * k])
    out = T.reshape(T.matmul(kernel, col), [n, oc, oh, ow])
    if bias is not None:
        out = out + T.reshape(bias, [1, oc, 1, 1])
    return out


class DeformConv2D(Layer):
    """deform_conv2d as a layer (weight [out_channels, in_channels / groups, KH, KW], Paddle's
    Normal(0, sqrt(2 / fan_in)) initialization as Conv2D); forward(x, offset, mask=None)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 deformable_groups=1, groups=1, weight_attr=None, bias_attr=None):
        super().__init__()
        from .. import get_default_dtype
        from ..nn.initializer.initializer import Normal

        kh, kw = _int_pair(kernel_size, "DeformConv2D", "kernel_size")
        self._stride, self._padding, self._dilation = stride, padding, dilation
        self._deformable_groups, self._groups = deformable_groups, groups
        shape = [out_channels, in_channels // groups, kh, kw]
        fan_in = in_channels // groups * kh * kw
        self.weight = self.create_parameter(shape=shape, attr=weight_attr,
                                            dtype=get_default_dtype(),
                                            default_initializer=Normal(0.0, (2.0 / fan_in) ** 0.5))
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels],
                                          dtype=get_default_dtype(), is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding,
                             self._dilation, self._deformable_groups, self._groups, mask)
