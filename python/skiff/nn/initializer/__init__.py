"""skiff.nn.initializer (Paddle's paddle.nn.initializer)."""
from .initializer import *  # noqa: F401,F403
from .initializer import __all__  # noqa: F401

# Paddle 1.x-style aliases still used by Paddle code
from .initializer import Constant as ConstantInitializer  # noqa: F401,E402
from .initializer import Normal as NormalInitializer  # noqa: F401,E402
from .initializer import Uniform as UniformInitializer  # noqa: F401,E402
from .lazy_init import LazyGuard  # noqa: F401,E402
