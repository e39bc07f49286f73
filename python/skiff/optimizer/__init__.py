"""skiff.optimizer (Paddle's paddle.optimizer): SGD, Momentum, Adam, AdamW over fused kernels;
Adagrad, RMSProp, Adamax, Adadelta, Lamb, NAdam, RAdam, ASGD, Rprop as tensor-op updates; LBFGS;
lr schedulers."""
from . import lr  # noqa: F401
from .adadelta import Adadelta  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adam import Adam, AdamW  # noqa: F401
from .adamax import Adamax  # noqa: F401
from .asgd import ASGD  # noqa: F401
from .lamb import Lamb  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
from .nadam import NAdam  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .radam import RAdam  # noqa: F401
from .rmsprop import RMSProp  # noqa: F401
from .rprop import Rprop  # noqa: F401
from .sgd import SGD, Momentum  # noqa: F401

__all__ = ["Optimizer", "Adagrad", "Adam", "AdamW", "Adamax", "RMSProp", "Adadelta", "SGD",
           "Momentum", "Lamb", "LBFGS", "NAdam", "RAdam", "ASGD", "Rprop", "lr"]
