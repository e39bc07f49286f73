"""The result of a profiling period (Paddle's _ProfilerResult): the C++ result plus Paddle's
node-tree view of it (get_data(): per thread a root whose children_node are the outermost
events, each with its nested events and the memory events recorded inside it)."""
from .. import _C
from .. import _errors

TracerEventType = _C.profiler.TracerEventType


class HostPythonNode:
    """One host event: name, type (TracerEventType), start_ns, end_ns, process_id, thread_id,
    children_node (nested events), mem_node (allocator calls inside it), args
    (input_shapes/input_dtypes/kernel where recorded)."""

    def __init__(self, name, type_, start_ns, end_ns, process_id, thread_id, args):
        self.name = name
        self.type = type_
        self.start_ns = start_ns
        self.end_ns = end_ns
        self.process_id = process_id
        self.thread_id = thread_id
        self.args = args
        self.children_node = []
        self.runtime_node = []
        self.device_node = []
        self.mem_node = []
        if 'input_shapes' in args:
            self.input_shapes = args['input_shapes']
        if 'input_dtypes' in args:
            self.dtypes = args['input_dtypes']

    def __repr__(self):
        return (f"HostPythonNode(name={self.name!r}, type={self.type}, start_ns={self.start_ns}, "
                f"end_ns={self.end_ns}, thread_id={self.thread_id})")


class MemPythonNode:
    """One allocator call: type ('Allocate', 'Free', 'ReservedAllocate', 'ReservedFree'), addr,
    place, increase_bytes (negative for frees), the counters after it."""

    def __init__(self, d, process_id):
        self.process_id = process_id
        for k, v in d.items():
            setattr(self, k, v)


class _NodeTrees(dict):
    """thread_id -> root HostPythonNode; remembers the result it came from (StatisticData)."""


_TYPES = {t.name: t for t in TracerEventType.__members__.values()}


class _ProfilerResult:
    def __init__(self, result):
        self._result = result
        self._trees = None

    @property
    def extra_info(self):
        return self._result.extra_info

    def get_extra_info(self):
        return dict(self._result.extra_info)

    def save(self, path, format="json"):
        """Writes the Chrome trace (format 'json'; 'pb' is not built)."""
        if format != "json":
            raise _errors.Unimplemented("ProfilerResult.save: argument 'format' expected 'json' "
                                        f"(protobuf export is not built), got {format!r}")
        self._result.save(path, format)

    def summary(self, sorted_by, op_detail, thread_sep, time_unit):
        return self._result.summary(sorted_by, op_detail, thread_sep, time_unit)

    def events(self):
        return self._result.events()

    def mem_events(self):
        return self._result.mem_events()

    def get_data(self):
        if self._trees is not None:
            return self._trees
        pid = self._result.pid
        trees = _NodeTrees()
        trees._result = self
        stacks = {}
        for name, type_name, start, end, tid, args in self._result.events():
            root = trees.get(tid)
            if root is None:
                root = HostPythonNode(f"thread {tid}", TracerEventType.UserDefined,
                                      self._result.start_ns, self._result.end_ns, pid, tid, {})
                trees[tid] = root
                stacks[tid] = [root]
            node = HostPythonNode(name, _TYPES[type_name], start, end, pid, tid, args)
            stack = stacks[tid]
            while len(stack) > 1 and not (stack[-1].start_ns <= start and end <= stack[-1].end_ns):
                stack.pop()
            stack[-1].children_node.append(node)
            stack.append(node)
        for d in self._result.mem_events():
            tid = d['thread_id']
            root = trees.get(tid)
            if root is None:
                continue
            node, ts = root, d['timestamp_ns']
            while True:
                inner = [c for c in node.children_node if c.start_ns <= ts <= c.end_ns]
                if not inner:
                    break
                node = inner[-1]
            node.mem_node.append(MemPythonNode(d, pid))
        self._trees = trees
        return trees
