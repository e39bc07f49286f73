"""skiff.hapi: high-level utilities (summary)."""
from .model_summary import summary  # noqa: F401
