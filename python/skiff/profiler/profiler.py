"""paddle.profiler.Profiler: a scheduler of profiling states over training steps on top of the
C++ profiler sessions (skiff._C.profiler), with Paddle's names, defaults and state machine."""
import datetime
import os
import socket
from enum import Enum
from warnings import warn

from .. import _C
from .profiler_result import _ProfilerResult
from .profiler_statistic import SortedKeys, _summary_text
from .timer import benchmark
from .utils import RecordEvent, TracerEventType
from .. import _errors


class SummaryView(Enum):
    """The tables Profiler.summary(views=...) prints."""
    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


class ProfilerState(Enum):
    """CLOSED: nothing recorded. READY: the profiler is prepared but records nothing (the step
    before recording, so start-up cost stays out of the data). RECORD: events are recorded.
    RECORD_AND_RETURN: the last recorded step of a period; its data is returned after it."""
    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3


class ProfilerTarget(Enum):
    """Devices to profile. Skiff records host (CPU) events; the others are refused with a
    warning, as Paddle does where a device is not available."""
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


def make_scheduler(*, closed: int, ready: int, record: int, repeat: int = 0,
                   skip_first: int = 0):
    """A scheduler (step number -> ProfilerState): skip_first CLOSED steps, then cycles of
    `closed` CLOSED, `ready` READY and `record` RECORD steps (the last RECORD_AND_RETURN),
    `repeat` times (0: until the profiler stops), CLOSED after."""
    for name, v, least in (("closed", closed, 0), ("ready", ready, 0), ("record", record, 1),
                           ("repeat", repeat, 0), ("skip_first", skip_first, 0)):
        if not isinstance(v, int) or v < least:
            raise AssertionError(f"make_scheduler: argument '{name}' expected an int >= {least}, "
                                 f"got {v!r} (Invalid profiler scheduler arguments)")
    if ready == 0:
        warn("Profiler will record data after enabling profiler immediately, some data "
             "collected at the beginning of profiling may be 'noisy' because of overhead.")
    period = closed + ready + record

    def scheduler(step: int) -> ProfilerState:
        assert step >= 0, f"scheduler: step expected >= 0, got {step}"
        if step < skip_first:
            return ProfilerState.CLOSED
        step -= skip_first
        if repeat > 0 and step // period >= repeat:
            return ProfilerState.CLOSED
        k = step % period
        if k < closed:
            return ProfilerState.CLOSED
        if k < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD if k < period - 1 else ProfilerState.RECORD_AND_RETURN

    return scheduler


def _default_state_scheduler(step: int):
    return ProfilerState.RECORD


def export_chrome_tracing(dir_name: str, worker_name=None):
    """An on_trace_ready callback writing each period's trace to
    dir_name/{worker_name}_time_{timestamp}.paddle_trace.json (worker_name defaults to
    host_{hostname}pid_{pid}). The directory is made now."""
    try:
        os.makedirs(dir_name, exist_ok=True)
    except OSError as e:
        raise _errors.PreconditionNotMet(
            f"Can not create directory '{dir_name}' for saving profiling "
            f"results.") from e

    def handle_fn(prof):
        nonlocal worker_name
        if not worker_name:
            worker_name = f"host_{socket.gethostname()}pid_{os.getpid()}"
        now = datetime.datetime.now()
        filename = f"{worker_name}_time_{now.strftime('%Y_%m_%d_%H_%M_%S_%f')}.paddle_trace.json"
        prof.export(os.path.join(dir_name, filename), "json")

    return handle_fn


class _Session:
    """The C++ session behind a Profiler's states (Paddle's _Profiler: prepare/start/stop)."""

    def __init__(self, record_shapes, profile_memory):
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.running = False

    def prepare(self):
        pass  # nothing to warm up: the buffers are made on first use

    def start(self):
        _C.profiler.start(self.record_shapes, self.profile_memory)
        self.running = True

    def stop(self):
        if not self.running:
            return None
        self.running = False
        return _ProfilerResult(_C.profiler.stop())


class Profiler:
    """Profiles the steps a scheduler selects; see the module doc for an example.

    targets: ProfilerTarget values (CPU is what Skiff records). scheduler: a callable
    (make_scheduler), a (start, end) tuple recording steps [start, end), or None (record every
    step until stop). on_trace_ready: called with the profiler after each recorded period
    (default: export_chrome_tracing('./profiler_log/')). record_shapes: op events carry input
    shapes and dtypes. profile_memory: allocator calls are recorded (Memory Summary).
    timer_only: only step timing (step_info), no profiling. emit_nvtx, custom_device_types and
    with_flops have nothing to act on here (no CUDA, no custom devices, no FLOPs counting)."""

    def __init__(self, *, targets=None, scheduler=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, timer_only=False, emit_nvtx=False,
                 custom_device_types=[], with_flops=False):
        supported = [ProfilerTarget.CPU]
        if targets:
            self.targets = set()
            for t in targets:
                if t in supported:
                    self.targets.add(t)
                else:
                    warn(f"Profiling {t} is not supported in current context.")
        else:
            self.targets = set(supported)
        if with_flops:
            warn("Profiler: with_flops is not supported by Skiff's profiler; FLOPs are not "
                 "counted")
        if emit_nvtx:
            warn("Profiler: emit_nvtx needs CUDA, which this build of Skiff does not have")
        if callable(scheduler):
            self.scheduler = scheduler
        elif isinstance(scheduler, (tuple, list)):
            if not (len(scheduler) == 2 and scheduler[1] > scheduler[0]):
                raise AssertionError("Profiler: argument 'scheduler' expected a (start, end) "
                                     f"tuple with end > start, got {scheduler!r}")
            start, end = scheduler
            start = max(start, 0)
            if start >= 1:
                self.scheduler = make_scheduler(closed=max(start - 1, 0), ready=1,
                                                record=end - start, repeat=1)
            else:
                self.scheduler = make_scheduler(closed=0, ready=0, record=end - start, repeat=1)
        elif scheduler is None:
            self.scheduler = _default_state_scheduler
        else:
            raise _errors.InvalidType(
                "Profiler: argument 'scheduler' expected a callable, a (start, end) "
                f"tuple or None, got {type(scheduler).__name__}")
        self.on_trace_ready = (export_chrome_tracing('./profiler_log/')
                               if on_trace_ready is None else on_trace_ready)
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.timer_only = timer_only
        self.with_flops = with_flops
        self.emit_nvtx = emit_nvtx
        self.profiler = _Session(record_shapes, profile_memory)
        self.step_num = 0
        self.previous_state = ProfilerState.CLOSED
        self.current_state = self.scheduler(self.step_num)
        self.record_event = None
        self.profiler_result = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.stop()

    def _begin_step_event(self):
        self.record_event = RecordEvent(f"ProfileStep#{self.step_num}",
                                        TracerEventType.ProfileStep)
        self.record_event.begin()

    def _end_step_event(self):
        if self.record_event is not None:
            self.record_event.end()
            self.record_event = None

    def start(self):
        """Starts profiling at step 0: CLOSED -> the scheduler's state for step 0."""
        benchmark().begin()
        if self.timer_only:
            return
        if self.current_state == ProfilerState.READY:
            self.profiler.prepare()
        elif self.current_state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN):
            self.profiler.prepare()
            self.profiler.start()
        self._begin_step_event()

    def stop(self):
        """Ends profiling: the current state -> CLOSED; a period being recorded is returned
        (on_trace_ready is called)."""
        benchmark().end()
        if self.timer_only:
            return
        self._end_step_event()
        if self.current_state == ProfilerState.READY:
            warn("Inproper Profiler state transform: READY->CLOSED, profiler will start and stop "
                 "without saving data")
            self.profiler.start()
            self.profiler.stop()
        if self.current_state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN):
            self.profiler_result = self.profiler.stop()
            if self.on_trace_ready:
                self.on_trace_ready(self)

    def step(self, num_samples=None):
        """Marks the start of the next step: the scheduler's state for it takes effect
        (num_samples: the batch size, for step_info's throughput)."""
        benchmark().step(num_samples)
        if self.timer_only:
            return
        self._end_step_event()
        self.previous_state = self.current_state
        self.step_num += 1
        self.current_state = self.scheduler(self.step_num)
        self._trigger_action()
        self._begin_step_event()

    def step_info(self, unit=None):
        """Average reader cost, batch cost and throughput since the last call."""
        return benchmark().step_info('samples' if unit is None else unit)

    def _trigger_action(self):
        prev, cur = self.previous_state, self.current_state
        S = ProfilerState
        if prev == S.CLOSED:
            if cur in (S.READY, S.RECORD, S.RECORD_AND_RETURN):
                self.profiler.prepare()
            if cur in (S.RECORD, S.RECORD_AND_RETURN):
                self.profiler.start()
        elif prev == S.READY:
            if cur == S.CLOSED:
                warn("Improper schedule: READY->CLOSED, profiler will start and stop without "
                     "saving data")
                self.profiler.start()
                self.profiler.stop()
            if cur in (S.RECORD, S.RECORD_AND_RETURN):
                self.profiler.start()
        elif prev == S.RECORD:
            if cur == S.CLOSED:
                warn("Improper schedule: RECORD->CLOSED, profiler will not saving data")
                self.profiler.stop()
            if cur == S.READY:
                warn("Improper schedule: RECORD->READY, profiler will stop and re-prepare")
                self.profiler.stop()
                self.profiler.prepare()
        else:  # RECORD_AND_RETURN: the period ends here
            self.profiler_result = self.profiler.stop()
            if cur == S.READY:
                self.profiler.prepare()
            if cur in (S.RECORD, S.RECORD_AND_RETURN):
                self.profiler.prepare()
                self.profiler.start()
            if self.on_trace_ready:
                self.on_trace_ready(self)

    def export(self, path="", format="json"):
        """Writes the last recorded period's trace to `path` ('json': Chrome trace)."""
        if self.profiler_result:
            self.profiler_result.save(path, format)

    def summary(self, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False,
                time_unit='ms', views=None):
        """Prints the summary tables of the last recorded period."""
        if self.profiler_result:
            print(_summary_text(self.profiler_result, sorted_by, op_detail, thread_sep,
                                time_unit, views))
