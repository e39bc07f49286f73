"""Batch collation: samples -> batch (Paddle's default_collate_fn / default_convert_fn).

Collation happens in numpy (so worker processes send plain arrays through pipes); the loader then
turns arrays into Tensors in the main process."""
import numbers
from collections.abc import Mapping, Sequence

import numpy as np


def _is_tensor(x):
    from .. import Tensor
    return isinstance(x, Tensor)


def collate_numpy(batch):
    """Stacks a list of samples into numpy arrays, recursing into dicts and sequences."""
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if _is_tensor(sample):
        return np.stack([np.asarray(s) for s in batch], axis=0)
    if isinstance(sample, (bool, np.bool_)):
        return np.array(batch, dtype=np.bool_)
    if isinstance(sample, numbers.Integral):
        return np.array(batch, dtype=np.int64)
    if isinstance(sample, numbers.Number):
        return np.array(batch, dtype=np.float32 if isinstance(sample, float) else None)
    if isinstance(sample, np.generic):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {k: collate_numpy([d[k] for d in batch]) for k in sample}
    if isinstance(sample, Sequence):
        n = len(sample)
        for s in batch:
            if len(s) != n:
                raise RuntimeError("default_collate_fn: every sample in a batch must have the same "
                                   f"number of fields, got {n} and {len(s)}")
        return [collate_numpy(list(fields)) for fields in zip(*batch)]
    raise TypeError("default_collate_fn: batch data can only contain numpy arrays, Tensors, "
                    f"numbers, strings, dicts and lists, got {type(sample).__name__}")


def convert_numpy(sample):
    """Like collate_numpy for a single, unbatched sample (batch_size=None)."""
    if _is_tensor(sample):
        return sample.numpy()
    if isinstance(sample, Mapping):
        return {k: convert_numpy(v) for k, v in sample.items()}
    if isinstance(sample, Sequence) and not isinstance(sample, (str, bytes)):
        return [convert_numpy(s) for s in sample]
    return sample


def to_tensors(data):
    """numpy arrays (and numpy scalars) -> Tensors, recursively; other leaves unchanged."""
    if isinstance(data, np.ndarray):
        from .. import to_tensor
        if data.dtype.kind in "OSU":
            return data
        return to_tensor(data)
    if isinstance(data, Mapping):
        return {k: to_tensors(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [to_tensors(x) for x in data]
    return data


def default_collate_fn(batch):
    """Paddle's default: stacks fields of the samples into Tensors ([batch, ...])."""
    return to_tensors(collate_numpy(batch))


def default_convert_fn(batch):
    """Paddle's default for batch_size=None: converts a sample's arrays to Tensors."""
    return to_tensors(convert_numpy(batch))
