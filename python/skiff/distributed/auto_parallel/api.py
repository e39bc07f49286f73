"""The distributed-tensor API of Paddle's auto_parallel/api.py in dynamic mode: shard_tensor,
dtensor_from_fn, dtensor_from_local, dtensor_to_local, reshard, unshard_dtensor. A dist tensor
is a paddle.Tensor whose body is a C++ DistTensor (global shape, mesh, placements, local piece);
the pieces follow Paddle's ceil-sized split and reshard runs in C++ over per-mesh-dim groups."""
from ... import _C
from ... import _errors
from .placement_type import Placement, Replicate, _from_c
from .process_mesh import ProcessMesh
from ...autograd.py_layer import PyLayer

__all__ = ["shard_tensor", "dtensor_from_fn", "dtensor_from_local", "dtensor_to_local",
           "reshard", "unshard_dtensor"]


def _check(op, mesh, placements):
    if not isinstance(mesh, ProcessMesh):
        raise _errors.InvalidArgument(f"{op}: argument 'mesh' expected a "
                                      f"paddle.distributed.ProcessMesh, got "
                                      f"{type(mesh).__name__}")
    if not isinstance(placements, (list, tuple)) or not all(
            isinstance(p, Placement) for p in placements):
        raise _errors.InvalidArgument(f"{op}: argument 'placements' expected a list of "
                                      f"paddle.distributed.Placement, got {placements!r}")
    return mesh._to_c(), [p._to_c() for p in placements]


def _is_dist(t):
    return isinstance(t, _C.Tensor) and _C.dist.is_dist(t)


def _keep_grad_flag(out, stop_gradient):
    out.stop_gradient = stop_gradient
    return out


def shard_tensor(data, mesh, placements, dtype=None, place=None, stop_gradient=None):
    """Every rank passes the same global value; each keeps its piece (Paddle's shard_tensor).
    A Parameter gives a Parameter (name, trainable and optimizer attributes kept)."""
    import skiff as paddle
    m, ps = _check("shard_tensor", mesh, placements)
    if _is_dist(data):
        raise _errors.InvalidArgument("shard_tensor: argument 'data' expected a dense tensor, "
                                      "got a distributed tensor (use reshard)")
    if isinstance(data, _C.Tensor):
        t = data if dtype is None else data.astype(dtype)
        if stop_gradient is None:
            stop_gradient = data.stop_gradient
    else:
        t = paddle.to_tensor(data, dtype=dtype, place=place)
        if stop_gradient is None:
            stop_gradient = True
    out = _keep_grad_flag(_C.dist.shard_tensor(t, m, ps), stop_gradient)
    from ...nn.parameter import EagerParamBase
    if isinstance(data, EagerParamBase):  # a Layer's parameter stays a Parameter
        return EagerParamBase(out, name=data.name, trainable=not stop_gradient,
                              optimize_attr=data.optimize_attr, regularizer=data.regularizer,
                              do_model_average=data.do_model_average, need_clip=data.need_clip,
                              is_distributed=data.is_distributed)
    return out


def dtensor_from_fn(fn, mesh, placements, *args, **kwargs):
    return shard_tensor(fn(*args, **kwargs), mesh, placements)


def dtensor_from_local(local_tensor, mesh, placements):
    """A dist tensor from this rank's piece; the global shape is the local shape times the mesh
    dim's size on each sharded dim."""
    m, ps = _check("dtensor_from_local", mesh, placements)
    if _is_dist(local_tensor):
        raise _errors.InvalidArgument("The input should be a local tensor.")
    return _keep_grad_flag(_C.dist.dtensor_from_local(local_tensor, m, ps),
                           local_tensor.stop_gradient)


def dtensor_to_local(dist_tensor, mesh, placements):
    """This rank's piece of `dist_tensor` as a dense tensor."""
    _check("dtensor_to_local", mesh, placements)
    if not _is_dist(dist_tensor):
        raise _errors.InvalidArgument("The input should be a distributed tensor.")
    return _keep_grad_flag(_C.dist.local_value(dist_tensor), dist_tensor.stop_gradient)


class _Reshard(PyLayer):
    """reshard with a gradient: the output's gradient resharded back to the input's layout, a
    Partial input's as Replicate (each local term of a pending sum gets the whole gradient)."""

    @staticmethod
    def forward(ctx, x, m, ps):
        ctx.back = (_C.dist.dist_info(x)[0],
                    [("replicate", -1, "sum") if p[0] == "partial" else p
                     for p in _C.dist.dist_info(x)[1]])
        return _C.dist.reshard(x, m, ps)

    @staticmethod
    def backward(ctx, grad):
        m, ps = ctx.back
        if not _C.dist.is_dist(grad):  # a dense gradient (the engine's seed) is replicated
            grad = _C.dist.shard_tensor(grad, m, [("replicate", -1, "sum")] * len(ps))
        return _C.dist.reshard(grad, m, ps)


def reshard(dist_tensor, mesh, placements):
    """`dist_tensor` laid out by `placements` on `mesh` (the same mesh for now); differentiable
    (the gradient is resharded back)."""
    m, ps = _check("reshard", mesh, placements)
    if not _is_dist(dist_tensor):
        raise _errors.InvalidArgument("reshard: argument 'dist_tensor' expected a distributed "
                                      "tensor (made by shard_tensor), got a dense tensor")
    if dist_tensor.stop_gradient or not _C.is_grad_enabled():
        return _keep_grad_flag(_C.dist.reshard(dist_tensor, m, ps), dist_tensor.stop_gradient)
    return _Reshard.apply(dist_tensor, m, ps)


def unshard_dtensor(dist_tensor):
    """The global value of `dist_tensor` as a dense tensor on every rank of its mesh."""
    if not _is_dist(dist_tensor):
        raise _errors.InvalidArgument("unshard_dtensor: argument 'dist_tensor' expected a "
                                      "distributed tensor, got a dense tensor")
    mesh = _process_mesh(dist_tensor)
    full = reshard(dist_tensor, mesh, [Replicate() for _ in range(mesh.ndim)])
    return _keep_grad_flag(_C.dist.local_value(full), dist_tensor.stop_gradient)


def _process_mesh(t):
    info = _C.dist.dist_info(t)
    if info is None:
        return None
    shape, ids, names = info[0]
    import numpy as np
    return ProcessMesh(np.array(ids).reshape(shape), names)


def _placements(t):
    info = _C.dist.dist_info(t)
    return None if info is None else [_from_c(*p) for p in info[1]]


def _install_tensor_methods(cls):
    """Tensor.placements, Tensor.process_mesh, Tensor.is_dist(), Tensor._local_value()."""
    cls.placements = property(_placements)
    cls.process_mesh = property(_process_mesh)
    cls.is_dist = lambda self: _C.dist.is_dist(self)
    cls._local_value = lambda self: _keep_grad_flag(
        _C.dist.local_value(self), self.stop_gradient)


_install_tensor_methods(_C.Tensor)
