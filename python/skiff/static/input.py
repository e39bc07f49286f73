"""paddle.static.data and InputSpec: the inputs of a static program."""
from .. import framework
from .program import _register_name, default_main_program

__all__ = ["data", "InputSpec"]


def _shape(shape, what):
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{what}: argument 'shape' expected a list or tuple, got "
                        f"{type(shape).__name__}")
    out = []
    for s in shape:
        if s is None or s == -1:
            out.append(-1)
        elif isinstance(s, int) and not isinstance(s, bool) and s >= 0:
            out.append(s)
        else:
            raise ValueError(f"{what}: argument 'shape' expected sizes >= 0, None or -1, got "
                             f"{list(shape)}")
    return out


def _dtype(dtype):
    """A skiff dtype from a dtype, its name ('float32', 'paddle.float32') or a numpy dtype."""
    if isinstance(dtype, framework.dtype):
        return dtype
    name = str(dtype).replace("paddle.", "")
    if hasattr(dtype, "name") and not isinstance(dtype, str):
        name = dtype.name
    d = getattr(framework.dtype, name, None)
    if not isinstance(d, framework.dtype):
        raise TypeError(f"static.data: argument 'dtype' expected a dtype, got {dtype!r}")
    return d


def data(name, shape, dtype=None, lod_level=0):
    """An input of the default main program: `shape` may hold None or -1 for sizes known at
    run time; dtype defaults to the default dtype. Executor.run feeds it by `name`."""
    if framework.in_dynamic_mode():
        raise RuntimeError("static.data: only in static mode (call paddle.enable_static() "
                           "first)")
    if not isinstance(name, str) or not name:
        raise TypeError(f"static.data: argument 'name' expected a non-empty str, got {name!r}")
    shape = _shape(shape, "static.data")
    dtype = _dtype(dtype or framework.get_default_dtype())
    program = default_main_program()
    if name in program._data:
        raise ValueError(f"static.data: the program already has an input named '{name}'")
    t = program._building_capture().input(shape, dtype, name)
    t.name = name
    program._data[name] = (shape, dtype, t)
    _register_name(name, t)
    return t


class InputSpec:
    """Paddle's InputSpec: shape (None/-1 for any size), dtype, name."""

    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        self.shape = tuple(_shape(shape, "InputSpec"))
        self.dtype = _dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name or getattr(tensor, "name", None))

    def __repr__(self):
        return f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name})"

    def __eq__(self, other):
        return isinstance(other, InputSpec) and (self.shape, self.dtype, self.name) == \
            (other.shape, other.dtype, other.name)

    def __hash__(self):
        return hash((self.shape, str(self.dtype), self.name))
