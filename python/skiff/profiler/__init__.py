"""skiff.profiler: Paddle's paddle.profiler on Skiff's C++ profiler (skiff/profiler).

    import skiff.profiler as profiler
    with profiler.Profiler(scheduler=(2, 5),
                           on_trace_ready=profiler.export_chrome_tracing('./log')) as p:
        for step in range(8):
            train_step()
            p.step()
    p.summary()

Traces are Chrome trace-event JSON (Perfetto, chrome://tracing); `load_profiler_result` reads
them back. Protobuf export (Paddle's export_protobuf) is not provided.
"""
from .profiler import (  # noqa: F401
    Profiler,
    ProfilerState,
    ProfilerTarget,
    SummaryView,
    export_chrome_tracing,
    make_scheduler,
)
from .profiler_statistic import SortedKeys  # noqa: F401
from .utils import RecordEvent, TracerEventType, load_profiler_result  # noqa: F401

__all__ = [
    'ProfilerState',
    'ProfilerTarget',
    'make_scheduler',
    'export_chrome_tracing',
    'Profiler',
    'RecordEvent',
    'load_profiler_result',
    'SortedKeys',
    'SummaryView',
]
