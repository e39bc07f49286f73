"""Unique names for layers and parameters, Paddle's scheme: `linear_0`, `linear_0.w_0`
(paddle.utils.unique_name: generate, guard, switch)."""
import collections
import contextlib

__all__ = ["generate", "guard", "switch", "UniqueNameGenerator"]


class UniqueNameGenerator:
    """Counts per key: generate('fc') gives 'fc_0', then 'fc_1'; names start with `prefix`."""

    def __init__(self, prefix=None):
        self.ids = collections.defaultdict(int)
        self.prefix = "" if prefix is None else prefix

    def __call__(self, key):
        n = self.ids[key]
        self.ids[key] += 1
        return f"{self.prefix}{key}_{n}"


_generator = UniqueNameGenerator()


def generate(key):
    """A name made of `key` and its next count under the current generator: 'fc_0'."""
    return _generator(key)


def switch(new_generator=None, new_para_name_checker=None):
    """Makes `new_generator` (a fresh one when None) current; returns the previous one."""
    global _generator
    old = _generator
    if new_generator is None:
        new_generator = UniqueNameGenerator()
    elif not isinstance(new_generator, UniqueNameGenerator):
        raise TypeError(f"unique_name.switch: argument 'new_generator' expected a "
                        f"UniqueNameGenerator or None, got {type(new_generator).__name__}")
    _generator = new_generator
    return old


@contextlib.contextmanager
def guard(new_generator=None):
    """Fresh counters inside the block; a str or bytes `new_generator` is their prefix."""
    if isinstance(new_generator, bytes):
        new_generator = new_generator.decode()
    if isinstance(new_generator, str):
        new_generator = UniqueNameGenerator(new_generator)
    old = switch(new_generator)
    try:
        yield
    finally:
        switch(old)
