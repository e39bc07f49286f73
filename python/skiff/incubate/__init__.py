"""paddle.incubate: Paddle's incubating APIs (fused LLM operators under incubate.nn.functional)."""
from . import nn  # noqa: F401
from . import distributed  # noqa: F401
from . import autograd  # noqa: F401
