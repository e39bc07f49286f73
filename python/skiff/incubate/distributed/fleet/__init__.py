"""paddle.incubate.distributed.fleet: recompute_sequential (and recompute)."""
from ....distributed.fleet.recompute import recompute, recompute_sequential  # noqa: F401

__all__ = ["recompute_sequential", "recompute"]
