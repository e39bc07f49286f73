"""The collective functions on tensors with Paddle's signatures
(python/paddle/distributed/communication/*.py). Ranks in arguments (src, dst) are global ranks;
they are mapped to the group's own numbering here. Each call returns the C++ task (wait() it
when sync_op=False); ranks outside `group` return None without communicating. Outputs that Paddle
fills as lists (all_gather, gather, alltoall) are views of one buffer the backend writes."""
import pickle

import numpy as np

from .. import _C
from . import group as _group
from .. import _errors

__all__ = ["ReduceOp", "all_reduce", "all_gather", "all_gather_object", "broadcast",
           "broadcast_object_list", "reduce", "scatter", "scatter_object_list", "gather",
           "reduce_scatter", "alltoall", "alltoall_single", "send", "recv", "isend", "irecv",
           "barrier", "wait"]


class ReduceOp:
    """Paddle's reduce types (same values as paddle.distributed.ReduceOp)."""
    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


# Paddle's ReduceOp value -> skiff::comm::ReduceOp.
_TO_C = {ReduceOp.SUM: 0, ReduceOp.AVG: 1, ReduceOp.MAX: 2, ReduceOp.MIN: 3, ReduceOp.PROD: 4}


def _op(op, what):
    if isinstance(op, bool) or op not in _TO_C:
        raise _errors.InvalidArgument(f"{what}: argument 'op' expected ReduceOp.SUM, MAX, "
                                      f"MIN, PROD or AVG, got {op!r}")
    return _TO_C[op]


def _resolve(group, what):
    g = _group._global_group() if group is None else group
    if not isinstance(g, _group.Group):
        raise _errors.InvalidType(f"{what}: argument 'group' expected a Group from "
                                  f"new_group or None, got {type(group).__name__}")
    if g.is_member() and g.process_group is None:
        raise _errors.PreconditionNotMet(f"{what}: group {g.id} was destroyed")
    return g


def _local(g, rank, arg, what):
    if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)):
        raise _errors.InvalidType(f"{what}: argument '{arg}' expected an int rank, got "
                                  f"{type(rank).__name__}")
    r = g.get_group_rank(int(rank))
    if r < 0:
        raise _errors.InvalidArgument(f"{what}: argument '{arg}' expected a rank of the "
                                      f"group {g.ranks}, got {rank}")
    return r


def _check_tensor(t, arg, what):
    if not isinstance(t, _C.Tensor):
        raise _errors.InvalidType(f"{what}: argument '{arg}' expected a Tensor, got "
                                  f"{type(t).__name__}")


def _done(g, task, sync_op):
    if not sync_op:
        g._pending = [t for t in g._pending if not t.is_completed()] + [task]
    return task


def _stacked(tensors, arg, what):
    import skiff
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise _errors.InvalidType(f"{what}: argument '{arg}' expected a non-empty list "
                                  f"of Tensors, got {tensors!r}")
    for i, t in enumerate(tensors):
        _check_tensor(t, f"{arg}[{i}]", what)
    return skiff.stack(list(tensors))


def _empty(shape, dtype):
    import skiff
    return skiff.empty(list(shape), dtype=dtype)


def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True):
    _check_tensor(tensor, "tensor", "all_reduce")
    g = _resolve(group, "all_reduce")
    if not g.is_member():
        return None
    return _done(g, g.process_group.all_reduce(tensor, _op(op, "all_reduce"), sync_op), sync_op)


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    _check_tensor(tensor, "tensor", "all_gather")
    if not isinstance(tensor_list, list):
        raise _errors.InvalidType(f"all_gather: argument 'tensor_list' expected a list, "
                                  f"got {type(tensor_list).__name__}")
    g = _resolve(group, "all_gather")
    if not g.is_member():
        return None
    out = _empty([g.nranks] + list(tensor.shape), tensor.dtype)
    task = g.process_group.all_gather(out, tensor, sync_op)
    tensor_list.clear()
    tensor_list.extend(out[i] for i in range(g.nranks))
    return _done(g, task, sync_op)


def all_gather_object(object_list, obj, group=None):
    """Gathers any picklable object from every rank (the peers are this job's own processes)."""
    import skiff
    if not isinstance(object_list, list):
        raise _errors.InvalidType(f"all_gather_object: argument 'object_list' expected "
                                  f"a list, got {type(object_list).__name__}")
    g = _resolve(group, "all_gather_object")
    if not g.is_member():
        return
    data = np.frombuffer(pickle.dumps(obj), dtype=np.uint8)
    sizes = []
    all_gather(sizes, skiff.to_tensor(np.array([data.size], dtype=np.int64)), g)
    sizes = [int(s.numpy()[0]) for s in sizes]
    padded = np.zeros(max(sizes), dtype=np.uint8)
    padded[:data.size] = data
    parts = []
    all_gather(parts, skiff.to_tensor(padded), g)
    object_list.clear()
    object_list.extend(pickle.loads(p.numpy()[:n].tobytes()) for p, n in zip(parts, sizes))


def broadcast(tensor, src, group=None, sync_op=True):
    _check_tensor(tensor, "tensor", "broadcast")
    g = _resolve(group, "broadcast")
    if not g.is_member():
        return None
    root = _local(g, src, "src", "broadcast")
    return _done(g, g.process_group.broadcast(tensor, root, sync_op), sync_op)


def broadcast_object_list(object_list, src=0, group=None):
    import skiff
    g = _resolve(group, "broadcast_object_list")
    if not g.is_member():
        return
    is_src = _group.get_rank() == src
    data = np.frombuffer(pickle.dumps(list(object_list)), dtype=np.uint8) if is_src else None
    size = skiff.to_tensor(np.array([data.size if is_src else 0], dtype=np.int64))
    broadcast(size, src, g)
    buf = skiff.to_tensor(data.copy() if is_src else np.zeros(int(size.numpy()[0]), np.uint8))
    broadcast(buf, src, g)
    if not is_src:
        object_list[:] = pickle.loads(buf.numpy().tobytes())


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    _check_tensor(tensor, "tensor", "reduce")
    g = _resolve(group, "reduce")
    if not g.is_member():
        return None
    root = _local(g, dst, "dst", "reduce")
    return _done(g, g.process_group.reduce(tensor, root, _op(op, "reduce"), sync_op), sync_op)


def scatter(tensor, tensor_list=None, src=0, group=None, sync_op=True):
    _check_tensor(tensor, "tensor", "scatter")
    g = _resolve(group, "scatter")
    if not g.is_member():
        return None
    root = _local(g, src, "src", "scatter")
    stacked = None
    if g.rank == root:
        stacked = _stacked(tensor_list, "tensor_list", "scatter")
        if len(tensor_list) != g.nranks:
            raise _errors.InvalidArgument(
                f"scatter: argument 'tensor_list' expected "
                f"{g.nranks} tensors (one per rank), got {len(tensor_list)}")
    return _done(g, g.process_group.scatter(tensor, stacked, root, sync_op), sync_op)


def scatter_object_list(out_object_list, in_object_list=None, src=0, group=None):
    g = _resolve(group, "scatter_object_list")
    if not g.is_member():
        return
    objs = [list(in_object_list) if in_object_list is not None else None]
    broadcast_object_list(objs, src, g)
    out_object_list.clear()
    out_object_list.append(objs[0][g.rank])


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True):
    _check_tensor(tensor, "tensor", "gather")
    g = _resolve(group, "gather")
    if not g.is_member():
        return None
    root = _local(g, dst, "dst", "gather")
    out = None
    if g.rank == root:
        if not isinstance(gather_list, list):
            raise _errors.InvalidType(f"gather: argument 'gather_list' expected a list "
                                      f"on the destination rank, got {type(gather_list).__name__}")
        out = _empty([g.nranks] + list(tensor.shape), tensor.dtype)
    task = g.process_group.gather(out, tensor, root, sync_op)
    if out is not None:
        gather_list.clear()
        gather_list.extend(out[i] for i in range(g.nranks))
    return _done(g, task, sync_op)


def reduce_scatter(tensor, tensor_list, op=ReduceOp.SUM, group=None, sync_op=True):
    _check_tensor(tensor, "tensor", "reduce_scatter")
    g = _resolve(group, "reduce_scatter")
    if not g.is_member():
        return None
    if isinstance(tensor_list, _C.Tensor):
        stacked = tensor_list  # Paddle's stream form: one tensor of nranks chunks
    else:
        stacked = _stacked(tensor_list, "tensor_list", "reduce_scatter")
        if len(tensor_list) != g.nranks:
            raise _errors.InvalidArgument(
                f"reduce_scatter: argument 'tensor_list' expected "
                f"{g.nranks} tensors (one per rank), got {len(tensor_list)}")
    task = g.process_group.reduce_scatter(tensor, stacked, _op(op, "reduce_scatter"), sync_op)
    return _done(g, task, sync_op)


def alltoall(in_tensor_list, out_tensor_list, group=None, sync_op=True):
    g = _resolve(group, "alltoall")
    if not g.is_member():
        return None
    stacked = _stacked(in_tensor_list, "in_tensor_list", "alltoall")
    if len(in_tensor_list) != g.nranks:
        raise _errors.InvalidArgument(
            f"alltoall: argument 'in_tensor_list' expected "
            f"{g.nranks} tensors (one per rank), got {len(in_tensor_list)}")
    if not isinstance(out_tensor_list, list):
        raise _errors.InvalidType(f"alltoall: argument 'out_tensor_list' expected a "
                                  f"list, got {type(out_tensor_list).__name__}")
    out = _empty(stacked.shape, stacked.dtype)
    task = g.process_group.all_to_all(out, stacked, [], [], sync_op)
    out_tensor_list.clear()
    out_tensor_list.extend(out[i] for i in range(g.nranks))
    return _done(g, task, sync_op)


def alltoall_single(in_tensor, out_tensor, in_split_sizes=None, out_split_sizes=None,
                    group=None, sync_op=True):
    _check_tensor(in_tensor, "in_tensor", "alltoall_single")
    _check_tensor(out_tensor, "out_tensor", "alltoall_single")
    g = _resolve(group, "alltoall_single")
    if not g.is_member():
        return None
    in_counts, out_counts = [], []
    if in_split_sizes or out_split_sizes:
        def counts(t, sizes, arg):
            sizes = list(sizes) if sizes else [t.shape[0] // g.nranks] * g.nranks
            if len(sizes) != g.nranks or sum(sizes) != (t.shape[0] if t.shape else 1):
                raise _errors.InvalidArgument(
                    f"alltoall_single: argument '{arg}' expected "
                    f"{g.nranks} sizes adding up to dim 0 ({t.shape[0]}), got {sizes}")
            row = int(np.prod(t.shape[1:])) if len(t.shape) > 1 else 1
            return [int(s) * row for s in sizes]
        in_counts = counts(in_tensor, in_split_sizes, "in_split_sizes")
        out_counts = counts(out_tensor, out_split_sizes, "out_split_sizes")
    task = g.process_group.all_to_all(out_tensor, in_tensor, out_counts, in_counts, sync_op)
    return _done(g, task, sync_op)


def send(tensor, dst=0, group=None, sync_op=True):
    _check_tensor(tensor, "tensor", "send")
    g = _resolve(group, "send")
    if not g.is_member():
        return None
    return _done(g, g.process_group.send(tensor, _local(g, dst, "dst", "send"), sync_op), sync_op)


def recv(tensor, src=0, group=None, sync_op=True):
    _check_tensor(tensor, "tensor", "recv")
    g = _resolve(group, "recv")
    if not g.is_member():
        return None
    return _done(g, g.process_group.recv(tensor, _local(g, src, "src", "recv"), sync_op), sync_op)


def isend(tensor, dst, group=None):
    return send(tensor, dst, group, sync_op=False)


def irecv(tensor, src=None, group=None):
    if src is None:
        raise _errors.InvalidArgument(
            "irecv: argument 'src' expected a rank (receiving "
            "from any source is not supported by the gloo backend), got None")
    return recv(tensor, src, group, sync_op=False)


def barrier(group=None):
    g = _resolve(group, "barrier")
    if not g.is_member():
        return None
    return g.process_group.barrier(True)


def wait(tensor, group=None, use_calc_stream=True):
    """Waits for the group's outstanding asynchronous operations (CPU has no streams)."""
    g = _resolve(group, "wait")
    pending, g._pending = g._pending, []
    for t in pending:
        t.wait()
