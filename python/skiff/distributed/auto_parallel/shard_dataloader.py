"""paddle.distributed.shard_dataloader (Paddle 3.0, dynamic mode): the dataloader's batches as
dist tensors. With shard_dims, each rank loads its own part of the data (the batch sampler's
indices, padded by wrapping around to a multiple of n, are dealt out by the rank's coordinate
on that mesh dim as Paddle's DistributedBatchSampler deals them: in round k the rank-th run of
batch_size) and its local batch becomes the rank's piece of a tensor sharded along dim 0 over
that mesh dim (dtensor_from_local), so the k-th dist batch is the k-th batch of
batch_size * n of the unsplit sampler; without, every rank loads the same batches and they are
replicated."""
from ... import _errors
from ...io.distributed_sampler import deal_rounds
from .api import dtensor_from_local, shard_tensor
from .placement_type import Replicate, Shard
from .process_mesh import ProcessMesh

__all__ = ["shard_dataloader", "ShardDataloader"]


class _SplitBatchSampler:
    """The batches of rank `index` of `parts`: Paddle's DistributedBatchSampler order."""

    def __init__(self, batch_sampler, parts, index):
        self._inner = batch_sampler
        self._parts = parts
        self._index = index
        self.batch_size = batch_sampler.batch_size
        self.drop_last = batch_sampler.drop_last

    def _indices(self):
        indices = [i for batch in self._inner for i in batch]
        per = -(-len(indices) // self._parts)
        indices += indices[:per * self._parts - len(indices)]
        return deal_rounds(indices, self.batch_size, self._parts, self._index)

    def __iter__(self):
        batch = []
        for i in self._indices():
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self._indices())
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


class ShardDataloader:
    """Iterates the dataloader's batches as dist tensors (lists, tuples and dicts of tensors)."""

    def __init__(self, dataloader, meshes, input_keys=None, shard_dims=None,
                 is_dataset_splitted=False):
        from ...io import DataLoader
        if not isinstance(dataloader, DataLoader):
            raise _errors.InvalidType(f"shard_dataloader: argument 'dataloader' expected a "
                                      f"paddle.io.DataLoader, got {type(dataloader).__name__}")
        meshes = [meshes] if isinstance(meshes, ProcessMesh) else list(meshes)
        if not meshes or not all(isinstance(m, ProcessMesh) for m in meshes):
            raise _errors.InvalidType("shard_dataloader: argument 'meshes' expected a "
                                      "ProcessMesh or a list of them")
        if input_keys is not None and len(meshes) > 1 and len(input_keys) != len(meshes):
            raise _errors.InvalidArgument(f"shard_dataloader: {len(input_keys)} input_keys for "
                                          f"{len(meshes)} meshes (one mesh per key)")
        dims = shard_dims if isinstance(shard_dims, (list, tuple)) else [shard_dims] * len(meshes)
        if len(dims) != len(meshes):
            raise _errors.InvalidArgument(f"shard_dataloader: {len(dims)} shard_dims for "
                                          f"{len(meshes)} meshes")
        self._meshes = meshes
        self._input_keys = list(input_keys) if input_keys is not None else None
        self._axes = [None if d is None else self._axis(m, d) for m, d in zip(meshes, dims)]
        self._dataloader = dataloader
        axis, mesh = self._axes[0], meshes[0]
        if axis is not None and not is_dataset_splitted:
            from ... import distributed as dist
            rank = dist.get_rank()
            if rank not in mesh.process_ids:
                raise _errors.InvalidArgument(f"shard_dataloader: rank {rank} is not in the "
                                              f"mesh {mesh}")
            if dataloader.batch_sampler is None:
                raise _errors.InvalidArgument("shard_dataloader: a dataloader with a batch "
                                              "sampler (a map-style dataset) to split")
            import numpy as np
            coord = int(np.argwhere(mesh.mesh == rank)[0][axis])
            dataloader.batch_sampler = _SplitBatchSampler(dataloader.batch_sampler,
                                                          mesh.shape[axis], coord)

    @staticmethod
    def _axis(mesh, dim):
        if isinstance(dim, str):
            if dim not in mesh.dim_names:
                raise _errors.InvalidArgument(f"shard_dataloader: shard_dims '{dim}' is not a "
                                              f"dim of the mesh {mesh} (dim_names "
                                              f"{mesh.dim_names})")
            return mesh.dim_names.index(dim)
        if isinstance(dim, bool) or not isinstance(dim, int) or not 0 <= dim < mesh.ndim:
            raise _errors.InvalidArgument(f"shard_dataloader: shard_dims {dim!r} is out of "
                                          f"range for the {mesh.ndim}-d mesh {mesh}")
        return dim

    def _to_dist(self, value, i):
        mesh, axis = self._meshes[min(i, len(self._meshes) - 1)], self._axes[
            min(i, len(self._axes) - 1)]
        from ... import Tensor
        if isinstance(value, (list, tuple)):
            return type(value)(self._to_dist(v, i) for v in value)
        if not isinstance(value, Tensor):
            return value
        if axis is None:
            return shard_tensor(value, mesh, [Replicate() for _ in range(mesh.ndim)])
        placements = [Replicate() for _ in range(mesh.ndim)]
        placements[axis] = Shard(0)
        return dtensor_from_local(value, mesh, placements)

    def __iter__(self):
        for batch in self._dataloader:
            if isinstance(batch, dict):
                keys = self._input_keys or list(batch)
                yield {k: self._to_dist(v, keys.index(k) if k in keys else 0)
                       for k, v in batch.items()}
            elif isinstance(batch, (list, tuple)):
                yield type(batch)(self._to_dist(v, i) for i, v in enumerate(batch))
            else:
                yield self._to_dist(batch, 0)

    def __len__(self):
        return len(self._dataloader)

    def __call__(self):
        return iter(self)


def shard_dataloader(dataloader, meshes, input_keys=None, shard_dims=None,
                     is_dataset_splitted=False):
    """A ShardDataloader over `dataloader`: batches split over `shard_dims` (a mesh dim index or
    name per mesh; None: replicated) and returned as dist tensors on `meshes`."""
    return ShardDataloader(dataloader, meshes, input_keys, shard_dims, is_dataset_splitted)
