"""paddle.distributed.load_state_dict (Paddle 3.0's signature): fills the tensors of
`state_dict` in place from a checkpoint save_state_dict wrote, whatever the mesh and placements
were at save time: each rank computes the region of every target tensor it holds (its local
piece, or the whole of a dense tensor), reads the saved pieces that overlap it and copies the
overlaps, so values move bit for bit (mp2 -> dp2, dp2 x mp2 -> mp4 -> one process). The files
are read directly (every rank must see `path`, as on one machine or a shared file system) and
through paddle.load's restricted unpickler: loading runs no code. No collective is needed."""
import os

import numpy as np

from ... import _errors
from . import utils


def _metadata(path, unique_id):
    ids = utils.metadata_ids(path)
    if not os.path.isdir(path):
        raise _errors.NotFound(f"load_state_dict: the checkpoint directory '{path}' does not "
                               f"exist")
    if unique_id is None:
        if not ids:
            raise _errors.NotFound(f"load_state_dict: no checkpoint in '{path}' (no "
                                   f"<unique_id>.metadata file)")
        unique_id = ids[-1]
    elif unique_id not in ids:
        raise _errors.NotFound(f"load_state_dict: no checkpoint with unique_id {unique_id} in "
                               f"'{path}' (found {ids})")
    from ... import load
    where = os.path.join(path, utils.metadata_file(unique_id))
    meta = load(where, return_numpy=True)
    if not isinstance(meta, dict) or meta.get("version") != utils.VERSION or \
            not isinstance(meta.get("tensors"), dict):
        raise _errors.InvalidArgument(f"load_state_dict: '{where}' is not a version "
                                      f"{utils.VERSION} checkpoint metadata file")
    return meta["tensors"]


class _Files:
    """The data files, each read once and only when a piece in it is needed."""

    def __init__(self, path):
        self.path, self.loaded = path, {}

    def piece(self, name, key):
        if name not in self.loaded:
            where = os.path.join(self.path, name)
            if not os.path.isfile(where):
                raise _errors.NotFound(f"load_state_dict: the checkpoint's data file '{where}' "
                                       f"is missing")
            from ... import load
            data = load(where, return_numpy=True)
            self.loaded[name] = data if isinstance(data, dict) else {}
        value = self.loaded[name].get(key)
        if not isinstance(value, np.ndarray):
            raise _errors.InvalidArgument(f"load_state_dict: the data file '{name}' lacks the "
                                          f"piece of '{key}' its metadata names")
        return value


def _check_target(key, t, info):
    shape = list(t.shape)
    if list(info["global_shape"]) != shape:
        raise _errors.InvalidArgument(f"load_state_dict: '{key}' has shape {shape}, the "
                                      f"checkpoint holds {list(info['global_shape'])}")
    if info["dtype"] != utils.dtype_name(t):
        raise _errors.InvalidArgument(f"load_state_dict: '{key}' has dtype "
                                      f"{utils.dtype_name(t)}, the checkpoint holds "
                                      f"{info['dtype']}")
    if not t.is_dist():
        return
    if any(p.is_partial() for p in t.placements):
        raise _errors.Unimplemented(f"load_state_dict: '{key}' is Partial ({t.placements}); "
                                    f"load into a tensor without Partial placements")


def _fill(key, offset, shape, info, files):
    """The region [offset, offset + shape) of `key`, assembled from the saved pieces."""
    out = np.empty(shape, dtype=info["dtype"])
    covered = 0
    for p in info["pieces"]:
        lo = [max(a, b) for a, b in zip(offset, p["offset"])]
        hi = [min(a + n, b + m) for a, n, b, m in zip(offset, shape, p["offset"], p["shape"])]
        if any(h <= l for l, h in zip(lo, hi)):
            continue
        value = files.piece(p["file"], key)
        src = tuple(slice(l - b, h - b) for l, h, b in zip(lo, hi, p["offset"]))
        dst = tuple(slice(l - a, h - a) for l, h, a in zip(lo, hi, offset))
        out[dst] = value[src]
        covered += int(np.prod([h - l for l, h in zip(lo, hi)]))
    if covered != int(np.prod(shape)):
        raise _errors.InvalidArgument(f"load_state_dict: the checkpoint's pieces of '{key}' "
                                      f"cover {covered} of the {int(np.prod(shape))} elements "
                                      f"at offset {offset}, shape {shape}")
    return out


def load_state_dict(state_dict, path, process_group=None, coordinator_rank=0, unique_id=None,
                    offload=False):
    """Loads the checkpoint under `path` (the newest unless unique_id) into `state_dict`'s
    tensors in place. offload is accepted for Paddle's signature: tensors live on the CPU."""
    from ... import no_grad
    from ..group import get_rank
    path = utils.check_path(path, "load_state_dict")
    flat = utils.flatten_state_dict(state_dict, "load_state_dict")
    tensors = _metadata(path, unique_id)
    missing = [k for k in flat if k not in tensors]
    if missing:
        raise _errors.InvalidArgument(f"load_state_dict: keys {missing} are not in the "
                                      f"checkpoint at '{path}' (it holds {sorted(tensors)})")
    rank = get_rank(process_group)
    for key, t in flat.items():
        _check_target(key, t, tensors[key])
    files = _Files(path)
    with no_grad():
        for key, t in flat.items():
            where = utils.region(t, rank)
            if where is None:
                continue
            offset, shape, _ = where
            value = _fill(key, offset, shape, tensors[key], files)
            (t._local_value() if t.is_dist() else t).set_value(value)
