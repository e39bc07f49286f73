"""Nested arguments and results (lists, tuples, dicts) as flat lists of Tensors plus a
hashable structure, so a captured program takes and returns flat tensor lists."""
from .. import _C


class _Slot:
    """A Tensor's place in a structure."""
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index

    def __repr__(self):
        return f"<tensor {self.index}>"


def flatten(obj, tensors):
    """`obj` with every Tensor appended to `tensors` and replaced by a _Slot."""
    if isinstance(obj, _C.Tensor):
        tensors.append(obj)
        return _Slot(len(tensors) - 1)
    if isinstance(obj, (list, tuple)):
        items = [flatten(o, tensors) for o in obj]
        return type(obj)(items) if not hasattr(obj, "_fields") else type(obj)(*items)
    if isinstance(obj, dict):
        return {k: flatten(v, tensors) for k, v in obj.items()}
    return obj


def unflatten(structure, tensors):
    if isinstance(structure, _Slot):
        return tensors[structure.index]
    if isinstance(structure, (list, tuple)):
        items = [unflatten(o, tensors) for o in structure]
        return type(structure)(items) if not hasattr(structure, "_fields") else \
            type(structure)(*items)
    if isinstance(structure, dict):
        return {k: unflatten(v, tensors) for k, v in structure.items()}
    return structure


def structure_key(structure):
    """A hashable key of a structure whose leaves are _Slots and Python values: the guard on
    the Python constants a function was captured with."""
    if isinstance(structure, _Slot):
        return ("T", structure.index)
    if isinstance(structure, (list, tuple)):
        return (type(structure).__name__,) + tuple(structure_key(o) for o in structure)
    if isinstance(structure, dict):
        return ("dict",) + tuple((k, structure_key(v)) for k, v in structure.items())
    try:
        hash(structure)
        return (type(structure).__name__, structure)
    except TypeError:
        return ("id", id(structure))
