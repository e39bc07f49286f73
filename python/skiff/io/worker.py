"""Worker processes of the DataLoader."""
import queue
import random

import numpy as np


class WorkerInfo:
    """What get_worker_info() returns inside a worker: id, num_workers, dataset, seed."""

    def __init__(self, id, num_workers, dataset, seed):
        self.id = id
        self.num_workers = num_workers
        self.dataset = dataset
        self.seed = seed

    def __repr__(self):
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


_worker_info = None


def get_worker_info():
    """The WorkerInfo of the current DataLoader worker process, or None in the main process."""
    return _worker_info


class _IterableEnd:
    """Sent by a worker whose IterableDataset copy is exhausted."""

    def __init__(self, worker_id):
        self.worker_id = worker_id


class _WorkerError:
    """An exception raised in a worker, carried to the main process as text."""

    def __init__(self, worker_id, exc):
        import traceback
        self.worker_id = worker_id
        self.type_name = type(exc).__name__
        self.text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def worker_loop(dataset, iterable, index_queue, result_queue, collate, batch_size, drop_last,
                worker_id, num_workers, seed, worker_init_fn):
    """Runs in a child process: fetch indices (or pull from the dataset's iterator), build a
    batch, send (batch_idx, numpy batch). A None index ends the loop."""
    global _worker_info
    _worker_info = WorkerInfo(worker_id, num_workers, dataset, seed)
    np.random.seed(seed % (2**32))
    random.seed(seed)
    try:
        if worker_init_fn is not None:
            worker_init_fn(worker_id)
        it = iter(dataset) if iterable else None
    except Exception as e:  # noqa: BLE001 - reported to the main process
        result_queue.put((-1, _WorkerError(worker_id, e)))
        return
    exhausted = False
    while True:
        try:
            task = index_queue.get(timeout=1.0)
        except queue.Empty:
            continue
        if task is None:
            break
        batch_idx, indices = task
        if exhausted:
            result_queue.put((batch_idx, _IterableEnd(worker_id)))
            continue
        try:
            if iterable:
                samples = []
                n = 1 if batch_size is None else batch_size
                for _ in range(n):
                    try:
                        samples.append(next(it))
                    except StopIteration:
                        exhausted = True
                        break
                if not samples or (exhausted and drop_last and len(samples) < n):
                    result_queue.put((batch_idx, _IterableEnd(worker_id)))
                    continue
                data = collate(samples[0] if batch_size is None else samples)
            else:
                if batch_size is None:
                    data = collate(dataset[indices])
                else:
                    data = collate([dataset[i] for i in indices])
        except Exception as e:  # noqa: BLE001 - reported to the main process
            data = _WorkerError(worker_id, e)
        result_queue.put((batch_idx, data))
