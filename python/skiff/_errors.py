"""Paddle's error classes for errors raised in Python.

Errors raised in C++ read `(InvalidArgument) matmul: argument 'y' expected ..., got ...` and reach
Python as the exception Paddle raises for the class (skiff/python/errors.cc). Python code raises
the same way, so a caller matching on the class or catching the exception type sees no seam:

    raise _errors.InvalidArgument(f"resize: argument 'size' expected positive sizes, got {size}")

Each helper returns the exception (the caller raises it, so tracebacks point at the caller).
The mapping is Paddle's (paddle/fluid/pybind/exception.cc); InvalidType is Paddle 3's TypeError.
"""
from . import _C

UnavailableError = _C.UnavailableError  # a RuntimeError (as in Paddle) that is also an OSError


def _prefixed(cls, name):
    def make(message):
        return cls(f"({name}) {message}")

    make.__name__ = make.__qualname__ = name
    make.__doc__ = f"A {cls.__name__} whose message opens with '({name}) '."
    return make


InvalidArgument = _prefixed(ValueError, "InvalidArgument")
InvalidType = _prefixed(TypeError, "InvalidType")
OutOfRange = _prefixed(IndexError, "OutOfRange")
NotFound = _prefixed(RuntimeError, "NotFound")
AlreadyExists = _prefixed(RuntimeError, "AlreadyExists")
PreconditionNotMet = _prefixed(RuntimeError, "PreconditionNotMet")
PermissionDenied = _prefixed(RuntimeError, "PermissionDenied")
ExecutionTimeout = _prefixed(RuntimeError, "ExecutionTimeout")
Unimplemented = _prefixed(NotImplementedError, "Unimplemented")
ResourceExhausted = _prefixed(MemoryError, "ResourceExhausted")
Unavailable = _prefixed(UnavailableError, "Unavailable")
Fatal = _prefixed(SystemError, "Fatal")
External = _prefixed(OSError, "External")
