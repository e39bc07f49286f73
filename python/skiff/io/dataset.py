"""Datasets (Paddle's paddle.io.Dataset family)."""
import bisect
import math

import numpy as np


class Dataset:
    """A map-style dataset: implement __getitem__(idx) and __len__()."""

    def __getitem__(self, idx):
        raise NotImplementedError(f"'{type(self).__name__}' does not implement __getitem__")

    def __len__(self):
        raise NotImplementedError(f"'{type(self).__name__}' does not implement __len__")


class IterableDataset(Dataset):
    """A stream dataset: implement __iter__(). With num_workers > 0 every worker iterates its own
    copy; split the stream with paddle.io.get_worker_info() (as Paddle documents)."""

    def __iter__(self):
        raise NotImplementedError(f"'{type(self).__name__}' does not implement __iter__")

    def __getitem__(self, idx):
        raise RuntimeError(f"'{type(self).__name__}' is an IterableDataset and has no __getitem__")

    def __len__(self):
        raise RuntimeError(f"'{type(self).__name__}' is an IterableDataset and has no __len__")


class TensorDataset(Dataset):
    """Samples are rows of the given tensors (all with the same first dimension)."""

    def __init__(self, tensors):
        tensors = list(tensors)
        if not tensors:
            raise ValueError("TensorDataset: argument 'tensors' expected at least one tensor, "
                             "got 0")
        n = tensors[0].shape[0]
        for i, t in enumerate(tensors):
            if t.shape[0] != n:
                raise ValueError("TensorDataset: argument 'tensors' expected the same first "
                                 f"dimension {n}, got {t.shape[0]} for tensor {i}")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class ComposeDataset(Dataset):
    """Zips map-style datasets of equal length: sample i is the concatenation of their samples."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ComposeDataset: argument 'datasets' expected at least one dataset")
        n = len(self.datasets[0])
        for d in self.datasets:
            if len(d) != n:
                raise ValueError("ComposeDataset: argument 'datasets' expected equal lengths, "
                                 f"got {[len(x) for x in self.datasets]}")

    def __len__(self):
        return len(self.datasets[0])

    def __getitem__(self, idx):
        out = []
        for d in self.datasets:
            s = d[idx]
            out.extend(s if isinstance(s, (list, tuple)) else [s])
        return tuple(out)


class ChainDataset(IterableDataset):
    """Chains iterable datasets one after the other."""

    def __init__(self, datasets):
        self.datasets = list(datasets)

    def __iter__(self):
        for d in self.datasets:
            yield from d


class ConcatDataset(Dataset):
    """Concatenates map-style datasets."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ConcatDataset: argument 'datasets' expected at least one dataset")
        self.cumulative_sizes = list(np.cumsum([len(d) for d in self.datasets]))

    def __len__(self):
        return int(self.cumulative_sizes[-1])

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise IndexError(f"ConcatDataset: index {idx} out of range for length {len(self)}")
            idx = len(self) + idx
        d = bisect.bisect_right(self.cumulative_sizes, idx)
        start = 0 if d == 0 else self.cumulative_sizes[d - 1]
        return self.datasets[d][idx - start]


class Subset(Dataset):
    """The samples of `dataset` at `indices`."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = list(indices)

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Splits into non-overlapping Subsets of the given lengths (or fractions summing to 1)."""
    n = len(dataset)
    lengths = list(lengths)
    if lengths and all(0 <= f <= 1 for f in lengths) and math.isclose(sum(lengths), 1) \
            and sum(lengths) != n:
        counts = [int(math.floor(n * f)) for f in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("random_split: argument 'lengths' expected to sum to the dataset length "
                         f"{n}, got {sum(lengths)}")
    from .sampler import _permutation
    perm = _permutation(n, generator)
    out, offset = [], 0
    for length in lengths:
        out.append(Subset(dataset, perm[offset:offset + length].tolist()))
        offset += length
    return out
