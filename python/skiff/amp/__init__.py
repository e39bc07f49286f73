"""paddle.amp: automatic mixed precision.

`auto_cast` sets this thread's AMP state in C++ (skiff/runtime/eager/amp_mode.h, a dispatch
mode): each op call picks its dtype from the record's `amp` class (white / black / promote) and
the custom lists, and the casts are ops autograd records (and to_static captures as op.cast).
`decorate` casts O2 models' parameters to the AMP dtype and turns on the optimizers' float32
master weights; `GradScaler` is dynamic loss scaling (for float16; bfloat16 needs none)."""
from . import debugging  # noqa: F401
from .auto_cast import (amp_decorate, amp_guard, auto_cast, black_list, decorate,  # noqa: F401
                        is_bfloat16_supported, is_float16_supported, white_list)
from .grad_scaler import AmpScaler, GradScaler, OptimizerState  # noqa: F401

__all__ = ["auto_cast", "GradScaler", "decorate", "is_float16_supported",
           "is_bfloat16_supported", "debugging"]
