"""DataLoader (Paddle's paddle.io.DataLoader, dynamic-graph mode)."""
import itertools
import multiprocessing
import queue
import time

import numpy as np

from ..profiler.timer import benchmark as _benchmark
from ..profiler.utils import RecordEvent as _ProfilerEvent, TracerEventType as _EventType
from . import collate as _collate
from .dataset import IterableDataset
from .sampler import BatchSampler
from .worker import _IterableEnd, _WorkerError, worker_loop


class _Collator:
    """Builds a numpy batch from samples with the user's collate_fn (Tensors in its result travel
    as arrays) or the default numpy collation."""

    def __init__(self, collate_fn, batched):
        self.collate_fn = collate_fn
        self.batched = batched

    def __call__(self, samples):
        if self.collate_fn is not None:
            return _collate.convert_numpy(self.collate_fn(samples))
        if self.batched:
            return _collate.collate_numpy(samples)
        return _collate.convert_numpy(samples)


def _timed(it, name):
    """Yields from `it`, each wait for a batch a Dataloader range for the profiler and a reader
    cost for its step timer."""
    event = _ProfilerEvent(name, _EventType.Dataloader)
    bench = _benchmark()
    while True:
        bench.before_reader()
        event.begin()
        try:
            batch = next(it)
        except StopIteration:
            return
        finally:
            event.end()
            bench.after_reader()
        yield batch


class DataLoader:
    """Iterates over batches of a dataset.

    Paddle's signature: DataLoader(dataset, feed_list=None, places=None, return_list=True,
    batch_sampler=None, batch_size=1, shuffle=False, drop_last=False, collate_fn=None,
    num_workers=0, use_buffer_reader=True, prefetch_factor=2, use_shared_memory=True, timeout=0,
    worker_init_fn=None, persistent_workers=False). Batches are lists (or dicts) of Tensors.
    With num_workers > 0, samples are loaded and collated in forked worker processes and sent as
    numpy arrays; batches come back in sampler order."""

    def __init__(self, dataset, feed_list=None, places=None, return_list=True, batch_sampler=None,
                 batch_size=1, shuffle=False, drop_last=False, collate_fn=None, num_workers=0,
                 use_buffer_reader=True, prefetch_factor=2, use_shared_memory=True, timeout=0,
                 worker_init_fn=None, persistent_workers=False):
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError("DataLoader: argument 'num_workers' expected a non-negative integer, "
                             f"got {num_workers!r}")
        if timeout < 0:
            raise ValueError(f"DataLoader: argument 'timeout' expected >= 0, got {timeout}")
        if prefetch_factor < 1:
            raise ValueError("DataLoader: argument 'prefetch_factor' expected >= 1, got "
                             f"{prefetch_factor}")
        self.dataset = dataset
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ValueError("DataLoader: an IterableDataset cannot be shuffled "
                                 "(argument 'shuffle' must be False)")
            if batch_sampler is not None:
                raise ValueError("DataLoader: an IterableDataset does not take a batch_sampler")
            self.batch_sampler = None
            self.batch_size = batch_size
            self.drop_last = drop_last
        elif batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError("DataLoader: 'batch_size', 'shuffle' and 'drop_last' must keep "
                                 "their defaults when a batch_sampler is given")
            self.batch_sampler = batch_sampler
            self.batch_size = None if batch_sampler is None else getattr(batch_sampler,
                                                                         "batch_size", 1)
            self.drop_last = getattr(batch_sampler, "drop_last", False)
        elif batch_size is None:
            if drop_last:
                raise ValueError("DataLoader: 'drop_last' needs batching (batch_size is None)")
            self.batch_sampler = None
            self.batch_size = None
            self.drop_last = False
        else:
            self.batch_sampler = BatchSampler(dataset=dataset, batch_size=batch_size,
                                              shuffle=shuffle, drop_last=drop_last)
            self.batch_size = batch_size
            self.drop_last = drop_last
        self._batched = self.batch_size is not None or batch_sampler is not None

    def __len__(self):
        if self._iterable:
            raise TypeError("DataLoader: the length of a DataLoader over an IterableDataset is "
                            "unknown")
        if self.batch_sampler is None:
            return len(self.dataset)
        return len(self.batch_sampler)

    def _index_batches(self):
        if self.batch_sampler is not None:
            return iter(self.batch_sampler)
        return iter(range(len(self.dataset)))

    def __iter__(self):
        collator = _Collator(self.collate_fn, self._batched)
        if self.num_workers == 0:
            return _timed(self._single_process(collator), "_DataLoaderIterSingleProcess")
        return _timed(_MultiProcessIter(self, collator), "_DataLoaderIterMultiProcess")

    def __call__(self):
        return self.__iter__()

    def _single_process(self, collator):
        if self._iterable:
            it = iter(self.dataset)
            if self.batch_size is None:
                for s in it:
                    yield _collate.to_tensors(collator(s))
                return
            while True:
                samples = list(itertools.islice(it, self.batch_size))
                if not samples or (self.drop_last and len(samples) < self.batch_size):
                    return
                yield _collate.to_tensors(collator(samples))
        else:
            for indices in self._index_batches():
                if self._batched:
                    samples = [self.dataset[i] for i in indices]
                else:
                    samples = self.dataset[indices]
                yield _collate.to_tensors(collator(samples))


class _MultiProcessIter:
    """One epoch over forked workers. Map-style: batch k goes to worker k % n, at most
    prefetch_factor * n batches are in flight, results are reordered. Iterable: every worker
    fills batches from its own iterator until all report the end."""

    def __init__(self, loader, collator):
        self._loader = loader
        n = loader.num_workers
        ctx = multiprocessing.get_context("fork")
        self._result_queue = ctx.Queue()
        self._index_queues = []
        self._workers = []
        base_seed = int(np.random.randint(0, 2**31 - 1))
        for wid in range(n):
            iq = ctx.Queue()
            w = ctx.Process(target=worker_loop,
                            args=(loader.dataset, loader._iterable, iq, self._result_queue,
                                  collator, loader.batch_size if loader._batched else None,
                                  loader.drop_last, wid, n, base_seed + wid,
                                  loader.worker_init_fn),
                            daemon=True)
            w.start()
            self._index_queues.append(iq)
            self._workers.append(w)
        self._indices = None if loader._iterable else loader._index_batches()
        self._send_idx = 0
        self._recv_idx = 0
        self._buffer = {}
        self._ended_workers = set()
        self._shutdown = False
        for _ in range(loader.prefetch_factor * n):
            if not self._dispatch():
                break

    def _dispatch(self):
        """Sends the next task; False when there is none."""
        loader = self._loader
        n = loader.num_workers
        if loader._iterable:
            alive = [w for w in range(n) if w not in self._ended_workers]
            if not alive:
                return False
            wid = alive[self._send_idx % len(alive)]
            task = (self._send_idx, None)
        else:
            try:
                task = (self._send_idx, next(self._indices))
            except StopIteration:
                return False
            wid = self._send_idx % n
        self._index_queues[wid].put(task)
        self._send_idx += 1
        return True

    def __iter__(self):
        return self

    def _get(self):
        deadline = None if not self._loader.timeout else time.monotonic() + self._loader.timeout
        while True:
            try:
                return self._result_queue.get(timeout=0.5)
            except queue.Empty:
                dead = [i for i, w in enumerate(self._workers) if not w.is_alive()]
                if dead:
                    self._close()
                    raise RuntimeError(f"DataLoader: worker {dead[0]} exited unexpectedly "
                                       f"(exit code {self._workers[dead[0]].exitcode})")
                if deadline is not None and time.monotonic() > deadline:
                    self._close()
                    raise RuntimeError("DataLoader: no batch from the workers within "
                                       f"timeout={self._loader.timeout} s")

    def __next__(self):
        if self._shutdown:
            raise StopIteration
        loader = self._loader
        while True:
            if loader._iterable:
                if len(self._ended_workers) == loader.num_workers and self._recv_idx >= \
                        self._send_idx:
                    self._close()
                    raise StopIteration
                if self._recv_idx >= self._send_idx and not self._dispatch():
                    self._close()
                    raise StopIteration
                idx, data = self._get()
                self._recv_idx += 1
                if isinstance(data, _WorkerError):
                    self._raise(data)
                if isinstance(data, _IterableEnd):
                    self._ended_workers.add(data.worker_id)
                    continue
                self._dispatch()
                return _collate.to_tensors(data)
            if self._recv_idx in self._buffer:
                data = self._buffer.pop(self._recv_idx)
            elif self._recv_idx >= self._send_idx:
                self._close()
                raise StopIteration
            else:
                idx, data = self._get()
                if isinstance(data, _WorkerError):
                    self._raise(data)
                if idx != self._recv_idx:
                    self._buffer[idx] = data
                    continue
            self._recv_idx += 1
            self._dispatch()
            return _collate.to_tensors(data)

    def _raise(self, err):
        self._close()
        raise RuntimeError(f"DataLoader worker {err.worker_id} raised {err.type_name}:\n"
                           f"{err.text}")

    def _close(self):
        if self._shutdown:
            return
        self._shutdown = True
        for q in self._index_queues:
            try:
                q.put(None)
            except (OSError, ValueError):
                pass
        for w in self._workers:
            w.join(timeout=2.0)
            if w.is_alive():
                w.terminate()
                w.join(timeout=1.0)
        self._result_queue.cancel_join_thread()
        for q in self._index_queues:
            q.cancel_join_thread()

    def __del__(self):
        try:
            self._close()
        except Exception:  # noqa: BLE001 - queues may be gone at interpreter shutdown
            pass
