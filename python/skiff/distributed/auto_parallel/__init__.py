"""Semi-automatic parallelism in dynamic mode (Paddle's paddle.distributed.auto_parallel): the
mesh and placement types and the distributed-tensor API over skiff._C.dist (DistTensor and
reshard in C++, skiff/dist)."""
from .process_mesh import ProcessMesh  # noqa: F401
from .placement_type import Partial, Placement, ReduceType, Replicate, Shard  # noqa: F401
from .api import (  # noqa: F401
    dtensor_from_fn, dtensor_from_local, dtensor_to_local, reshard, shard_tensor, unshard_dtensor)
