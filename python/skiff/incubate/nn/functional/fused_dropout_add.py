"""Paddle's paddle.incubate.nn.functional.fused_dropout_add: dropout(x) + y, composed from the
dropout op record (its mask and 1 / (1 - p) scale) and add; not one kernel yet."""
from ....nn.functional._common_ops import ops as _ops
from ....nn.functional.common import dropout
from ._args import check_tensors, dtype_name

__all__ = ["fused_dropout_add"]


def fused_dropout_add(x, y, p=0.5, training=True, mode="upscale_in_train", name=None):
    """out = dropout(x, p, training, mode) + y; x and y of one shape and dtype (Paddle)."""
    check_tensors("fused_dropout_add", x=x, y=y)
    if list(x.shape) != list(y.shape):
        raise ValueError("(InvalidArgument) fused_dropout_add: argument 'y' expected the shape "
                         f"of x {list(x.shape)}, got {list(y.shape)}")
    if x.dtype != y.dtype:
        raise TypeError("(InvalidType) fused_dropout_add: argument 'y' expected dtype "
                        f"{dtype_name(x.dtype)} (x's), got {dtype_name(y.dtype)}")
    try:
        d = dropout(x, p, training=training, mode=mode)
    except (TypeError, ValueError) as e:
        raise type(e)(str(e).replace("dropout:", "fused_dropout_add:", 1)) from None
    return _ops.add(d, y)
