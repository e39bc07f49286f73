"""paddle.static.InputSpec: the shape and dtype of a program input, None (or -1) for a dim
known only at run time."""
from .. import _C
from ..framework import get_default_dtype


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
