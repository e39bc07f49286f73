"""Normalization functions (Paddle's paddle.nn.functional.norm)."""
import numbers

from ._common_ops import ops as _ops

__all__ = ["layer_norm", "rms_norm", "batch_norm", "instance_norm", "group_norm",
           "local_response_norm"]


def _norm_shape(fn, normalized_shape, x):
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = [int(normalized_shape)]
    normalized_shape = list(normalized_shape)
    rank = len(x.shape)
    k = len(normalized_shape)
    if k == 0 or k > rank or list(x.shape[rank - k:]) != normalized_shape:
        raise ValueError(f"{fn}: argument 'normalized_shape' {normalized_shape} must match the "
                         f"trailing dims of x, got x of shape {list(x.shape)}")
    return rank - k


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    begin = _norm_shape("layer_norm", normalized_shape, x)
    return _ops.layer_norm(x, weight, bias, epsilon, begin)[0]


def rms_norm(x, normalized_shape, weight=None, epsilon=1e-06, name=None):
    """x / sqrt(mean(x^2 over the normalized dims) + epsilon) * weight (one fused kernel)."""
    begin = _norm_shape("rms_norm", normalized_shape, x)
    return _ops.rms_norm(x, weight, epsilon, begin)[0]


def _channel_axis(data_format, rank):
    if data_format in ("NC", "NCL", "NCHW", "NCDHW"):
        return 1
    if data_format in ("NLC", "NHWC", "NDHWC"):
        return rank - 1
    raise ValueError(f"unknown data_format {data_format!r}")


def _stat_shape(x, axis):
    shape = [1] * len(x.shape)
    shape[axis] = x.shape[axis]
    return shape


_BN_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.9, epsilon=1e-05, data_format="NCHW", use_global_stats=None,
               name=None):
    """Paddle's batch_norm, one fused op (`batch_norm`; its rule is the fused
    `batch_norm_grad`). With use_global_stats None, training normalizes with the batch
    statistics and eval with the running ones; True always uses the running ones, False always
    the batch's. When the batch statistics are used, running_mean/running_var are updated in
    place: running = momentum * running + (1 - momentum) * batch (unbiased variance)."""
    if data_format not in _BN_FORMATS:
        raise ValueError(f"batch_norm: argument 'data_format' expected one of "
                         f"{', '.join(_BN_FORMATS)}, got {data_format!r}")
    if use_global_stats is None:
        use_global_stats, trainable_statistics = not training, False
    else:
        trainable_statistics = not use_global_stats
    is_test = not training
    out, mean_out, variance_out, _, _ = _ops.batch_norm(
        x, running_mean, running_var, weight, bias, is_test, momentum, epsilon, data_format,
        use_global_stats, trainable_statistics)
    if not ((is_test and not trainable_statistics) or use_global_stats):
        from .._assign import assign_into
        assign_into(running_mean, mean_out)
        assign_into(running_var, variance_out)
    return out


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW", name=None):
    rank = len(x.shape)
    axis = _channel_axis(data_format, rank)
    spatial = [i for i in range(rank) if i not in (0, axis)]
    mean = _ops.mean(x, spatial, True)
    centered = _ops.subtract(x, mean)
    var = _ops.mean(_ops.square(centered), spatial, True)
    y = _ops.multiply(centered, _ops.rsqrt(_ops.scale(var, 1.0, eps, True)))
    shape = _stat_shape(x, axis)
    if weight is not None:
        y = _ops.multiply(y, _ops.reshape(weight, shape))
    if bias is not None:
        y = _ops.add(y, _ops.reshape(bias, shape))
    return y


def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW",
               name=None):
    rank = len(x.shape)
    if data_format not in ("NCHW", "NCL", "NCDHW", "NC"):
        raise ValueError(f"group_norm: data_format {data_format!r} is not supported (channels "
                         "first only)")
    n, c = x.shape[0], x.shape[1]
    if c % num_groups != 0:
        raise ValueError(f"group_norm: the channel count {c} is not divisible by num_groups "
                         f"{num_groups}")
    g = _ops.reshape(x, [n, num_groups, -1])
    mean = _ops.mean(g, [2], True)
    centered = _ops.subtract(g, mean)
    var = _ops.mean(_ops.square(centered), [2], True)
    y = _ops.reshape(_ops.multiply(centered, _ops.rsqrt(_ops.scale(var, 1.0, epsilon, True))),
                     list(x.shape))
    shape = [1, c] + [1] * (rank - 2)
    if weight is not None:
        y = _ops.multiply(y, _ops.reshape(weight, shape))
    if bias is not None:
        y = _ops.add(y, _ops.reshape(bias, shape))
    return y


def local_response_norm(x, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
    if data_format not in ("NCHW", "NCL", "NCDHW"):
        raise ValueError(f"local_response_norm: data_format {data_format!r} is not supported")
    sq = _ops.square(x)
    c = x.shape[1]
    pads = [0, 0] * len(x.shape)
    pads[2], pads[3] = size // 2, (size - 1) // 2
    padded = _ops.pad(sq, pads, "constant", 0.0)
    acc = None
    for i in range(size):
        part = _ops.slice(padded, [1], [i], [i + c], [])
        acc = part if acc is None else _ops.add(acc, part)
    div = _ops.pow(_ops.scale(acc, alpha / size, k, True), beta)
    return _ops.divide(x, div)


def _no_grad():
    from ... import no_grad
    return no_grad()
