"""skiff.hapi: Paddle's high-level API (Model, callbacks, summary)."""
from . import callbacks  # noqa: F401
from .model import Model  # noqa: F401
from .model_summary import summary  # noqa: F401
from .dynamic_flops import flops  # noqa: F401
