"""Paddle's paddle.nn.functional.pairwise_distance: the p-norm of x - y + epsilon along the last
axis (Paddle adds epsilon to the difference, not to the norm)."""
from ._common_ops import ops as _ops

__all__ = ["pairwise_distance"]


def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    """x, y [N, D] or [D] (broadcast against each other); the result drops the last axis unless
    keepdim. p may be 0 (count of non-zeros), inf or -inf, as paddle.linalg.norm's."""
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        raise TypeError(f"(InvalidArgument) pairwise_distance: argument 'p' expected a float, "
                        f"got {type(p).__name__}")
    if len(x.shape) == 0 or len(y.shape) == 0:
        raise ValueError(f"(InvalidArgument) pairwise_distance: arguments 'x' and 'y' expected "
                         f"at least 1 dim, got shapes {list(x.shape)} and {list(y.shape)}")
    sub = _ops.subtract(x, y)
    if epsilon != 0.0:
        sub = _ops.scale(sub, 1.0, float(epsilon), True)
    return _ops.p_norm(sub, float(p), -1, 0.0, bool(keepdim), False)
