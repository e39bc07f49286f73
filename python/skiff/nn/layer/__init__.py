"""The layer classes of skiff.nn."""
from .activation import *  # noqa: F401,F403
from .common import *  # noqa: F401,F403
from .container import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .conv3d import *  # noqa: F401,F403
from .conv_family import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .layers import Layer  # noqa: F401
from .loss import *  # noqa: F401,F403
from .lp_pool import *  # noqa: F401,F403
from .norm import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .pooling1d import *  # noqa: F401,F403
from .pooling3d import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
from .vision import *  # noqa: F401,F403
