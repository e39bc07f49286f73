"""Paddle's nn/functional/extension.py names: diag_embed (paddle.diag_embed), sequence_mask,
temporal_shift."""
from ...tensor.math_functions import diag_embed  # noqa: F401
from ._common_ops import ops as _ops

__all__ = ["diag_embed", "sequence_mask", "temporal_shift"]


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """mask[..., j] = j < x[...], for j in [0, maxlen) (maxlen defaults to max(x))."""
    from ... import Tensor
    if isinstance(maxlen, Tensor):
        maxlen = int(maxlen.item())
    if maxlen is None:
        if getattr(x, "is_symbolic", False):
            raise ValueError("(InvalidArgument) sequence_mask: argument 'maxlen' is needed when "
                             "x's values are not known (a captured program)")
        maxlen = int(_ops.max(x, [], False)) if x.size > 0 else 0
    if maxlen < 0:
        raise ValueError(f"(InvalidArgument) sequence_mask: argument 'maxlen' expected a value "
                         f">= 0, got {maxlen}")
    steps = _ops.arange(0, maxlen, 1, x.dtype)
    mask = _ops.less_than(_ops.reshape(steps, [1] * len(x.shape) + [maxlen]),
                          _ops.unsqueeze(x, [-1]))
    return _ops.cast(mask, dtype)


def temporal_shift(x, seg_num, shift_ratio=0.25, name=None, data_format="NCHW"):
    """TSM's shift of x [N*T, C, H, W] (T = seg_num) along time: channels [0, C*r) take the
    previous frame, [C*r, 2*C*r) the next one (zero past the ends), the rest stay."""
    fn = "temporal_shift"
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"(InvalidArgument) {fn}: argument 'data_format' expected 'NCHW' or "
                         f"'NHWC', got {data_format!r}")
    if len(x.shape) != 4:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'x' expected a 4-D tensor, got "
                         f"shape {list(x.shape)}")
    if not isinstance(seg_num, int) or seg_num <= 0:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'seg_num' expected a positive int, "
                         f"got {seg_num}")
    if not 0 < shift_ratio < 0.5:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'shift_ratio' expected a value in "
                         f"(0, 0.5), got {shift_ratio}")
    nt = x.shape[0]
    if nt % seg_num:
        raise ValueError(f"(InvalidArgument) {fn}: x's dim 0 ({nt}) expected a multiple of "
                         f"seg_num ({seg_num})")
    nhwc = data_format == "NHWC"
    c = x.shape[3] if nhwc else x.shape[1]
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    t = seg_num
    rest = list(x.shape[1:])
    y = _ops.reshape(x, [nt // t, t] + rest)
    ca = 4 if nhwc else 2  # channel axis of y
    rank = 5
    parts = []
    if c1 > 0:
        prev = _ops.slice(_ops.slice(y, [ca], [0], [c1]), [1], [0], [t - 1])
        pads = [0] * (2 * rank)
        pads[2] = 1
        parts.append(_ops.pad(prev, pads))
    if c2 > c1:
        nxt = _ops.slice(_ops.slice(y, [ca], [c1], [c2]), [1], [1], [t])
        pads = [0] * (2 * rank)
        pads[3] = 1
        parts.append(_ops.pad(nxt, pads))
    parts.append(_ops.slice(y, [ca], [c2], [c]))
    return _ops.reshape(_ops.concat(parts, ca), list(x.shape))
