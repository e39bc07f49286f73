"""paddle.static.nn: fc, the static layer function Paddle programs most use."""
import numpy as np

__all__ = ["fc"]


def fc(x, size, num_flatten_dims=1, weight_attr=None, bias_attr=None, activation=None,
       name=None):
    """y = act(flatten(x, num_flatten_dims) @ W + b): W [prod(x.shape[num_flatten_dims:]), size]
    (Xavier uniform), b [size] (zeros); parameters are initialized by the startup program."""
    from .. import nn
    from ..nn.parameter import make_parameter
    from ..nn.functional._common_ops import ops
    if num_flatten_dims < 1 or num_flatten_dims >= len(x.shape) + 1:
        raise ValueError(f"static.nn.fc: argument 'num_flatten_dims' expected 1..{len(x.shape)}, "
                         f"got {num_flatten_dims}")
    in_features = int(np.prod(x.shape[num_flatten_dims:]))
    if in_features <= 0:
        raise ValueError(f"static.nn.fc: argument 'x' expected known sizes after "
                         f"num_flatten_dims, got shape {list(x.shape)}")
    from ..nn import unique_name
    prefix = name or unique_name.generate("fc")  # fc_0.w_0, as Paddle names them
    w = make_parameter([in_features, size], weight_attr, x.dtype, False, None, prefix)
    b = make_parameter([size], bias_attr, x.dtype, True, None, prefix)
    if len(x.shape) != num_flatten_dims + 1:
        x = ops.flatten(x, num_flatten_dims, -1)
    y = ops.linear(x, w, b)
    if activation is None:
        return y
    act = getattr(nn.functional, activation, None)
    if act is None:
        raise ValueError(f"static.nn.fc: unknown activation '{activation}'")
    return act(y)
