"""Tensors that live across runs of static programs (parameters, optimizer moments, counters).

Each is a dense tensor, allocated eagerly, that programs read through builtin.parameter ops and
write through updates. Its initial value is recorded in a startup program (initializer ops plus
an update), so exe.run(startup) (re)initializes it, drawing from the generator in creation
order as a dygraph model's constructor does."""
from .. import framework
from .program import building, default_startup_program, outside_programs

__all__ = ["record_initializer", "create_persistent"]


def record_initializer(t, init, startup_program=None):
    """Appends `init()` (ops building the initial value) to the startup program and makes it
    overwrite the dense tensor `t` when that program runs."""
    from .. import no_grad
    startup = startup_program or default_startup_program()
    with building(startup), no_grad():
        value = init()
    startup._capture.update(t, value)
    startup._initializers += 1
    return t


def create_persistent(shape, dtype, init, startup_program=None):
    """A dense tensor of `shape`/`dtype` (zeros until the startup program runs `init()`)."""
    from .. import zeros
    with outside_programs():
        t = zeros(shape, dtype)
    return record_initializer(t, init, startup_program)


def in_static_mode():
    return not framework.in_dynamic_mode()
