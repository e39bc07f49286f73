"""paddle.jit: to_static (functions and Layers captured into IR programs run by the
executor), save and load of captured programs, their pre-save hooks, and what to_static
reports (set_verbosity, set_code_level)."""
from . import value_guard
from .logging_utils import set_code_level, set_verbosity  # noqa: F401
from .save_hooks import (  # noqa: F401
    clear_pre_save_hooks, delete_a_pre_save_hook, hang_a_pre_save_hook)
from .save_load import TranslatedLayer, load, save  # noqa: F401
from .static_function import (  # noqa: F401
    StaticFunction, enable_to_static, not_to_static, to_static)
from .value_guard import Dy2StaticError  # noqa: F401

value_guard.install()
