"""paddle.static.nn: fc (common.py) and control flow: cond, while_loop, switch_case
(control_flow.py)."""
from .common import fc  # noqa: F401
from .control_flow import cond, switch_case, while_loop  # noqa: F401

__all__ = ["fc", "cond", "while_loop", "switch_case"]
