"""skiff.nn (Paddle's paddle.nn): Layer, layers, losses, initializers, clipping."""
from . import functional, initializer, utils  # noqa: F401
from . import quant  # noqa: F401
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401
from .decode import BeamSearchDecoder, Decoder, dynamic_decode  # noqa: F401
from .layer import *  # noqa: F401,F403
from .layer.layers import Layer  # noqa: F401
from .param_attr import ParamAttr  # noqa: F401
from .parameter import Parameter, create_parameter  # noqa: F401
