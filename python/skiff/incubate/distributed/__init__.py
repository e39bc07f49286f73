"""paddle.incubate.distributed: fleet's recompute spellings."""
from . import fleet  # noqa: F401
