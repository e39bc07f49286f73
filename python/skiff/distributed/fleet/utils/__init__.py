"""paddle.distributed.fleet.utils: recompute."""
from ..recompute import recompute  # noqa: F401

__all__ = ["recompute"]
