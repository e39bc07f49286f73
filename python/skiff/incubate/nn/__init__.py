"""paddle.incubate.nn."""
from . import functional  # noqa: F401
