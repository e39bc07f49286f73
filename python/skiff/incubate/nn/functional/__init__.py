"""paddle.incubate.nn.functional: fused operators for LLMs."""
from .fused_bias_act import fused_bias_act  # noqa: F401
from .fused_dropout_add import fused_dropout_add  # noqa: F401
from .fused_layer_norm import fused_layer_norm  # noqa: F401
from .fused_rms_norm import fused_rms_norm  # noqa: F401
from .fused_rotary_position_embedding import fused_rotary_position_embedding  # noqa: F401
from .swiglu import swiglu  # noqa: F401

__all__ = ["fused_bias_act", "fused_dropout_add", "fused_layer_norm", "fused_rms_norm",
           "fused_rotary_position_embedding", "swiglu"]
