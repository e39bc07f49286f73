"""paddle.static.nn: layer functions that make their parameters (initialized by the startup
program) and apply them: fc, conv2d, batch_norm, embedding."""
import numpy as np

__all__ = ["fc", "conv2d", "batch_norm", "embedding"]


def fc(x, size, num_flatten_dims=1, weight_attr=None, bias_attr=None, activation=None,
       name=None):
    """y = act(flatten(x, num_flatten_dims) @ W + b): W [prod(x.shape[num_flatten_dims:]), size]
    (Xavier uniform), b [size] (zeros); parameters are initialized by the startup program."""
    from ...nn.parameter import make_parameter
    from ...nn.functional._common_ops import ops
    if num_flatten_dims < 1 or num_flatten_dims >= len(x.shape) + 1:
        raise ValueError(f"static.nn.fc: argument 'num_flatten_dims' expected 1..{len(x.shape)}, "
                         f"got {num_flatten_dims}")
    in_features = int(np.prod(x.shape[num_flatten_dims:]))
    if in_features <= 0:
        raise ValueError(f"static.nn.fc: argument 'x' expected known sizes after "
                         f"num_flatten_dims, got shape {list(x.shape)}")
    from ...nn import unique_name
    prefix = name or unique_name.generate("fc")  # fc_0.w_0, as Paddle names them
    w = make_parameter([in_features, size], weight_attr, x.dtype, False, None, prefix)
    b = make_parameter([size], bias_attr, x.dtype, True, None, prefix)
    if len(x.shape) != num_flatten_dims + 1:
        x = ops.flatten(x, num_flatten_dims, -1)
    return _activate(ops.linear(x, w, b), activation, "fc")


def _activate(y, act, what):
    if act is None:
        return y
    from ... import nn
    fn = getattr(nn.functional, act, None)
    if fn is None:
        raise ValueError(f"static.nn.{what}: unknown activation '{act}'")
    return fn(y)


def _channels(input, channel_last, what):
    c = input.shape[-1 if channel_last else 1]
    if c < 0:
        raise ValueError(f"static.nn.{what}: argument 'input' expected a known channel size, got "
                         f"shape {list(input.shape)}")
    return c


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCHW"):
    """A Conv2D layer made and applied: weight [num_filters, C/groups, kh, kw]."""
    from ... import nn
    channels = _channels(input, data_format == "NHWC", "conv2d")
    layer = nn.Conv2D(channels, num_filters, filter_size, stride, padding, dilation, groups or 1,
                      weight_attr=param_attr, bias_attr=bias_attr, data_format=data_format)
    return _activate(layer(input), act, "conv2d")


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
               bias_attr=None, data_layout="NCHW", in_place=False, name=None,
               moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, use_global_stats=False):
    """A BatchNorm layer made and applied (is_test: normalized by the running statistics)."""
    from ... import nn
    channels = _channels(input, data_layout == "NHWC", "batch_norm")
    layer = nn.BatchNorm(channels, act, is_test, momentum, epsilon, param_attr, bias_attr,
                         data_layout=data_layout, use_global_stats=use_global_stats)
    if is_test:
        layer.eval()
    return layer(input)


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None,
              param_attr=None, dtype="float32"):
    """An Embedding layer of size [vocab, dim] made and applied to the int64 ids `input`."""
    from ... import nn
    if len(size) != 2:
        raise ValueError(f"static.nn.embedding: argument 'size' expected [vocab, dim], got {size}")
    layer = nn.Embedding(size[0], size[1], padding_idx, sparse=is_sparse, weight_attr=param_attr)
    return layer(input)
