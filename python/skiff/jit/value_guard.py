"""Reading a Tensor's value while a function is captured (`if x > 0:`, `x.numpy()`,
`float(x)`) cannot work: the value exists only when the program runs. These guards turn such a
read into a clear error that names the user's line and what to use instead."""
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
    return Dy2StaticError(f"to_static: {advice}{where}. With to_static(full_graph=False) such a "
                          f"function runs eagerly instead.")


def _guarded(name, method):
    def guarded(self, *args, **kwargs):
        if _C.jit.is_symbolic(self):
            raise value_read_error(name)
        return method(self, *args, **kwargs)

    guarded.__name__ = getattr(method, "__name__", name)
    guarded.__doc__ = getattr(method, "__doc__", None)
    return guarded


def install():
    for name in ("__bool__", "__float__", "__int__", "__index__", "numpy", "item", "tolist",
                 "__array__"):
        method = getattr(_C.Tensor, name, None)
        if method is not None:
            setattr(_C.Tensor, name, _guarded(name, method))
