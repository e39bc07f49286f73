"""Shared by save_state_dict and load_state_dict: the checkpoint's file names, the flattening of
nested state dicts, and the region of the global tensor a rank holds.

A checkpoint `<path>` with unique id U is the files `<rank>_U.distcp` (one per rank: a dict key
-> numpy array of the pieces this rank owns) and `U.metadata` (written by the coordinator after
every data file: {"version": 1, "tensors": {key: {"global_shape", "dtype", "pieces":
[{"offset", "shape", "file"}]}}}), all written by paddle.save (atomic rename) and read by
paddle.load, whose restricted unpickler builds only arrays, containers and scalars: loading
runs no code from the files."""
import os
import re

from ... import _errors

VERSION = 1
_METADATA = re.compile(r"^(\d+)\.metadata$")


def data_file(rank, unique_id):
    return f"{rank}_{unique_id}.distcp"


def metadata_file(unique_id):
    return f"{unique_id}.metadata"


def metadata_ids(path):
    """The unique ids of the checkpoints in directory `path` (those with a metadata file)."""
    if not os.path.isdir(path):
        return []
    return sorted(int(m.group(1)) for m in map(_METADATA.match, os.listdir(path)) if m)


def check_path(path, what):
    if not isinstance(path, (str, os.PathLike)):
        raise _errors.InvalidType(f"{what}: argument 'path' expected a str or os.PathLike "
                                  f"directory, got {type(path).__name__}")
    return os.fspath(path)


def flatten_state_dict(state_dict, what):
    """{key: Tensor} with nested dicts' keys joined by '.', in insertion order."""
    from ... import Tensor
    if not isinstance(state_dict, dict):
        raise _errors.InvalidType(f"{what}: argument 'state_dict' expected a dict, got "
                                  f"{type(state_dict).__name__}")
    flat = {}

    def walk(d, prefix):
        for k, v in d.items():
            key = f"{prefix}{k}"
            if isinstance(v, dict):
                walk(v, key + ".")
                continue
            if not isinstance(v, Tensor):
                raise _errors.InvalidType(f"{what}: state_dict['{key}'] expected a paddle.Tensor,"
                                          f" got {type(v).__name__}")
            if key in flat:
                raise _errors.InvalidArgument(f"{what}: the key '{key}' appears twice after "
                                              f"flattening nested dicts")
            flat[key] = v
    walk(state_dict, "")
    return flat


def mesh_coord(mesh, rank):
    """rank's coordinate on `mesh`, or None when the mesh does not hold it."""
    if not mesh.contains(rank):
        return None
    flat = list(mesh.process_ids).index(rank)
    coord = []
    for n in reversed(mesh.shape):
        coord.append(flat % n)
        flat //= n
    return coord[::-1]


def region(t, rank):
    """(offset, shape, owner) of the piece of `t` that `rank` holds (Paddle's ceil-sized
    shards); owner: the rank is at coordinate 0 on every mesh dim that does not shard `t`, so
    it, and no other rank, saves the piece. None for a dist tensor whose mesh lacks the rank."""
    shape = list(t.shape)
    if not t.is_dist():
        return [0] * len(shape), shape, True
    mesh = t.process_mesh
    coord = mesh_coord(mesh, rank)
    if coord is None:
        return None
    offset, local, owner = [0] * len(shape), list(shape), True
    for axis, p in enumerate(t.placements):
        if not p.is_shard():
            owner = owner and coord[axis] == 0
            continue
        d = p.get_dim()
        chunk = -(-shape[d] // mesh.shape[axis])
        begin = min(coord[axis] * chunk, shape[d])
        offset[d], local[d] = begin, min(begin + chunk, shape[d]) - begin
    return offset, local, owner


def dtype_name(t):
    return str(t.dtype).replace("paddle.", "")
