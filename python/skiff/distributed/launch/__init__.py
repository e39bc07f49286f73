"""`python -m skiff.distributed.launch` (also paddle.distributed.launch): see main.py."""
from .main import launch  # noqa: F401
