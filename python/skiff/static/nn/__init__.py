"""paddle.static.nn: fc (common.py) and control flow: cond, case, while_loop, switch_case
(control_flow.py)."""
from .common import fc  # noqa: F401
from .control_flow import case, cond, switch_case, while_loop  # noqa: F401

__all__ = ["fc", "cond", "case", "while_loop", "switch_case"]
