"""skiff.nn.functional (Paddle's paddle.nn.functional), thin functions over skiff._C.ops."""
from .activation import *  # noqa: F401,F403
from .activation import __all__ as _activation_all
from .adaptive_softmax import *  # noqa: F401,F403
from .adaptive_softmax import __all__ as _adaptive_softmax_all
from .common import *  # noqa: F401,F403
from .common import __all__ as _common_all
from .conv import *  # noqa: F401,F403
from .conv import __all__ as _conv_all
from .conv_transpose import *  # noqa: F401,F403
from .conv_transpose import __all__ as _conv_transpose_all
from .conv3d import *  # noqa: F401,F403
from .conv3d import __all__ as _conv3d_all
from .ctc_loss import *  # noqa: F401,F403
from .ctc_loss import __all__ as _ctc_all
from .distance import *  # noqa: F401,F403
from .distance import __all__ as _distance_all
from .extension import *  # noqa: F401,F403
from .extension import __all__ as _extension_all
from .flash_attention import *  # noqa: F401,F403
from .flash_attention import __all__ as _attention_all
from .fractional_pool import *  # noqa: F401,F403
from .fractional_pool import __all__ as _fractional_all
from .gather_tree import *  # noqa: F401,F403
from .gather_tree import __all__ as _gather_tree_all
from .grid import *  # noqa: F401,F403
from .grid import __all__ as _grid_all
from .grid_sample import *  # noqa: F401,F403
from .grid_sample import __all__ as _grid_sample_all
from .hsigmoid import *  # noqa: F401,F403
from .hsigmoid import __all__ as _hsigmoid_all
from .input import *  # noqa: F401,F403
from .input import __all__ as _input_all
from .large_margin import *  # noqa: F401,F403
from .large_margin import __all__ as _large_margin_all
from .loss import *  # noqa: F401,F403
from .loss import __all__ as _loss_all
from .lp_pool import *  # noqa: F401,F403
from .lp_pool import __all__ as _lp_pool_all
from .margin_loss import *  # noqa: F401,F403
from .margin_loss import __all__ as _margin_loss_all
from .max_unpool import *  # noqa: F401,F403
from .max_unpool import __all__ as _max_unpool_all
from .norm import *  # noqa: F401,F403
from .norm import __all__ as _norm_all
from .pooling import *  # noqa: F401,F403
from .pooling import __all__ as _pooling_all
from .pooling1d import *  # noqa: F401,F403
from .pooling1d import __all__ as _pooling1d_all
from .pooling3d import *  # noqa: F401,F403
from .pooling3d import __all__ as _pooling3d_all
from .rnnt_loss import *  # noqa: F401,F403
from .rnnt_loss import __all__ as _rnnt_all
from .vision import *  # noqa: F401,F403
from .vision import __all__ as _vision_all

__all__ = (_activation_all + _common_all + _conv_all + _conv_transpose_all + _attention_all +
           _input_all + _loss_all + _norm_all + _pooling_all + _extension_all + _vision_all +
           _pooling1d_all + _distance_all + _grid_all + _lp_pool_all + _margin_loss_all +
           _conv3d_all + _max_unpool_all + _pooling3d_all + _ctc_all + _gather_tree_all +
           _grid_sample_all + _hsigmoid_all + _large_margin_all + _adaptive_softmax_all +
           _fractional_all + _rnnt_all)
