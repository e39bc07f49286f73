"""Common functions: linear, dropout, pad, normalize, ... (Paddle's paddle.nn.functional)."""
from ._common_ops import ops as _ops

__all__ = ["linear", "dropout", "dropout2d", "dropout3d", "alpha_dropout", "pad", "zeropad2d",
           "cosine_similarity", "normalize", "label_smooth", "bilinear", "feature_alpha_dropout"]


def linear(x, weight, bias=None, name=None):
    """x @ weight + bias, weight of shape [in_features, out_features] (Paddle's layout)."""
    return _ops.linear(x, weight, bias)


def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None):
    """Zeroes elements with probability p. mode 'upscale_in_train' scales kept elements by
    1/(1-p) in training and is the identity in eval; 'downgrade_in_infer' keeps training values
    and scales by (1-p) in eval. `axis`: the axes along which the mask varies (the mask is shared
    along the others)."""
    if not isinstance(p, (float, int)) or isinstance(p, bool):
        raise TypeError(f"dropout: argument 'p' expected a float, got {type(p).__name__}")
    if p < 0 or p > 1:
        raise ValueError(f"dropout: argument 'p' expected a value in [0, 1], got {p}")
    if mode == "downscale_in_infer":  # Paddle 2.x's name for the same mode
        mode = "downgrade_in_infer"
    if mode not in ("upscale_in_train", "downgrade_in_infer"):
        raise ValueError("dropout: argument 'mode' expected 'upscale_in_train' or "
                         f"'downscale_in_infer', got {mode!r}")
    if axis is None:
        if not training:
            if mode == "upscale_in_train" or p == 0:
                return x
            return _ops.scale(x, 1.0 - p, 0.0, True)
        if p == 0:
            return x
        return _ops.dropout(x, float(p), False, mode, 0)[0]
    axes = [axis] if isinstance(axis, int) else list(axis)
    rank = len(x.shape)
    for a in axes:
        if a < -rank or a >= rank:
            raise ValueError(f"dropout: argument 'axis' value {a} is out of range for a tensor "
                             f"of rank {rank}")
    axes = [a % rank for a in axes]
    if not training:
        if mode == "upscale_in_train" or p == 0:
            return x
        return _ops.scale(x, 1.0 - p, 0.0, True)
    mask_shape = [x.shape[i] if i in axes else 1 for i in range(rank)]
    ones = _ops.ones(mask_shape, x.dtype)
    mask = _ops.dropout(ones, float(p), False, mode, 0)[0]
    return _ops.multiply(x, mask)


def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None):
    if len(x.shape) != 4:
        raise ValueError(f"dropout2d: argument 'x' expected a 4-D tensor, got shape {x.shape}")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"dropout2d: argument 'data_format' expected 'NCHW' or 'NHWC', got "
                         f"{data_format!r}")
    return dropout(x, p, axis=[0, 1] if data_format == "NCHW" else [0, 3], training=training)


def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None):
    if len(x.shape) != 5:
        raise ValueError(f"dropout3d: argument 'x' expected a 5-D tensor, got shape {x.shape}")
    return dropout(x, p, axis=[0, 1] if data_format == "NCDHW" else [0, 4], training=training)


def alpha_dropout(x, p=0.5, training=True, name=None):
    if p < 0 or p > 1:
        raise ValueError(f"alpha_dropout: argument 'p' expected a value in [0, 1], got {p}")
    if not training or p == 0:
        return x
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    alpha_p = -alpha * scale
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    keep = _ops.dropout(_ops.ones(x.shape, x.dtype), float(p), False, "downgrade_in_infer", 0)[0]
    dropped = _ops.scale(keep, -alpha_p, alpha_p, True)  # 0 where kept, alpha_p where dropped
    y = _ops.add(_ops.multiply(x, keep), dropped)
    return _ops.scale(y, a, b, True)


def feature_alpha_dropout(x, p=0.5, training=True, name=None):
    """alpha_dropout with one mask value per channel: the mask has x's first two dims (N, C)
    and 1 elsewhere, so whole feature maps are dropped (to SELU's saturation value)."""
    if not isinstance(p, (float, int)) or isinstance(p, bool):
        raise TypeError(f"(InvalidArgument) feature_alpha_dropout: argument 'p' expected a "
                        f"float, got {type(p).__name__}")
    if p < 0 or p > 1:
        raise ValueError(f"(InvalidArgument) feature_alpha_dropout: argument 'p' expected a "
                         f"value in [0, 1], got {p}")
    if not training or p == 0:
        return x
    alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
    if p == 1:  # everything dropped: the affine map's limit is the constant 0
        return _ops.scale(x, 0.0, 0.0, True)
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    shape = list(x.shape[:2]) + [1] * max(len(x.shape) - 2, 0)
    keep = _ops.dropout(_ops.ones(shape, x.dtype), float(p), False, "downgrade_in_infer", 0)[0]
    dropped = _ops.scale(keep, -alpha_p, alpha_p, True)  # 0 where kept, alpha_p where dropped
    return _ops.scale(_ops.add(_ops.multiply(x, keep), dropped), a, b, True)


def pad(x, pad, mode="constant", value=0.0, data_format="NCHW", name=None):
    """Paddle's pad: `pad` has 2*rank values (every axis, first to last) or 2*k values for the
    last k spatial axes of `data_format` ([left, right, top, bottom, front, back])."""
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ValueError("pad: argument 'mode' expected one of 'constant', 'reflect', "
                         f"'replicate', 'circular', got {mode!r}")
    if hasattr(pad, "tolist"):
        pad = pad.tolist()
    pad = [int(v) for v in pad]
    rank = len(x.shape)
    if len(pad) != 2 * rank and data_format.endswith("C") and len(data_format) == rank:
        # channels-last: the spatial axes are 1..rank-2; place the pairs on them
        full = [0] * (2 * rank)
        for k in range(len(pad) // 2):
            axis = rank - 2 - k
            full[2 * axis], full[2 * axis + 1] = pad[2 * k], pad[2 * k + 1]
        pad = full
    return _ops.pad(x, pad, mode, float(value))


def zeropad2d(x, padding, data_format="NCHW", name=None):
    if isinstance(padding, int):
        padding = [padding] * 4
    return pad(x, padding, "constant", 0.0, data_format)


def normalize(x, p=2, axis=1, epsilon=1e-12, name=None):
    """x / max(||x||_p along axis, epsilon)."""
    norm = _ops.p_norm(x, float(p), axis, 0.0, True, False)
    norm = _ops.maximum(norm, _ops.full_like(norm, epsilon, norm.dtype))
    return _ops.divide(x, norm)


def cosine_similarity(x1, x2, axis=1, eps=1e-8):
    dot = _ops.sum(_ops.multiply(x1, x2), [axis], None, False)
    n1 = _ops.p_norm(x1, 2.0, axis, 0.0, False, False)
    n2 = _ops.p_norm(x2, 2.0, axis, 0.0, False, False)
    denom = _ops.maximum(_ops.multiply(n1, n2), _ops.full_like(n1, eps, n1.dtype))
    return _ops.divide(dot, denom)


def label_smooth(label, prior_dist=None, epsilon=0.1, name=None):
    if epsilon > 1.0 or epsilon < 0.0:
        raise ValueError(f"label_smooth: argument 'epsilon' expected a value in [0, 1], got "
                         f"{epsilon}")
    num_classes = label.shape[-1]
    smoothed = _ops.scale(label, 1.0 - epsilon, 0.0, True)
    if prior_dist is None:
        return _ops.scale(smoothed, 1.0, epsilon / num_classes, True)
    return _ops.add(smoothed, _ops.scale(prior_dist, epsilon, 0.0, True))


def bilinear(x1, x2, weight, bias=None, name=None):
    """out[n, o] = x1[n] @ weight[o] @ x2[n] + bias[o]; weight [out, in1, in2]."""
    # [N, in1] x [out, in1, in2] -> [out, N, in2]
    t = _ops.matmul(_ops.unsqueeze(x1, [0]), weight, False, False)
    out = _ops.sum(_ops.multiply(t, _ops.unsqueeze(x2, [0])), [2], None, False)  # [out, N]
    out = _ops.transpose(out, [1, 0])
    if bias is not None:
        out = _ops.add(out, bias)
    return out
