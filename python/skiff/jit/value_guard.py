"""Reading a Tensor's value while a function is captured (`if x > 0:`, `x.numpy()`,
`float(x)`): the value exists only when the program runs.

With to_static(full_graph=False), a bool or integer read is speculated, as Paddle's SOT guards
do: the program captured so far runs on the call's real inputs to give the value, the capture
goes on down that path, and the value becomes a guard of the program (run_guarded checks it
before the run counts; another value captures another path). Other reads (floats, numpy) and
every read under full_graph=True raise a clear error that names the user's line and what to use
instead."""
import linecache
import os
import sys

from .. import _C

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Dy2StaticError(TypeError):
    """A captured function read a Tensor's value (Python control flow on a Tensor, numpy())."""


def _user_frame():
    """The innermost frame outside the skiff package: the line the user wrote."""
    f = sys._getframe(1)
    while f is not None and os.path.abspath(f.f_code.co_filename).startswith(_PACKAGE_DIR):
        f = f.f_back
    return f


def user_location():
    """(file, line) of the user code running now, for the location of captured ops."""
    f = _user_frame()
    return None if f is None else (f.f_code.co_filename, f.f_lineno)


def value_read_error(what):
    f = _user_frame()
    where = ""
    if f is not None:
        code = linecache.getline(f.f_code.co_filename, f.f_lineno).strip()
        where = f" at {f.f_code.co_filename}:{f.f_lineno}" + (f" (`{code}`)" if code else "")
    if what == "__bool__":
        advice = ("Python `if`/`while`/`and`/`or` on a Tensor depends on its value, which is not "
                  "known while the function is captured into a static program. Use "
                  "paddle.static.nn.cond(pred, true_fn, false_fn) for `if`, "
                  "paddle.static.nn.while_loop(cond, body, loop_vars) for `while`, or "
                  "paddle.where for element-wise choices")
    else:
        advice = (f"Tensor.{what} reads the Tensor's value, which is not known while the "
                  f"function is captured into a static program; keep the computation in "
                  f"Tensor ops")
    return Dy2StaticError(f"to_static: {advice}{where}. With to_static(full_graph=False) (the "
                          f"default), bool and int reads get one guarded program per path and "
                          f"other reads run the function eagerly.")


MAX_GUARDS = 32  # per capture: a loop on a Tensor condition unrolls at most this far


class Speculation:
    """Value reads of one capture in progress: `feeds` maps the program's input names to the
    call's real tensors; `guards` collects (symbolic tensor, value) in read order."""

    def __init__(self, capture, feeds):
        self.capture = capture
        self.feeds = feeds
        self.guards = []

    def read(self, t, what):
        if not self.capture.owns(t) or len(t.shape) > 0 and any(d != 1 for d in t.shape):
            raise value_read_error(what)
        # bool and int reads only: a float read would rarely repeat its value, so guarding on
        # it would capture again at almost every call.
        if what not in ("__bool__", "__int__", "__index__") or t.dtype.is_floating_point:
            raise value_read_error(what)
        if len(self.guards) >= MAX_GUARDS:
            raise Dy2StaticError(f"to_static: more than {MAX_GUARDS} reads of Tensor values in "
                                 f"one call (a Python loop on a Tensor condition?); use "
                                 f"paddle.static.nn.while_loop")
        try:
            program = self.capture.snapshot([t], ["guard"], False).prune()
        except (ValueError, RuntimeError):  # a value inside a cond branch or loop body
            raise value_read_error(what) from None
        state = _C.get_rng_state()
        with _C.jit.suspend():  # ops on the result run eagerly
            try:
                (value,) = program.compile().run([self.feeds[n] for n in program.inputs])
            finally:
                _C.set_rng_state(*state)
            v = value.reshape([]).item()
        self.guards.append((t, v))
        return v


_speculations = []


def _read(t, what):
    """The C++ hook for bool(), int(), float(), numpy() of a symbolic tensor."""
    if not _speculations:
        raise value_read_error(what)
    v = _speculations[-1].read(t, what)
    return bool(v) if what == "__bool__" else int(v)


def _guarded(name, method):
    """item() and tolist() (Python methods) name themselves in the error."""
    def guarded(self, *args, **kwargs):
        if self.is_symbolic:
            raise value_read_error(name)
        return method(self, *args, **kwargs)

    guarded.__name__ = getattr(method, "__name__", name)
    guarded.__doc__ = getattr(method, "__doc__", None)
    return guarded


def install():
    _C._set_symbolic_read_hook(_read)
    for name in ("item", "tolist"):
        setattr(_C.Tensor, name, _guarded(name, getattr(_C.Tensor, name)))
