"""Samplers (Paddle's paddle.io.Sampler family)."""
import numpy as np


def _permutation(n, generator=None):
    """A permutation of range(n) from numpy's global generator, as Paddle's RandomSampler does
    (np.random.seed makes it repeatable), or from `generator` (numpy Generator/RandomState or an
    int seed)."""
    if generator is None:
        return np.random.permutation(n)
    if isinstance(generator, int):
        return np.random.default_rng(generator).permutation(n)
    return generator.permutation(n)


class Sampler:
    """Iterates over sample indices of `data_source`."""

    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError(f"'{type(self).__name__}' does not implement __iter__")


class SequenceSampler(Sampler):
    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """Random order; with `replacement`, `num_samples` indices drawn with replacement."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        super().__init__(data_source)
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not replacement and num_samples is not None:
            raise ValueError("RandomSampler: argument 'num_samples' is only allowed with "
                             "replacement=True")
        if num_samples is not None and num_samples <= 0:
            raise ValueError("RandomSampler: argument 'num_samples' expected a positive integer, "
                             f"got {num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.replacement:
            rng = np.random if self.generator is None else self.generator
            draw = rng.integers if hasattr(rng, "integers") else rng.randint
            return iter(draw(0, n, self.num_samples).tolist())
        return iter(_permutation(n, self.generator).tolist())

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    def __init__(self, indices):
        super().__init__(None)
        self.indices = list(indices)

    def __iter__(self):
        perm = _permutation(len(self.indices))
        return iter([self.indices[i] for i in perm])

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    def __init__(self, weights, num_samples, replacement=True):
        super().__init__(None)
        w = np.asarray(weights.numpy() if hasattr(weights, "numpy") else weights, dtype=np.float64)
        if w.ndim != 1 or (w < 0).any() or w.sum() <= 0:
            raise ValueError("WeightedRandomSampler: argument 'weights' expected a 1-D sequence "
                             "of non-negative numbers with a positive sum")
        if not replacement and num_samples > len(w):
            raise ValueError("WeightedRandomSampler: argument 'num_samples' expected <= "
                             f"len(weights) = {len(w)} without replacement, got {num_samples}")
        self.weights = w / w.sum()
        self.num_samples = num_samples
        self.replacement = replacement

    def __iter__(self):
        idx = np.random.choice(len(self.weights), self.num_samples, replace=self.replacement,
                                 p=self.weights)
        return iter(idx.tolist())

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups indices into batches (Paddle: BatchSampler(dataset=None, sampler=None, shuffle=False,
    batch_size=1, drop_last=False)); give either `dataset` or `sampler`."""

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1, drop_last=False):
        if dataset is None and sampler is None:
            raise ValueError("BatchSampler: one of 'dataset' and 'sampler' must be given")
        if dataset is not None and sampler is not None:
            raise ValueError("BatchSampler: give either 'dataset' or 'sampler', not both")
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("BatchSampler: argument 'batch_size' expected a positive integer, "
                             f"got {batch_size!r}")
        if not isinstance(shuffle, bool):
            raise TypeError(f"BatchSampler: argument 'shuffle' expected a bool, got {shuffle!r}")
        if not isinstance(drop_last, bool):
            raise TypeError("BatchSampler: argument 'drop_last' expected a bool, got "
                            f"{drop_last!r}")
        if sampler is None:
            from .dataset import IterableDataset
            if isinstance(dataset, IterableDataset):
                raise ValueError("BatchSampler: an IterableDataset cannot be batched by index")
            sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        elif shuffle:
            raise ValueError("BatchSampler: argument 'shuffle' must be False when a sampler is "
                             "given")
        self.sampler = sampler
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        if self.drop_last:
            return n // self.batch_size
        return (n + self.batch_size - 1) // self.batch_size
