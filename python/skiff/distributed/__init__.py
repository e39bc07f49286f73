"""paddle.distributed on CPU processes: the environment and process groups (group.py), the
collective functions (collective.py), DataParallel (data_parallel.py) and the launcher
(`python -m skiff.distributed.launch`). Communication runs in C++ (skiff/comm: Gloo over TCP,
a TCP store for rendezvous, timeouts that name missing ranks)."""
from .collective import (  # noqa: F401
    ReduceOp, all_gather, all_gather_object, all_reduce, alltoall, alltoall_single, barrier,
    broadcast, broadcast_object_list, gather, irecv, isend, recv, reduce, reduce_scatter, scatter,
    scatter_object_list, send, wait)
from .env import ParallelEnv  # noqa: F401
from .group import (  # noqa: F401
    Group, destroy_process_group, get_backend, get_group, get_rank, get_world_size,
    init_parallel_env, is_available, is_initialized, new_group)
from .data_parallel import DataParallel  # noqa: F401
from .auto_parallel import (  # noqa: F401
    ColWiseParallel, Partial, Placement, ProcessMesh, ReduceType, Replicate, RowWiseParallel,
    SequenceParallelBegin, SequenceParallelDisable, SequenceParallelEnable, SequenceParallelEnd,
    Shard, ShardDataloader, get_mesh, parallelize, set_mesh,
    ShardingStage1, ShardingStage2, ShardingStage3, dtensor_from_fn, dtensor_from_local,
    dtensor_to_local, reshard, shard_dataloader, shard_layer, shard_optimizer, shard_tensor,
    unshard_dtensor)
from .checkpoint import load_state_dict, save_state_dict  # noqa: F401
from . import checkpoint  # noqa: F401
from . import launch  # noqa: F401
from . import fleet  # noqa: F401

from .. import _C as _C_mod

TCPStore = _C_mod.comm.TCPStore
