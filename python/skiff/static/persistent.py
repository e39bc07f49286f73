"""Tensors that live across runs of static programs (parameters, optimizer moments, counters).

Each is a dense tensor, allocated eagerly, that programs read through builtin.parameter ops and
write through updates. Its initial value is recorded in a startup program (initializer ops plus
an update), so exe.run(startup) (re)initializes it, drawing from the generator in creation
order as a dygraph model's constructor does."""
from .program import building, default_startup_program, outside_programs

__all__ = ["record_initializer", "create_persistent", "create_global_var"]


def record_initializer(t, init, startup_program=None):
    """Appends `init()` (ops building the initial value) to the startup program and makes it
    overwrite the dense tensor `t` when that program runs. `t` may be a list of tensors drawn
    together (a value may depend on another): `init()` then returns one value per tensor."""
    from .. import no_grad
    startup = startup_program or default_startup_program()
    with building(startup), no_grad():
        values = init()
    targets = list(t) if isinstance(t, (list, tuple)) else [t]
    values = list(values) if isinstance(t, (list, tuple)) else [values]
    for target, value in zip(targets, values):
        startup._capture.update(target, value)
    startup._initializers += len(targets)
    return t


def create_persistent(shape, dtype, init, startup_program=None):
    """A dense tensor of `shape`/`dtype` (zeros until the startup program runs `init()`)."""
    from .. import zeros
    with outside_programs():
        t = zeros(shape, dtype)
    return record_initializer(t, init, startup_program)


def create_global_var(shape, value, dtype, persistable=False, force_cpu=False, name=None):
    """Paddle's static.create_global_var: a tensor of `shape` filled with `value` by the startup
    program, which programs read and may write (an in-place op on it becomes an update)."""
    from .. import full
    from .program import default_main_program
    shape = [int(s) for s in shape]
    t = create_persistent(shape, dtype, lambda: full(shape, value, dtype))
    t.name = name or _unique("global_var")
    t.persistable = persistable
    default_main_program()._persistables.append(t)
    return t


def _unique(key):
    from ..nn import unique_name
    return unique_name.generate(key)
