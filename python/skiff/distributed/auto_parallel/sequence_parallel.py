"""Sequence parallelism as parallelize plan entries (Paddle 3.0's SequenceParallelBegin/End/
Enable/Disable, intermediate/tensor_parallel.py): between tensor-parallel regions the
activations are sharded on the sequence dim over "mp", so norms, residual adds and dropout see
1/mp of the tokens. The entries are forward hooks built on two moves:

  split  [b, s, h] (transposed to [s, b, h] when need_transpose) -> mp Shard(sequence dim):
         a Partial(mp) output (a row-parallel Linear's) is reduce-scattered, a replicated one
         sliced;
  gather mp Replicate (all-gather), then transposed back to [b, s, h] when need_transpose.

Both go through the differentiable dist.reshard, so backward makes the mirrored collectives
(the gradient of a reduce-scatter is all-gathered, that of an all-gather reduce-scattered when it
arrives Partial). The sequence dim is the one next to the batch dim, which is found from the
"dp" placement (Shard(0): [b, s, h]; Shard(1): [s, b, h]); without a dp-sharded batch it is dim
0 of the (transposed) tensor, as in Paddle."""
import logging

from ... import _errors
from .api import reshard, shard_tensor
from .parallelize import PlanBase, _mp_axis
from .placement_type import Replicate, Shard

__all__ = ["SequenceParallelBegin", "SequenceParallelEnd", "SequenceParallelEnable",
           "SequenceParallelDisable"]


def _target(x, what):
    t = x[0] if isinstance(x, (tuple, list)) else x
    from ... import Tensor
    if not isinstance(t, Tensor):
        raise _errors.InvalidType(f"{what}: expected a paddle.Tensor activation, got "
                                  f"{type(t).__name__}")
    if len(t.shape) != 3:
        raise _errors.InvalidArgument(f"{what}: expected a 3-d activation ([b, s, h] or "
                                      f"[s, b, h]), got shape {list(t.shape)}")
    return t


def _replace(x, t):
    if isinstance(x, (tuple, list)):
        return (t,) + tuple(x[1:])
    return t


def _on_mesh(t, mesh):
    return t if t.is_dist() else shard_tensor(t, mesh, [Replicate() for _ in range(mesh.ndim)])


def _transpose(t):
    from ... import transpose
    return transpose(t, perm=[1, 0, 2])


def _split(x, mesh, need_transpose, what):
    """Paddle's c_split: the activation sharded over "mp" on its sequence dim."""
    mp = _mp_axis(mesh, what)
    t = _on_mesh(_target(x, what), mesh)
    if need_transpose:
        t = _transpose(t)
    placements = list(t.placements)
    dp = mesh.dim_names.index("dp") if "dp" in mesh.dim_names else None
    if dp is not None and placements[dp] == Shard(0):
        seq = 1  # [b, s, h]
    elif dp is not None and placements[dp] == Shard(1):
        seq = 0  # [s, b, h]
    else:
        if dp is not None and mesh.shape[dp] > 1:
            logging.warning(f"{what}: the batch of {list(t.shape)} is not sharded over 'dp'; "
                            f"splitting dim 0 as the sequence dim")
        seq = 0
    placements[mp] = Shard(seq)
    return _replace(x, reshard(t, mesh, placements))


def _gather(x, mesh, need_transpose, what):
    """Paddle's c_concat: the activation replicated over "mp"."""
    mp = _mp_axis(mesh, what)
    t = _on_mesh(_target(x, what), mesh)
    placements = list(t.placements)
    placements[mp] = Replicate()
    t = reshard(t, mesh, placements)
    if need_transpose:
        t = _transpose(t)
    return _replace(x, t)


class SequenceParallelBegin(PlanBase):
    """On the LAST layer before the sequence-parallel range: its output [b, s, h] becomes
    [s/mp, b, h] (need_transpose=True) or [s, b, h] becomes [s/mp, b, h] (False)."""

    def __init__(self, need_transpose=True):
        self.need_transpose = need_transpose

    def apply(self, layer, mesh, param_names):
        _mp_axis(mesh, "SequenceParallelBegin")
        layer.register_forward_post_hook(
            lambda _, inputs, out: _split(out, mesh, self.need_transpose,
                                          "SequenceParallelBegin"))


class SequenceParallelEnd(PlanBase):
    """On the FIRST layer after the sequence-parallel range: its input [s/mp, b, h] becomes
    [b, s, h] (need_transpose=True) or [s, b, h] (False)."""

    def __init__(self, need_transpose=True):
        self.need_transpose = need_transpose

    def apply(self, layer, mesh, param_names):
        _mp_axis(mesh, "SequenceParallelEnd")
        layer.register_forward_pre_hook(
            lambda _, inputs: _gather(inputs, mesh, self.need_transpose, "SequenceParallelEnd"))


class SequenceParallelEnable(PlanBase):
    """The layer itself runs sequence parallel: its input [b, s, h] is split to [s/mp, b, h] and
    its output gathered back to [b, s, h]."""

    def apply(self, layer, mesh, param_names):
        _mp_axis(mesh, "SequenceParallelEnable")
        layer.register_forward_pre_hook(
            lambda _, inputs: _split(inputs, mesh, True, "SequenceParallelEnable"))
        layer.register_forward_post_hook(
            lambda _, inputs, out: _gather(out, mesh, True, "SequenceParallelEnable"))


class SequenceParallelDisable(PlanBase):
    """A layer inside the sequence-parallel range that needs whole sequences (attention, a
    tensor-parallel MLP): its input [s/mp, b, h] is gathered to [b, s, h] (need_transpose=True)
    or [s, b, h] (False), its output split back to [s/mp, b, h]."""

    def __init__(self, need_transpose=True):
        self.need_transpose = need_transpose

    def apply(self, layer, mesh, param_names):
        _mp_axis(mesh, "SequenceParallelDisable")
        layer.register_forward_pre_hook(
            lambda _, inputs: _gather(inputs, mesh, self.need_transpose,
                                      "SequenceParallelDisable"))
        layer.register_forward_post_hook(
            lambda _, inputs, out: _split(out, mesh, self.need_transpose,
                                          "SequenceParallelDisable"))
