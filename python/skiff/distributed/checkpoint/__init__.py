"""Distributed checkpoints (Paddle's paddle.distributed.checkpoint): save_state_dict writes one
file per rank plus metadata, load_state_dict reads them into tensors of any mesh and placements
(resharded on load)."""
from .load_state_dict import load_state_dict  # noqa: F401
from .save_state_dict import save_state_dict  # noqa: F401
