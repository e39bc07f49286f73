"""paddle.distributed.parallelize (Paddle 3.0's intermediate API, dynamic mode): a one-process
model and optimizer made distributed from a config, through shard_layer and shard_optimizer.

  config = {"dp_config": {"sharding_level": 0 | 1 | 2 | 3},
            "mp_config": {"parallelize_plan": {"fc1": dist.ColWiseParallel(),
                                               "fc2": dist.RowWiseParallel()}}}

A plan value may be a list of entries applied in order ({"embed": [dist.ColWiseParallel(),
dist.SequenceParallelBegin()]}); the sequence-parallel entries are in sequence_parallel.py.

The mesh (argument, else the one set_mesh gave) names its data-parallel dim "dp" and its
model-parallel dim "mp". A plan key is a sublayer name (a regular expression matched against
the full name) or a parameter name ending in "weight" or "bias". Parameters no plan names are
replicated; with dp_config the optimizer is sharded with ShardingStage<level>("dp") (level 0:
plain data parallel). The input batch is the caller's to shard over "dp" (shard_tensor or
shard_dataloader), as in Paddle. pp_config (pipelines) is not implemented."""
import re

from ... import _errors
from .api import reshard, shard_tensor
from .placement_type import Replicate, Shard
from .process_mesh import ProcessMesh
from .shard_layer import shard_layer
from .shard_optimizer import ShardingStage1, ShardingStage2, ShardingStage3, shard_optimizer

__all__ = ["parallelize", "ColWiseParallel", "RowWiseParallel", "set_mesh", "get_mesh"]

_global_mesh = None


def set_mesh(mesh):
    """The mesh parallelize uses when it is given none (Paddle's dist.auto_parallel.set_mesh)."""
    global _global_mesh
    if not isinstance(mesh, ProcessMesh):
        raise _errors.InvalidType(f"set_mesh: argument 'mesh' expected a "
                                  f"paddle.distributed.ProcessMesh, got {type(mesh).__name__}")
    _global_mesh = mesh


def get_mesh():
    return _global_mesh


def _mp_axis(mesh, what):
    if "mp" not in mesh.dim_names:
        raise _errors.InvalidArgument(f"{what}: the mesh {mesh} has no 'mp' dim (dim_names "
                                      f"{mesh.dim_names})")
    return mesh.dim_names.index("mp")


def _placements(mesh, axis, placement):
    out = [Replicate() for _ in range(mesh.ndim)]
    out[axis] = placement
    return out


class PlanBase:
    def apply(self, layer, mesh, param_names):
        raise NotImplementedError(f"{type(self).__name__}.apply")


class ColWiseParallel(PlanBase):
    """A Linear (weight [in, out]) split by output columns over "mp": weight Shard(1), bias
    Shard(0); the output stays Shard(-1) unless gather_output, which replicates it."""

    def __init__(self, gather_output=False):
        self.gather_output = gather_output

    def apply(self, layer, mesh, param_names):
        axis = _mp_axis(mesh, "ColWiseParallel")
        for name in param_names:
            p = getattr(layer, name, None)
            if p is None:
                raise _errors.InvalidArgument(f"ColWiseParallel: layer {type(layer).__name__} "
                                              f"has no parameter '{name}'")
            dim = 1 if name == "weight" else 0
            setattr(layer, name, shard_tensor(p, mesh, _placements(mesh, axis, Shard(dim))))
        if self.gather_output:
            layer.register_forward_post_hook(
                lambda _, inputs, out: reshard(out, mesh, _gathered(out.placements, axis)))


def _gathered(placements, axis):
    out = list(placements)
    out[axis] = Replicate()
    return out


class RowWiseParallel(PlanBase):
    """A Linear split by input rows over "mp": weight Shard(0), bias replicated; its output is
    Partial over "mp" until an op needs the sum. is_input_parallel=False shards a replicated
    input's last dim first."""

    def __init__(self, is_input_parallel=True):
        self.is_input_parallel = is_input_parallel

    def apply(self, layer, mesh, param_names):
        axis = _mp_axis(mesh, "RowWiseParallel")
        for name in param_names:
            p = getattr(layer, name, None)
            if p is None:
                raise _errors.InvalidArgument(f"RowWiseParallel: layer {type(layer).__name__} "
                                              f"has no parameter '{name}'")
            placement = Shard(0) if name == "weight" else Replicate()
            setattr(layer, name, shard_tensor(p, mesh, _placements(mesh, axis, placement)))
        if not self.is_input_parallel:
            def shard_input(_, inputs):
                x = inputs[0]
                placements = list(x.placements)
                placements[axis] = Shard(len(x.shape) - 1)
                return (reshard(x, mesh, placements),) + tuple(inputs[1:])
            layer.register_forward_pre_hook(shard_input)


def _plan_fn(plan):
    """shard_fn for shard_layer from {pattern or parameter name: plan or list of plans}; the
    plans of one key apply in list order."""
    plans = {}
    for key, p in plan.items():
        entries = list(p) if isinstance(p, (list, tuple)) else [p]
        if not isinstance(key, str) or not entries or \
                not all(isinstance(e, PlanBase) for e in entries):
            raise _errors.InvalidType(f"parallelize: parallelize_plan expected str keys and "
                                      f"plan values (ColWiseParallel, RowWiseParallel, "
                                      f"SequenceParallel*, or a list of them), got {key!r}: "
                                      f"{p!r}")
        plans[key] = entries

    def shard_fn(name, layer, mesh):
        for key, entries in plans.items():
            if key.endswith(("weight", "bias")) and "." in key:
                owner, param = key.rsplit(".", 1)
                if re.fullmatch(owner, name):
                    for p in entries:
                        p.apply(layer, mesh, [param])
            elif re.fullmatch(key, name):
                for p in entries:
                    p.apply(layer, mesh, [n for n in ("weight", "bias")
                                          if getattr(layer, n, None) is not None])
    return shard_fn


def _use_parameters(optimizer, model):
    """Points the optimizer at the model's dist parameters (shard_tensor made new Parameter
    objects; they keep their names)."""
    by_name = {p.name: p for p in model.parameters()}
    for group in optimizer._param_groups:
        group["params"] = [by_name.get(p.name, p) for p in group["params"]]
    optimizer._parameter_list = [p for g in optimizer._param_groups for p in g["params"]]


def parallelize(model, optimizer=None, mesh=None, config=None):
    """(model, optimizer) distributed on `mesh` as `config` says; unchanged when config has
    none of dp_config, mp_config, pp_config."""
    from ...nn import Layer
    if not isinstance(model, Layer):
        raise _errors.InvalidType(f"parallelize: argument 'model' expected a paddle.nn.Layer, "
                                  f"got {type(model).__name__}")
    config = config or {}
    if not isinstance(config, dict):
        raise _errors.InvalidType(f"parallelize: argument 'config' expected a dict, got "
                                  f"{type(config).__name__}")
    if not any(k in config for k in ("dp_config", "mp_config", "pp_config")):
        return model, optimizer
    if "pp_config" in config:
        raise _errors.Unimplemented("parallelize: pp_config (pipeline parallelism)")
    mesh = mesh if mesh is not None else _global_mesh
    if not isinstance(mesh, ProcessMesh):
        raise _errors.InvalidArgument("parallelize: no mesh (pass mesh= or call "
                                      "dist.auto_parallel.set_mesh first)")
    plan = config.get("mp_config", {}).get("parallelize_plan", {}) if "mp_config" in config \
        else {}
    model = shard_layer(model, mesh, _plan_fn(plan) if plan else None)
    if optimizer is not None:
        _use_parameters(optimizer, model)
    if optimizer is not None and "dp_config" in config:
        level = config["dp_config"].get("sharding_level", 0)
        stages = {0: None, 1: ShardingStage1, 2: ShardingStage2, 3: ShardingStage3}
        if level not in stages:
            raise _errors.InvalidArgument(f"parallelize: dp_config sharding_level expected 0, "
                                          f"1, 2 or 3, got {level!r}")
        if "dp" not in mesh.dim_names:
            raise _errors.InvalidArgument(f"parallelize: dp_config needs a 'dp' dim in the mesh "
                                          f"{mesh} (dim_names {mesh.dim_names})")
        stage = stages[level]
        optimizer = shard_optimizer(optimizer, stage("dp") if stage else None)
    elif optimizer is not None:
        optimizer = shard_optimizer(optimizer)
    return model, optimizer
