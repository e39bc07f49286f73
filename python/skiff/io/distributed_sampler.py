"""paddle.io.DistributedBatchSampler: the batches of one rank of a data-parallel job.

The index list 0..n-1 is padded by repeating its head to num_replicas * ceil(n / num_replicas)
indices, shuffled (shuffle=True) with numpy's RandomState(epoch), which every rank seeds alike,
and dealt out in rounds: in each full round of batch_size * num_replicas indices, rank r takes
the r-th run of batch_size; the incomplete last round is split evenly. So the ranks' batches
are disjoint and the same on every rank, as in Paddle. Without num_replicas/rank the job's
world size and rank come from paddle.distributed's environment.
"""
import math

import numpy as np

from .sampler import BatchSampler


def deal_rounds(indices, batch_size, nranks, rank):
    """Rank `rank`'s share of `indices` (a multiple of nranks long): in each full round of
    batch_size * nranks indices the rank-th run of batch_size, then its even share of the
    incomplete last round. Round k of all ranks together is indices[k*b*n:(k+1)*b*n], so the
    ranks' k-th batches make up the k-th batch of batch_size * nranks in one process."""
    b, n = batch_size, nranks
    tail = len(indices) % (b * n)
    mine = []
    for start in range(rank * b, len(indices) - tail, b * n):
        mine.extend(indices[start:start + b])
    share = tail // n
    last = indices[len(indices) - tail:]
    mine.extend(last[rank * share:(rank + 1) * share])
    return mine


class DistributedBatchSampler(BatchSampler):
    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False,
                 drop_last=False):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("DistributedBatchSampler: argument 'batch_size' expected a positive "
                             f"integer, got {batch_size!r}")
        if not isinstance(shuffle, bool):
            raise TypeError(f"DistributedBatchSampler: argument 'shuffle' expected a bool, got "
                            f"{shuffle!r}")
        if not isinstance(drop_last, bool):
            raise TypeError(f"DistributedBatchSampler: argument 'drop_last' expected a bool, got "
                            f"{drop_last!r}")
        if num_replicas is None or rank is None:
            from ..distributed.env import ParallelEnv
            env = ParallelEnv()
        if num_replicas is None:
            num_replicas = env.world_size
        elif not isinstance(num_replicas, int) or num_replicas <= 0:
            raise ValueError("DistributedBatchSampler: argument 'num_replicas' expected a "
                             f"positive integer, got {num_replicas!r}")
        if rank is None:
            rank = env.rank
        elif not isinstance(rank, int) or not 0 <= rank < num_replicas:
            raise ValueError(f"DistributedBatchSampler: argument 'rank' expected an integer in "
                             f"[0, {num_replicas}), got {rank!r}")
        self.dataset = dataset
        self.sampler = None
        self.batch_size, self.shuffle, self.drop_last = batch_size, shuffle, drop_last
        self.nranks, self.local_rank = num_replicas, rank
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / num_replicas))
        self.total_size = self.num_samples * num_replicas

    def _rank_indices(self, indices):
        """This rank's share of the padded, possibly shuffled index list."""
        return deal_rounds(indices, self.batch_size, self.nranks, self.local_rank)

    def __iter__(self):
        n = len(self.dataset)
        indices = list(range(n))
        indices += indices[:self.total_size - n]
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks > 1:
            indices = self._rank_indices(indices)
        batch = []
        for idx in indices:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        extra = 0 if self.drop_last else self.batch_size - 1
        return (self.num_samples + extra) // self.batch_size

    def set_epoch(self, epoch):
        """The shuffle of the next pass uses `epoch` as its seed (call it once per epoch)."""
        self.epoch = epoch
