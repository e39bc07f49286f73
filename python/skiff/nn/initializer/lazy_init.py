"""paddle.LazyGuard: parameters made inside the guard are not initialized (no memory, no random
draws) until `param.initialize()`; what large models use to build a model before placing or
sharding its weights.

A lazy parameter has its shape and dtype (a zero-stride view of one zero element) and
`_is_initialized()` is False; `initialize()` runs the initializer the parameter was created
with and makes the parameter a handle to the value (its name, attributes and identity stay).
"""
__all__ = ["LazyGuard"]

_depth = 0


def lazy_init_enabled():
    return _depth > 0


class LazyGuard:
    """`with paddle.LazyGuard(): model = Net()`, then `p.initialize()` for each parameter."""

    def __enter__(self):
        global _depth
        _depth += 1
        return self

    def __exit__(self, *exc):
        global _depth
        _depth -= 1
        return False
