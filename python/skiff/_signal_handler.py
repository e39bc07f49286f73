"""paddle.disable_signal_handler: the crash handlers Skiff installs at import, and their removal.

Paddle installs handlers for SIGSEGV, SIGFPE, SIGABRT, SIGBUS and SIGILL that print where the
process died; Skiff does the same with Python's faulthandler (the Python stacks of every thread,
which also name the op being called from Python). Other frameworks that install their own
handlers (Paddle's docs name TVM) want them gone: disable_signal_handler() restores the default
handlers, so a crash after it ends the process as the system would."""
import faulthandler
import sys

__all__ = ["disable_signal_handler"]

_installed = [False]  # whether import installed them (a user's own faulthandler is left alone)


def _install():
    if not faulthandler.is_enabled() and sys.stderr is not None:
        try:
            faulthandler.enable()
        except (RuntimeError, ValueError, OSError):  # stderr without a file descriptor
            return
        _installed[0] = True


def disable_signal_handler():
    """Resets the fatal-signal handlers to the system's defaults."""
    faulthandler.disable()
    _installed[0] = False
