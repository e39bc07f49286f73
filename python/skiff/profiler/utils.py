"""RecordEvent and load_profiler_result (Paddle's paddle.profiler.utils)."""
import functools

from .. import _C
from .profiler_result import _ProfilerResult
from .. import _errors

TracerEventType = _C.profiler.TracerEventType
_is_enabled = _C.profiler.is_enabled
_Event = _C.profiler.RecordEvent


class RecordEvent:
    """A user-defined range in the profile: a context manager, a decorator, or begin()/end().

        with RecordEvent("preprocess"):
            ...

        @RecordEvent("loss")
        def compute_loss(...): ...

    Outside a recording profiler it records nothing and costs one check."""

    def __init__(self, name, event_type=TracerEventType.PythonUserDefined):
        if not isinstance(name, str):
            raise _errors.InvalidType(f"RecordEvent: argument 'name' expected a str, got "
                                      f"{type(name).__name__}")
        self.name = name
        self.event_type = event_type
        self.event = None

    def __enter__(self):
        self.begin()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.end()

    def __call__(self, func):
        # A fresh event per call, so recursive and concurrent calls nest correctly.
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with RecordEvent(self.name, self.event_type):
                return func(*args, **kwargs)

        return wrapper

    def begin(self):
        """Starts the range (only while a profiler records)."""
        if not _is_enabled():
            return
        self.event = _Event(self.name, self.event_type)
        self.event.begin()

    def end(self):
        """Ends the range started by begin()."""
        if self.event is not None:
            self.event.end()
            self.event = None


def load_profiler_result(filename: str):
    """Loads a trace written by Profiler.export / export_chrome_tracing back into a result
    (get_data(), save(), summary() as after profiling)."""
    return _ProfilerResult(_C.profiler.ProfilerResult.load(filename))
