"""skiff.io: datasets, samplers and the DataLoader (Paddle's paddle.io)."""
from .collate import default_collate_fn, default_convert_fn  # noqa: F401
from .dataloader import DataLoader  # noqa: F401
from .dataset import (ChainDataset, ComposeDataset, ConcatDataset, Dataset,  # noqa: F401
                      IterableDataset, Subset, TensorDataset, random_split)
from .sampler import (BatchSampler, RandomSampler, Sampler, SequenceSampler,  # noqa: F401
                      SubsetRandomSampler, WeightedRandomSampler)
from .distributed_sampler import DistributedBatchSampler  # noqa: F401
from .worker import get_worker_info  # noqa: F401

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "ConcatDataset", "Subset", "random_split", "Sampler", "SequenceSampler",
           "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler", "BatchSampler",
           "DistributedBatchSampler",
           "DataLoader", "get_worker_info", "default_collate_fn", "default_convert_fn"]
