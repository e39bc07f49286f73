"""Placements (Paddle's dist.Shard, dist.Replicate, dist.Partial and ReduceType): how a tensor
lies along one mesh dim. They cross into C++ as (kind, dim, reduce type name) tuples."""
from ... import _errors

__all__ = ["ReduceType", "Placement", "Shard", "Replicate", "Partial"]


class ReduceType:
    """Paddle's paddle.distributed.ReduceType values."""
    kRedSum = 0
    kRedMax = 1
    kRedMin = 2
    kRedProd = 3
    kRedAvg = 4
    kRedAny = 5
    kRedAll = 6


_REDUCE_NAMES = ["sum", "max", "min", "prod", "avg", "any", "all"]


class Placement:
    def is_shard(self, dim=None):
        return False

    def is_replicated(self):
        return False

    def is_partial(self):
        return False

    def _to_c(self):
        raise NotImplementedError


class Shard(Placement):
    def __init__(self, dim):
        if not isinstance(dim, int) or isinstance(dim, bool) or dim < 0:
            raise _errors.InvalidArgument(f"Shard: argument 'dim' expected a non-negative int, "
                                          f"got {dim!r}")
        self._dim = dim

    def get_dim(self):
        return self._dim

    def is_shard(self, dim=None):
        return dim is None or dim == self._dim

    def _to_c(self):
        return ("shard", self._dim, "sum")

    def __eq__(self, other):
        return isinstance(other, Shard) and other._dim == self._dim

    def __hash__(self):
        return hash(("shard", self._dim))

    def __repr__(self):
        return f"Shard(dim={self._dim})"


class Replicate(Placement):
    def is_replicated(self):
        return True

    def _to_c(self):
        return ("replicate", -1, "sum")

    def __eq__(self, other):
        return isinstance(other, Replicate)

    def __hash__(self):
        return hash("replicate")

    def __repr__(self):
        return "Replicate()"


class Partial(Placement):
    def __init__(self, reduce_type=ReduceType.kRedSum):
        if reduce_type not in range(len(_REDUCE_NAMES)) or isinstance(reduce_type, bool):
            raise _errors.InvalidArgument(f"Partial: argument 'reduce_type' expected a "
                                          f"paddle.distributed.ReduceType, got {reduce_type!r}")
        self._reduce_type = reduce_type

    def reduce_type(self):
        return self._reduce_type

    def is_partial(self):
        return True

    def _to_c(self):
        return ("partial", -1, _REDUCE_NAMES[self._reduce_type])

    def __eq__(self, other):
        return isinstance(other, Partial) and other._reduce_type == self._reduce_type

    def __hash__(self):
        return hash(("partial", self._reduce_type))

    def __repr__(self):
        return f"Partial(reduce_type={_REDUCE_NAMES[self._reduce_type]})"


def _from_c(kind, dim, reduce):
    if kind == "shard":
        return Shard(dim)
    if kind == "partial":
        return Partial(_REDUCE_NAMES.index(reduce))
    return Replicate()
