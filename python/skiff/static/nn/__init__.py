"""paddle.static.nn: control flow (cond, while_loop, switch_case)."""
from .control_flow import cond, switch_case, while_loop  # noqa: F401
