"""paddle.jit.set_verbosity / set_code_level: what to_static reports about its captures.

Paddle transforms a function's source and can print the transformed code; Skiff captures the
function into an IR program, and that program is what set_code_level shows (any level > 0: Skiff
has one transformation, the capture; Paddle's default level 100 is its final code). Verbosity
> 0 logs one line per capture (the function and its input shapes). Both go to the "skiff.jit"
logger, and to stdout when also_to_stdout; the environment variables TRANSLATOR_VERBOSITY and
TRANSLATOR_CODE_LEVEL set the initial levels, as in Paddle.
"""
import logging
import os
import sys

_logger = logging.getLogger("skiff.jit")
_state = {"verbosity": int(os.environ.get("TRANSLATOR_VERBOSITY", 0)), "verbosity_stdout": False,
          "code_level": int(os.environ.get("TRANSLATOR_CODE_LEVEL", -1)), "code_stdout": False}


def _check(name, level, also_to_stdout):
    if not isinstance(level, int) or isinstance(level, bool):
        raise TypeError(f"{name}: argument 'level' expected an int, got {type(level).__name__}")
    if not isinstance(also_to_stdout, bool):
        raise TypeError(f"{name}: argument 'also_to_stdout' expected a bool, got "
                        f"{type(also_to_stdout).__name__}")


def set_verbosity(level=0, also_to_stdout=False):
    """Logs one line per to_static capture when level > 0."""
    _check("set_verbosity", level, also_to_stdout)
    _state["verbosity"], _state["verbosity_stdout"] = level, also_to_stdout


def set_code_level(level=100, also_to_stdout=False):
    """Shows the captured IR program of each to_static capture when level > 0."""
    _check("set_code_level", level, also_to_stdout)
    _state["code_level"], _state["code_stdout"] = level, also_to_stdout


def _emit(text, to_stdout):
    _logger.info(text)
    if to_stdout:
        sys.stdout.write(text + "\n")


def report_capture(fn, inputs, program):
    """Called by the capture (static_function._capture) once its program is built."""
    if _state["verbosity"] > 0:
        name = getattr(fn, "__qualname__", repr(fn))
        shapes = [list(t.shape) for t in inputs if hasattr(t, "shape")]
        _emit(f"to_static: captured {name} for inputs of shapes {shapes}",
              _state["verbosity_stdout"])
    if _state["code_level"] > 0:
        name = getattr(fn, "__qualname__", repr(fn))
        _emit(f"to_static: the program of {name}:\n{program}", _state["code_stdout"])
