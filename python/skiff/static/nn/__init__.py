"""paddle.static.nn: layer functions that make their parameters (common.py: fc, conv2d,
batch_norm, embedding) and control flow (control_flow.py: cond, case, while_loop, switch_case)."""
from .common import batch_norm, conv2d, embedding, fc  # noqa: F401
from .control_flow import case, cond, switch_case, while_loop  # noqa: F401

__all__ = ["fc", "conv2d", "batch_norm", "embedding", "cond", "case", "while_loop", "switch_case"]
