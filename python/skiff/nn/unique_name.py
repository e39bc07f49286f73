"""Unique names for layers and parameters, Paddle's scheme: `linear_0`, `linear_0.w_0`."""
import collections
import contextlib

_counters = collections.defaultdict(int)


def generate(key):
    n = _counters[key]
    _counters[key] += 1
    return f"{key}_{n}"


@contextlib.contextmanager
def guard(new_generator=None):
    """Fresh counters inside the block (Paddle's unique_name.guard)."""
    global _counters
    saved = _counters
    _counters = collections.defaultdict(int)
    try:
        yield
    finally:
        _counters = saved


def switch(new_generator=None):
    global _counters
    old = _counters
    _counters = collections.defaultdict(int) if new_generator is None else new_generator
    return old
