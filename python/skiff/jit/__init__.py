"""paddle.jit: to_static (functions and Layers captured into IR programs run by the
executor), save and load of captured programs."""
from . import value_guard
from .save_load import TranslatedLayer, load, save  # noqa: F401
from .static_function import (  # noqa: F401
    StaticFunction, enable_to_static, not_to_static, to_static)
from .value_guard import Dy2StaticError  # noqa: F401

value_guard.install()
