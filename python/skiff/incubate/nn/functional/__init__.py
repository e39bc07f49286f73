"""paddle.incubate.nn.functional: fused operators for LLMs."""
from .fused_rms_norm import fused_rms_norm  # noqa: F401
from .fused_rotary_position_embedding import fused_rotary_position_embedding  # noqa: F401
from .swiglu import swiglu  # noqa: F401

__all__ = ["fused_rms_norm", "fused_rotary_position_embedding", "swiglu"]
