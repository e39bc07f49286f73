"""Paddle's paddle.incubate.nn.functional.swiglu: silu(x) * y, or over the two halves of x's last
axis when y is None. Composite in eager mode for now; captured programs fuse silu * multiply into
op.swiglu (the fuse-swiglu DRR rule)."""
from ....nn.functional._common_ops import ops as _ops

__all__ = ["swiglu"]


def swiglu(x, y=None, name=None):
    if y is None:
        n = x.shape[-1] if len(x.shape) else 0
        if len(x.shape) == 0 or n % 2 != 0:
            raise ValueError("swiglu: argument 'x' must have an even last dim when 'y' is None, "
                             f"got shape {list(x.shape)}")
        x, y = _ops.split(x, [n // 2, n // 2], -1)
    elif list(x.shape) != list(y.shape):
        raise ValueError(f"swiglu: arguments 'x' and 'y' must have the same shape, got "
                         f"{list(x.shape)} and {list(y.shape)}")
    return _ops.multiply(_ops.silu(x), y)
