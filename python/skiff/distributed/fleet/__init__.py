"""paddle.distributed.fleet: only fleet.utils.recompute and fleet.recompute exist in this build."""
from . import utils  # noqa: F401
from .recompute import recompute  # noqa: F401
