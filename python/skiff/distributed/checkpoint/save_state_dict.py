"""paddle.distributed.save_state_dict (Paddle 3.0's signature): every rank writes the pieces of
the state dict it owns to `<rank>_<id>.distcp` and the coordinator the metadata that maps each
key's pieces (global offset, shape, file) in `<id>.metadata` (formats in utils.py). A
replicated piece is written once, by the rank at coordinate 0 of the mesh dims that replicate
it; a dense tensor by the coordinator; a Partial tensor is reduced first. Collective: every rank
of the job calls it with the same keys."""
import os

from ... import _errors
from . import utils


def _gather(obj, group, use_dist):
    if not use_dist:
        return [obj]
    from ..collective import all_gather_object
    out = []
    all_gather_object(out, obj, group)
    return out


def _check_same_keys(keys, group, use_dist):
    every = _gather(keys, group, use_dist)
    for rank, ks in enumerate(every):
        if ks != every[0]:
            missing = sorted(set(every[0]) - set(ks))
            extra = sorted(set(ks) - set(every[0]))
            raise _errors.InvalidArgument(
                f"save_state_dict: every rank must save the same keys in the same order; rank "
                f"{rank} differs from rank 0 (missing {missing}, extra {extra}"
                f"{', order differs' if not missing and not extra else ''})")


def _reduced(t):
    """t without Partial placements (all-reduced), so each rank's piece is the value itself."""
    if not t.is_dist() or not any(p.is_partial() for p in t.placements):
        return t
    from ..auto_parallel.api import reshard
    from ..auto_parallel.placement_type import Replicate
    return reshard(t, t.process_mesh,
                   [Replicate() if p.is_partial() else p for p in t.placements])


def save_state_dict(state_dict, path, process_group=None, coordinator_rank=0, unique_id=None,
                    async_save=False):
    """Saves `state_dict` ({key: Tensor}, nested dicts allowed) under directory `path`."""
    from ... import no_grad, save
    from ..group import get_rank, get_world_size, is_initialized
    path = utils.check_path(path, "save_state_dict")
    flat = utils.flatten_state_dict(state_dict, "save_state_dict")
    if async_save:
        raise _errors.Unimplemented("save_state_dict: async_save=True (saving runs "
                                    "synchronously; pass async_save=False)")
    world = get_world_size(process_group)
    rank = get_rank(process_group)
    use_dist = world > 1 and is_initialized()
    if not isinstance(coordinator_rank, int) or not 0 <= coordinator_rank < max(world, 1):
        raise _errors.InvalidArgument(f"save_state_dict: coordinator_rank expected a rank in "
                                      f"[0, {world}), got {coordinator_rank!r}")
    _check_same_keys(list(flat), process_group, use_dist)
    os.makedirs(path, exist_ok=True)
    if unique_id is None:  # the first id no rank has used: every rank takes the largest
        uid = 0
        while os.path.exists(os.path.join(path, utils.data_file(rank, uid))) or \
                os.path.exists(os.path.join(path, utils.metadata_file(uid))):
            uid += 1
        unique_id = max(_gather(uid, process_group, use_dist))
    elif not isinstance(unique_id, int) or unique_id < 0:
        raise _errors.InvalidArgument(f"save_state_dict: unique_id expected an int >= 0 or "
                                      f"None, got {unique_id!r}")
    file_name = utils.data_file(rank, unique_id)
    pieces, local_meta = {}, {}
    with no_grad():
        for key, t in flat.items():
            t = _reduced(t)
            where = utils.region(t, rank)
            info = {"global_shape": list(t.shape), "dtype": utils.dtype_name(t), "pieces": []}
            local_meta[key] = info
            if where is None:
                continue
            offset, shape, owner = where
            if not t.is_dist():
                owner = rank == coordinator_rank
            if not owner or 0 in shape:
                continue
            pieces[key] = (t._local_value() if t.is_dist() else t).numpy()
            info["pieces"].append({"offset": offset, "shape": shape, "file": file_name})
    save(pieces, os.path.join(path, file_name))
    every = _gather(local_meta, process_group, use_dist)  # also: every data file is written
    if rank == coordinator_rank:
        tensors = {}
        for key in flat:
            merged = dict(every[0][key], pieces=[])
            for m in every:
                merged["pieces"].extend(m[key]["pieces"])
            tensors[key] = merged
        save({"version": utils.VERSION, "tensors": tensors},
             os.path.join(path, utils.metadata_file(unique_id)))
    if use_dist:  # no rank returns before the metadata names the checkpoint
        from ..collective import barrier
        barrier(process_group)
