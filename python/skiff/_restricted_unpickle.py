"""The unpickler behind skiff.load: it builds only data, never runs code from the file.

A pickle names the callables that rebuild its objects (GLOBAL / STACK_GLOBAL opcodes), and a
plain `pickle.load` imports and calls whatever is named (`os.system`, `builtins.eval`, ...).
`RestrictedUnpickler.find_class` resolves only the allow-list below: Python containers and
scalars, numpy arrays, scalars and dtypes, and the few Skiff helpers that `skiff.save`'s output
(and Paddle's) can contain. Any other global is refused with `UnsafePickleError` naming it.

numpy's own rebuild functions are not safe on malformed arguments either (numpy 1.24:
`dtype.__setstate__` with a short state tuple segfaults; found by tests/fuzz/unpickle_fuzz.py),
so numpy globals resolve to checked versions, and BUILD (the `__setstate__` step) of a numpy
dtype or array goes through a check of the state's shape first. That needs the Python
implementation of the unpickler (`pickle._Unpickler`), whose opcodes can be overridden; the
cost is per opcode, and a checkpoint's tensor bytes are a few opcodes each.
"""
import math
import pickle

import numpy as np

__all__ = ["RestrictedUnpickler", "UnsafePickleError", "restricted_loads", "ALLOWED_GLOBALS"]


class UnsafePickleError(pickle.UnpicklingError, ValueError):
    """A pickle names a global outside the allow-list, or feeds numpy a state it would not
    write itself. A ValueError (Paddle's InvalidArgument) and a pickle.UnpicklingError, so both
    kinds of handler catch it."""


def _plain_dtype(dtype, what):
    """`dtype` if it is a plain numeric/bool/bytes dtype (no objects, fields or subarrays)."""
    if not isinstance(dtype, np.dtype) or dtype.hasobject or dtype.fields is not None \
            or dtype.subdtype is not None or dtype.kind not in "biufcSU":
        raise UnsafePickleError(f"load: {what} expected a plain numeric numpy dtype, got "
                                f"{dtype!r}"[:300])
    return dtype


def _dtype(spec, align=False, copy=True):
    d = np.dtype(spec, bool(align), True)  # always a copy: BUILD must never touch a singleton
    return _plain_dtype(d, "numpy.dtype")


def _reconstruct(cls, shape=(0,), dtype=b"b"):
    # numpy writes _reconstruct(ndarray, (0,), b'b') and the real array in the BUILD state.
    if cls is not np.ndarray:
        raise UnsafePickleError(f"load: numpy _reconstruct expected numpy.ndarray, got {cls!r}")
    return np.ndarray((0,), np.uint8)


def _scalar(dtype, data=None):
    _plain_dtype(dtype, "numpy scalar")
    if not isinstance(data, bytes) or len(data) != dtype.itemsize:
        raise UnsafePickleError(f"load: numpy scalar of {dtype} expected {dtype.itemsize} bytes, "
                                f"got {type(data).__name__}")
    return np.frombuffer(data, dtype)[0].copy()


def _frombuffer(buf, dtype, shape, order):
    _plain_dtype(dtype, "numpy array")
    shape = _check_shape(shape)
    if order not in ("C", "F"):
        raise UnsafePickleError(f"load: numpy array expected order 'C' or 'F', got {order!r}")
    data = bytes(memoryview(buf))
    if len(data) != math.prod(shape) * dtype.itemsize:
        raise UnsafePickleError("load: numpy array data does not match its shape")
    return np.frombuffer(data, dtype).reshape(shape, order=order).copy(order=order)


def _check_shape(shape):
    if not isinstance(shape, tuple) or len(shape) > 64 or not all(
            type(d) is int and d >= 0 for d in shape):
        raise UnsafePickleError(f"load: numpy array expected a shape of non-negative ints, got "
                                f"{shape!r}"[:300])
    return shape


def _numpy_globals():
    # numpy 1.x pickles arrays through numpy.core, numpy 2.x through numpy._core; files written
    # by either must load under both, so both spellings are listed.
    names = {}
    for core in ("numpy.core", "numpy._core"):
        names[(f"{core}.multiarray", "_reconstruct")] = _reconstruct
        names[(f"{core}.multiarray", "scalar")] = _scalar
        names[(f"{core}.numeric", "_frombuffer")] = _frombuffer
    names[("numpy", "ndarray")] = np.ndarray
    names[("numpy", "dtype")] = _dtype
    return names


_BUILTINS = ("set", "frozenset", "complex", "bytearray", "slice", "range", "bool", "int",
             "float", "str", "bytes", "tuple", "list", "dict")
# Resolved by the normal import of pickle's find_class: constructors of plain data.
_IMPORTED = frozenset({
    # Protocols 0-2 spell builtins "__builtin__" (Python 2 names, mapped by fix_imports).
    (module, n) for module in ("builtins", "__builtin__") for n in _BUILTINS
} | {
    ("collections", "OrderedDict"),
    ("_codecs", "encode"),  # protocol 2 spells bytes as _codecs.encode(str, 'latin1')
    # A Tensor or Parameter pickled by plain pickle (Tensor.__reduce_ex__): the class (only these
    # two), a numpy copy, the dtype name and stop_gradient.
    ("skiff.tensor.methods", "_rebuild_tensor"), ("skiff", "Tensor"),
    ("skiff.nn.parameter", "EagerParamBase"), ("skiff.nn.parameter", "_rebuild_parameter"),
})
# Replaced by the checked versions above.
_REPLACED = _numpy_globals()

# Every (module, name) pair the unpickler resolves.
ALLOWED_GLOBALS = _IMPORTED | frozenset(_REPLACED)


def _check_array_state(state):
    # ndarray.__reduce__'s state: (version 1, shape, dtype, is_fortran, raw bytes).
    if not (isinstance(state, tuple) and len(state) == 5 and state[0] == 1):
        raise UnsafePickleError("load: numpy array state expected (1, shape, dtype, fortran, "
                                f"data), got {state!r}"[:300])
    _, shape, dtype, fortran, data = state
    _check_shape(shape)
    _plain_dtype(dtype, "numpy array")
    if type(fortran) is not bool or not isinstance(data, (bytes, bytearray)):
        raise UnsafePickleError("load: numpy array state expected a bool and bytes")
    if len(data) != math.prod(shape) * dtype.itemsize:
        raise UnsafePickleError(f"load: numpy array of shape {shape} and {dtype} expected "
                                f"{math.prod(shape) * dtype.itemsize} bytes, got {len(data)}")


def _check_dtype_state(inst, state):
    # Only what numpy writes for a plain dtype: its own state, the byte order possibly changed.
    own = inst.__reduce__()[2]
    if not (isinstance(state, tuple) and len(state) == len(own) and state[1] in ("<", ">", "|", "=")
            and state[:1] + state[2:] == own[:1] + own[2:]):
        raise UnsafePickleError(f"load: numpy dtype state expected one like {own!r}, got "
                                f"{state!r}"[:300])


class RestrictedUnpickler(pickle._Unpickler):
    """Resolves only ALLOWED_GLOBALS, and checks numpy states before numpy sees them."""

    dispatch = dict(pickle._Unpickler.dispatch)

    def __init__(self, file, *, where="the pickle", **kwargs):
        super().__init__(file, **kwargs)
        self._where = where

    def find_class(self, module, name):
        replaced = _REPLACED.get((module, name))
        if replaced is not None:
            return replaced
        if (module, name) not in _IMPORTED:
            raise UnsafePickleError(
                f"load: {self._where} refers to the global '{module}.{name}', which skiff.load "
                "does not import or call (it loads only tensors, numpy arrays and Python "
                "containers and scalars, so loading runs no code from the file); pass "
                "weights_only=False only for a file from a source you trust")
        return super().find_class(module, name)

    def persistent_load(self, pid):
        raise UnsafePickleError(f"load: {self._where} uses persistent ids, which skiff.save and "
                                "paddle.save never write")

    def load_build(self):
        state, inst = self.stack[-1], self.stack[-2]
        if isinstance(inst, np.dtype):
            _check_dtype_state(inst, state)
        elif isinstance(inst, np.ndarray):
            if type(inst) is not np.ndarray:
                raise UnsafePickleError("load: a numpy array subclass")
            _check_array_state(state)
        elif isinstance(inst, np.generic):
            raise UnsafePickleError("load: numpy scalars take no state")
        super().load_build()

    dispatch[pickle.BUILD[0]] = load_build


def restricted_loads(data, *, where="the pickle", encoding="latin1"):
    """pickle.loads through RestrictedUnpickler."""
    import io
    return RestrictedUnpickler(io.BytesIO(data), where=where, encoding=encoding).load()
