"""paddle.check_shape: the argument check Paddle's static-graph layers run on a `shape`
argument (a list or tuple of ints and int32/int64 Tensors, or one such Tensor). As in Paddle it
checks nothing in dynamic mode, where the op itself validates the shape; in static mode a wrong
type or dtype is a TypeError naming the op."""
from . import _C
from .framework import in_dynamic_mode

_T = _C.Tensor


def _type_error(name, op_name, expected, got):
    names = ", ".join(getattr(t, "__name__", str(t)) for t in expected)
    return TypeError(f"The type of '{name}' in {op_name} must be ({names}), but received "
                     f"{type(got).__name__}.")


def check_shape(shape, op_name, expected_shape_type=(list, tuple, _T),
                expected_element_type=(int, _T), expected_tensor_dtype=("int32", "int64")):
    if in_dynamic_mode():
        return
    if not isinstance(shape, expected_shape_type):
        raise _type_error("shape", op_name, expected_shape_type, shape)
    items = [] if isinstance(shape, _T) else list(shape)
    for item in items:
        if not isinstance(item, expected_element_type):
            raise _type_error("element of shape", op_name, expected_element_type, item)
    if expected_tensor_dtype is None:
        return
    for name, t in [("element of shape", i) for i in items] + [("shape", shape)]:
        if isinstance(t, _T) and t.dtype.name not in expected_tensor_dtype:
            raise TypeError(f"The data type of '{name}' in {op_name} must be "
                            f"{list(expected_tensor_dtype)}, but received {t.dtype.name}.")
