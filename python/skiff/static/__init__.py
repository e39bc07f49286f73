"""paddle.static: the static-graph API (programs built directly, run by an executor) and the
pieces to_static shares with it."""
from .input import InputSpec  # noqa: F401
from . import nn  # noqa: F401
