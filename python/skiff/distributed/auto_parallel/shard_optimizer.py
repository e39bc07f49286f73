"""paddle.distributed.shard_optimizer and the builtin shard_fns ShardingStage1/2/3 (Paddle 3.0,
dynamic mode). Optimizer states of a dist parameter are made in the parameter's layout (the
base Optimizer does that for any dist parameter) and then passed through shard_fn(name, param,
state). The fused update kernels run on dist tensors in the eager distributed mode
(skiff/dist/eager/inplace_update.h): each parameter's update runs in the layout of its most
sharded state, so a state sharded over the dp mesh dim updates the parameter's dp shard, which
is gathered back into the replicated parameter.

  ShardingStage1(mesh_dim): states sharded over mesh_dim (a tensor dim the parameter does not
    shard already, Paddle's get_placement_with_sharding); gradients all-reduced as in plain dp.
  ShardingStage2(mesh_dim): stage 1, and each gradient is reduce-scattered into that layout
    (the leaf's gradient layout, set once) instead of all-reduced.
  ShardingStage3(mesh_dim): stage 2, and the parameters themselves are stored sharded: the SPMD
    rules gather a weight where a product needs it, and its Partial gradient is
    reduce-scattered back into the parameter's layout."""
from ... import _C, _errors
from .api import _is_dist, reshard
from .placement_type import Shard
from .process_mesh import ProcessMesh

__all__ = ["shard_optimizer", "ShardingStage1", "ShardingStage2", "ShardingStage3"]


def _placements_with_sharding(param, mesh_axis):
    """param's placements with mesh dim `mesh_axis` sharding the first tensor dim no other mesh
    dim shards (Paddle's get_placement_with_sharding); unchanged when every dim is sharded."""
    placements = list(param.placements)
    taken = {p.get_dim() for i, p in enumerate(placements) if p.is_shard() and i != mesh_axis}
    for dim in range(len(param.shape)):
        if dim not in taken:
            placements[mesh_axis] = Shard(dim)
            break
    return placements


class _ShardingStageBase:
    _stage = 0

    def __init__(self, sharding_mesh_dim, mesh=None):
        if isinstance(sharding_mesh_dim, bool) or not isinstance(sharding_mesh_dim, (int, str)):
            raise _errors.InvalidType(f"{type(self).__name__}: argument 'sharding_mesh_dim' "
                                      f"expected an int or a str, got "
                                      f"{type(sharding_mesh_dim).__name__}")
        if mesh is not None and not isinstance(mesh, ProcessMesh):
            raise _errors.InvalidType(f"{type(self).__name__}: argument 'mesh' expected a "
                                      f"paddle.distributed.ProcessMesh or None, got "
                                      f"{type(mesh).__name__}")
        self._sharding_mesh_dim = sharding_mesh_dim
        self._mesh = mesh

    def _axis(self, mesh):
        """The index of the sharding mesh dim in `mesh` (ValueError when it has none)."""
        dim, name = self._sharding_mesh_dim, type(self).__name__
        if isinstance(dim, str):
            if dim not in mesh.dim_names:
                raise _errors.InvalidArgument(f"{name}: sharding_mesh_dim '{dim}' is not a dim "
                                              f"of the mesh {mesh} (dim_names "
                                              f"{mesh.dim_names})")
            return mesh.dim_names.index(dim)
        if not 0 <= dim < mesh.ndim:
            raise _errors.InvalidArgument(f"{name}: sharding_mesh_dim {dim} is out of range for "
                                          f"the {mesh.ndim}-d mesh {mesh}")
        return dim

    def _prepare(self, params):
        """Runs once, when the optimizer is sharded (stage 2 and 3)."""

    def __call__(self, key, param, accumulator):
        if not _is_dist(param) or not _is_dist(accumulator):
            return accumulator
        if list(accumulator.shape) != list(param.shape):  # a scalar state stays replicated
            return accumulator
        placements = _placements_with_sharding(param, self._axis(param.process_mesh))
        return reshard(accumulator, param.process_mesh, placements)


class ShardingStage1(_ShardingStageBase):
    """Optimizer states sharded over `sharding_mesh_dim` (int index or name of a mesh dim)."""
    _stage = 1


class ShardingStage2(_ShardingStageBase):
    """Stage 1, with each parameter's gradient reduce-scattered over `sharding_mesh_dim`."""
    _stage = 2

    def _prepare(self, params):
        for p in params:
            if _is_dist(p):
                placements = _placements_with_sharding(p, self._axis(p.process_mesh))
                _C.dist.set_grad_placements(p, [q._to_c() for q in placements])


class ShardingStage3(_ShardingStageBase):
    """Stage 2, with the parameters themselves stored sharded over `sharding_mesh_dim`."""
    _stage = 3

    def _prepare(self, params):
        for p in params:
            if not _is_dist(p):
                continue
            trainable = not p.stop_gradient
            sharded = reshard(p, p.process_mesh, _placements_with_sharding(
                p, self._axis(p.process_mesh)))
            _C._rebase(p, sharded.detach())  # the same Parameter object, a sharded body
            p.stop_gradient = not trainable


class _ShardOptimizer:
    """The optimizer with states made by shard_fn; every other attribute is the inner one's."""

    def __init__(self, optimizer, shard_fn=None, gradient_accumulation_steps=1):
        from ...optimizer import Optimizer
        if not isinstance(optimizer, Optimizer):
            raise _errors.InvalidType(f"shard_optimizer: argument 'optimizer' expected a "
                                      f"paddle.optimizer.Optimizer, got "
                                      f"{type(optimizer).__name__}")
        if shard_fn is not None and not callable(shard_fn):
            raise _errors.InvalidType(f"shard_optimizer: argument 'shard_fn' expected a "
                                      f"callable or None, got {type(shard_fn).__name__}")
        if gradient_accumulation_steps != 1:
            raise _errors.Unimplemented("shard_optimizer: gradient_accumulation_steps other "
                                        "than 1 (accumulate by calling backward several times "
                                        "before step)")
        self.__dict__["_inner_opt"] = optimizer
        self.__dict__["_shard_fn"] = shard_fn
        if isinstance(shard_fn, _ShardingStageBase):
            params = [p for g in optimizer._param_groups for p in g["params"]]
            for p in params:  # bad mesh dims fail here, not at the first step
                if _is_dist(p):
                    shard_fn._axis(p.process_mesh)
            shard_fn._prepare(params)
        if shard_fn is not None:
            make = optimizer._add_accumulator

            def add_accumulator(name, param, fill_value=0.0, dtype=None, shape=None):
                store = optimizer._accumulators[name]
                fresh = store.get(param.name) is None
                acc = make(name, param, fill_value, dtype, shape)
                if fresh:
                    sharded = shard_fn(name, param, acc)
                    sharded.name = acc.name
                    store[param.name] = acc = sharded
                return acc

            optimizer._add_accumulator = add_accumulator

    def __getattr__(self, item):
        return getattr(self.__dict__["_inner_opt"], item)

    def __setattr__(self, item, value):
        setattr(self.__dict__["_inner_opt"], item, value)


def shard_optimizer(optimizer, shard_fn=None, gradient_accumulation_steps=1):
    """The optimizer in a distributed view: states of dist parameters take the parameters'
    placements, then shard_fn(accumulator_name, param, accumulator) -> sharded accumulator
    (e.g. dist.ShardingStage1("dp"))."""
    return _ShardOptimizer(optimizer, shard_fn, gradient_accumulation_steps)
