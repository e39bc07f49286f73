"""skiff.autograd: grad mode (no_grad, enable_grad, set_grad_enabled), backward, grad, PyLayer."""
import functools
import inspect

from .. import _C



def is_grad_enabled():
    """True when operations record gradients (no_grad turns it off)."""
    return _C.is_grad_enabled()



class _GradModeContext:
    """A context manager that is also a decorator (`with no_grad():` and `@no_grad()`)."""

    _mode = None

    def __new__(cls, func=None):
        self = super().__new__(cls)
        if callable(func) and cls._mode is not None:  # used bare: @no_grad
            self.__init__()
            return self(func)
        return self

    def __init__(self, func=None):
        self._prev = []

    def __enter__(self):
        self._prev.append(_C.is_grad_enabled())
        _C.set_grad_enabled(self._mode)
        return self

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._prev.pop())
        return False

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):
            @functools.wraps(func)
            def gen_wrapper(*args, **kwargs):
                gen = func(*args, **kwargs)
                while True:
                    with self.__class__():
                        try:
                            value = next(gen)
                        except StopIteration:
                            return
                    yield value
            return gen_wrapper

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return func(*args, **kwargs)
        return wrapper


class no_grad(_GradModeContext):  # noqa: N801  (Paddle's name)
    """Ops inside record no autograd history: `with skiff.no_grad():` or `@skiff.no_grad()`."""
    _mode = False


class enable_grad(_GradModeContext):  # noqa: N801
    """Turns history recording back on inside a no_grad region."""
    _mode = True


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """`set_grad_enabled(False)` as a call, a context manager or a decorator."""

    def __new__(cls, mode=True):
        return super().__new__(cls)

    def __init__(self, mode=True):
        super().__init__()
        self._mode = bool(mode)
        # Paddle applies the mode at once too (so a plain call works as a setter).
        self._prev.append(_C.is_grad_enabled())
        _C.set_grad_enabled(self._mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._prev.pop())
        return False

    def __call__(self, func):
        mode = self._mode
        _C.set_grad_enabled(self._prev.pop())  # the decorator form does not change the mode now

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            prev = _C.is_grad_enabled()
            _C.set_grad_enabled(mode)
            try:
                return func(*args, **kwargs)
            finally:
                _C.set_grad_enabled(prev)
        return wrapper


def _as_list(x, op=None, arg=None):
    if x is None:
        return None
    if isinstance(x, _C.Tensor):
        return [x]
    if op is not None and not isinstance(x, (list, tuple)):
        raise TypeError(f"{op}: argument '{arg}' expected a Tensor or a list of Tensors, got "
                        f"{type(x).__name__}")
    return list(x)


def backward(tensors, grad_tensors=None, retain_graph=False):
    """Accumulates d(tensors)/d(leaf) into every leaf's .grad (paddle.autograd.backward)."""
    tensors = _as_list(tensors, "backward", "tensors")
    if not tensors:
        raise ValueError("backward: argument 'tensors' expected at least one Tensor, got none")
    grad_tensors = _as_list(grad_tensors, "backward", "grad_tensors")
    if grad_tensors is not None and len(grad_tensors) != len(tensors):
        raise ValueError(f"backward: argument 'grad_tensors' expected {len(tensors)} entries "
                         f"(one per tensor), got {len(grad_tensors)}")
    _C.backward(tensors, grad_tensors, retain_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, no_grad_vars=None):
    """The gradients of `outputs` with respect to `inputs`, without touching `.grad`.

    Returns a list with one entry per input (None for an unused input when allow_unused).
    no_grad_vars: tensors the gradient does not flow through (treated as constants).
    """
    if not only_inputs:
        raise NotImplementedError("grad: only_inputs=False is not supported (Paddle ignores it too)")
    outputs = _as_list(outputs, "grad", "outputs")
    inputs = _as_list(inputs, "grad", "inputs")
    grad_outputs = _as_list(grad_outputs)
    if grad_outputs is not None and len(grad_outputs) != len(outputs):
        raise ValueError(f"grad: argument 'grad_outputs' expected {len(outputs)} entries "
                         f"(one per output), got {len(grad_outputs)}")
    # no_grad_vars: tensors no gradient flows through (as if they were constants).
    no_grad_vars = _as_list(no_grad_vars)
    for v in no_grad_vars or []:
        if not isinstance(v, _C.Tensor):
            raise TypeError(f"grad: argument 'no_grad_vars' expected Tensors, got "
                            f"{type(v).__name__}")
    return _C.grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                   no_grad_vars)


from .py_layer import PyLayer, PyLayerContext  # noqa: E402,F401
from .functional import Hessian, Jacobian, hessian, jacobian  # noqa: E402,F401
from . import forward_mode  # noqa: E402,F401
from .saved_tensors_hooks import saved_tensors_hooks  # noqa: E402,F401
from .forward_mode import (dual_level, enter_dual_level, exit_dual_level,  # noqa: E402,F401
                           make_dual, unpack_dual)
