"""skiff.optimizer (Paddle's paddle.optimizer): SGD, Momentum, Adam, AdamW and lr schedulers."""
from . import lr  # noqa: F401
from .adam import Adam, AdamW  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD, Momentum  # noqa: F401

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "lr"]
