"""Paddle's nn/functional/extension.py names that Skiff has: diag_embed (paddle.diag_embed)."""
from ...tensor.math_functions import diag_embed  # noqa: F401

__all__ = ["diag_embed"]
