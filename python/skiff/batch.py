"""paddle.batch: the reader decorator of Paddle's reader API. `reader` is a function returning
an iterable of samples; the result is such a function too, yielding lists of batch_size samples
(the last one shorter unless drop_last)."""


def batch(reader, batch_size, drop_last=False):
    batch_size = int(batch_size)
    if batch_size <= 0:
        raise ValueError(f"batch: batch_size should be a positive integer value, but got "
                         f"batch_size={batch_size}")

    def batch_reader():
        pending = []
        for sample in reader():
            pending.append(sample)
            if len(pending) == batch_size:
                yield pending
                pending = []
        if pending and not drop_last:
            yield pending

    return batch_reader
