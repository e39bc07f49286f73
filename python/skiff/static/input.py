"""paddle.static.InputSpec and data: the shape and dtype of a program input, None (or -1) for
a dim known only at run time."""
from .. import _C
from .. import framework
from ..framework import get_default_dtype
from .program import _register_name, default_main_program

__all__ = ["data", "InputSpec"]


def _dtype_name(dtype):
    if dtype is None:
        return get_default_dtype()
    if isinstance(dtype, str):
        return dtype
    return str(dtype).replace("skiff.", "").replace("paddle.", "")


class InputSpec:
    def __init__(self, shape=None, dtype="float32", name=None, stop_gradient=False):
        if shape is None:
            shape = []
        if isinstance(shape, int):
            shape = [shape]
        if not isinstance(shape, (list, tuple)):
            raise TypeError(f"InputSpec: argument 'shape' expected a list or tuple of ints and "
                            f"None, got {type(shape).__name__}")
        for d in shape:
            if d is not None and not (isinstance(d, int) and d >= -1):
                raise ValueError(f"InputSpec: argument 'shape' expected dims that are ints >= 0, "
                                 f"-1 or None, got {list(shape)}")
        self.shape = tuple(None if d is None or d == -1 else int(d) for d in shape)
        self.dtype = _dtype_name(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None):
        if not isinstance(tensor, _C.Tensor):
            raise TypeError(f"InputSpec.from_tensor: expected a Tensor, got "
                            f"{type(tensor).__name__}")
        return cls(tensor.shape, tensor.dtype, name or getattr(tensor, "name", None))

    @classmethod
    def from_numpy(cls, ndarray, name=None):
        return cls(list(ndarray.shape), str(ndarray.dtype), name)

    def batch(self, batch_size):
        """A copy with a leading batch dim."""
        if isinstance(batch_size, (list, tuple)):
            batch_size = batch_size[0]
        return InputSpec([batch_size, *self.shape], self.dtype, self.name, self.stop_gradient)

    def unbatch(self):
        if not self.shape:
            raise ValueError("InputSpec.unbatch: the spec has no dims to remove")
        return InputSpec(list(self.shape[1:]), self.dtype, self.name, self.stop_gradient)

    def ir_shape(self):
        """The shape as the IR takes it: -1 for unknown dims."""
        return [-1 if d is None else d for d in self.shape]

    def matches(self, tensor):
        if _dtype_name(tensor.dtype) != self.dtype or len(tensor.shape) != len(self.shape):
            return False
        return all(d is None or d == n for d, n in zip(self.shape, tensor.shape))

    def __repr__(self):
        return (f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, "
                f"stop_gradient={self.stop_gradient})")

    def __eq__(self, other):
        return (isinstance(other, InputSpec) and self.shape == other.shape
                and self.dtype == other.dtype and self.name == other.name
                and self.stop_gradient == other.stop_gradient)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.name, self.stop_gradient))


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
