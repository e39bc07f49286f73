"""SortedKeys and the summary table (Paddle's paddle.profiler.profiler_statistic). The tables
are built by the C++ profiler (skiff/profiler/summary.cc)."""
from enum import Enum
from .. import _errors


class SortedKeys(Enum):
    """How Profiler.summary orders the rows of its operator, kernel and user-defined tables.
    Skiff runs kernels on the host, so the GPU keys order by CPU total time."""
    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


_VIEW_TITLES = {
    'DeviceView': 'Device Summary',
    'OverView': 'Overview Summary',
    'ModelView': 'Model Summary',
    'DistributedView': 'Distribution Summary',
    'KernelView': 'Kernel Summary',
    'OperatorView': 'Operator Summary',
    'MemoryView': 'Memory Summary',
    'MemoryManipulationView': 'Memory Manipulation Summary',
    'UDFView': 'UserDefined Summary',
}


class StatisticData:
    """Holds what the tables are built from: node trees from a result's get_data()."""

    def __init__(self, node_trees, extra_info=None):
        result = getattr(node_trees, '_result', None)
        if result is None:
            raise _errors.InvalidType(
                "StatisticData: argument 'node_trees' expected the trees of a "
                "profiler result's get_data(), got "
                f"{type(node_trees).__name__}")
        self.node_trees = node_trees
        self.extra_info = extra_info if extra_info is not None else dict(result.extra_info)
        self._result = result


def _build_table(statistic_data, sorted_by=SortedKeys.CPUTotal, op_detail=True,
                 thread_sep=False, time_unit='ms', row_limit=100, max_src_column_width=75,
                 views=None):
    """The summary text (Paddle's signature; row_limit and max_src_column_width are unused)."""
    return _summary_text(statistic_data._result, sorted_by, op_detail, thread_sep, time_unit,
                         views)


def _summary_text(result, sorted_by, op_detail, thread_sep, time_unit, views):
    if not isinstance(sorted_by, SortedKeys):
        raise _errors.InvalidType(
            "Profiler.summary: argument 'sorted_by' expected a SortedKeys, got "
            f"{sorted_by!r}")
    if time_unit not in ('s', 'ms', 'us', 'ns'):
        raise _errors.InvalidArgument(
            "Profiler.summary: argument 'time_unit' expected one of 's', 'ms', "
            f"'us', 'ns', got {time_unit!r}")
    text = result.summary(sorted_by.value, bool(op_detail), bool(thread_sep), time_unit)
    if views is None:
        return text
    if not isinstance(views, (list, tuple, set)):
        views = [views]
    titles = []
    for v in views:
        name = getattr(v, 'name', None)
        if name not in _VIEW_TITLES:
            raise _errors.InvalidType(
                "Profiler.summary: argument 'views' expected SummaryView values, got "
                f"{v!r}")
        titles.append(_VIEW_TITLES[name])
    sections = [s for s in text.split('\n\n\n') if s.strip()]
    keep = []
    for s in sections:
        head = s.lstrip('\n').split('\n', 1)[0].strip('-')
        if any(head == t or (t == 'Memory Summary' and head.startswith('Memory Summary - '))
               for t in titles):
            keep.append(s + '\n\n\n')
    return ''.join(keep)
