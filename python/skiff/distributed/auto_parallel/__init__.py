"""Semi-automatic parallelism in dynamic mode (Paddle's paddle.distributed.auto_parallel): the
mesh and placement types, the distributed-tensor API over skiff._C.dist (DistTensor and
reshard in C++, skiff/dist), and shard_layer / shard_optimizer (ShardingStage1/2/3) /
shard_dataloader, and parallelize with ColWiseParallel/RowWiseParallel and SequenceParallel*
plans."""
from .process_mesh import ProcessMesh  # noqa: F401
from .placement_type import Partial, Placement, ReduceType, Replicate, Shard  # noqa: F401
from .api import (  # noqa: F401
    dtensor_from_fn, dtensor_from_local, dtensor_to_local, reshard, shard_tensor, unshard_dtensor)
from .shard_layer import shard_layer  # noqa: F401
from .shard_optimizer import (  # noqa: F401
    ShardingStage1, ShardingStage2, ShardingStage3, shard_optimizer)
from .shard_dataloader import ShardDataloader, shard_dataloader  # noqa: F401
from .parallelize import (  # noqa: F401
    ColWiseParallel, RowWiseParallel, get_mesh, parallelize, set_mesh)
from .sequence_parallel import (  # noqa: F401
    SequenceParallelBegin, SequenceParallelDisable, SequenceParallelEnable, SequenceParallelEnd)
