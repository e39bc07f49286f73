"""paddle.static.Executor: runs Programs.

run() compiles a snapshot of the program (its ops so far, the fetched values as outputs, the
parameter updates) once per (program, program version, feed names, fetch list) and caches it;
the compiled form is the program pruned (inputs no fetched value needs are dropped) and run
through jit::CompiledProgram's pipeline (canonicalize, CSE, DCE, in-place updates,
lower-to-kernel) with the C++ executor. Before each run the learning
rates of static optimizers are written into their tensors, and a startup program with a
random_seed reseeds the generator, so running it again reinitializes the same values."""
import contextlib

import numpy as np

from .. import _C
from ..framework import Tensor
from .print_op import emit_prints, print_targets
from .program import Program, default_main_program, outside_programs

__all__ = ["Executor", "CompiledProgram", "BuildStrategy", "ExecutionStrategy", "Scope",
           "global_scope", "scope_guard"]


def _as_list(x):
    if x is None:
        return []
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


_NP_DTYPES = {}  # dtype name -> numpy dtype (None: numpy has none, e.g. bfloat16)


def _np_dtype(name):
    if name not in _NP_DTYPES:
        try:
            _NP_DTYPES[name] = np.dtype(name)
        except TypeError:
            _NP_DTYPES[name] = None
    return _NP_DTYPES[name]


def _feed_tensor(program, name, value):
    """`value` as a Tensor for input `name`, after checking its dtype and shape."""
    shape, dtype, _ = program._data[name]
    if type(value) is np.ndarray and value.dtype == _np_dtype(dtype.name) \
            and len(value.shape) == len(shape) \
            and all(s == -1 or s == g for s, g in zip(shape, value.shape)):
        # The common case, checked without building names (every run pays for this).
        return _C.to_tensor(np.ascontiguousarray(value), None, None, True)
    if isinstance(value, Tensor):
        if value.is_symbolic:
            raise TypeError(f"Executor.run: feed '{name}' expected data (a numpy array or a "
                            f"Tensor with data), got a static-graph variable")
        t = value
        got_dtype = value.dtype.name
    else:
        arr = np.asarray(value)
        if arr.dtype == object:
            raise TypeError(f"Executor.run: feed '{name}' expected a numpy array or a Tensor, "
                            f"got {type(value).__name__}")
        t = None
        got_dtype = str(arr.dtype)
    got_shape = list(value.shape if t is not None else arr.shape)
    if got_dtype != dtype.name:
        raise ValueError(f"Executor.run: feed '{name}' expected dtype {dtype.name}, got "
                         f"{got_dtype}")
    if len(got_shape) != len(shape) or any(s != -1 and s != g for s, g in zip(shape, got_shape)):
        raise ValueError(f"Executor.run: feed '{name}' expected shape {shape}, got {got_shape}")
    if t is None:
        from .. import to_tensor
        t = to_tensor(np.ascontiguousarray(arr))
    return t


class BuildStrategy:
    """Paddle's build options. Every compiled program here gets canonicalize, CSE, DCE and
    in-place parameter updates; num_threads sets the parallel executor's threads."""

    def __init__(self):
        self.num_threads = 2


class ExecutionStrategy:
    """Paddle's executor options, with Paddle's defaults and checked types. Paddle 3.0 keeps it
    as an options holder (fleet's DistributedStrategy.execution_strategy; its CompiledProgram
    no longer takes one), and so does Skiff: its executor frees each buffer after its last use
    and runs one iteration per run; BuildStrategy.num_threads sets a CompiledProgram's
    threads."""

    def __init__(self):
        self.num_threads = 0
        self.num_iteration_per_drop_scope = 100
        self.num_iteration_per_run = 1
        self.use_thread_barrier = False

    def __setattr__(self, name, value):
        kinds = {"num_threads": int, "num_iteration_per_drop_scope": int,
                 "num_iteration_per_run": int, "use_thread_barrier": bool}
        if name not in kinds:
            raise AttributeError(f"ExecutionStrategy has no option '{name}' (options: "
                                 f"{sorted(kinds)})")
        kind = kinds[name]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValueError(f"(InvalidArgument) ExecutionStrategy.{name}: expected an int >= 0, "
                             f"got {value!r}")
        if kind is bool and not isinstance(value, bool):
            raise TypeError(f"(InvalidType) ExecutionStrategy.{name}: expected a bool, got "
                            f"{type(value).__name__}")
        object.__setattr__(self, name, value)


class CompiledProgram:
    """Paddle's static.CompiledProgram: `program` run by the parallel executor (instructions
    whose inputs are ready run on a thread pool; random ops keep their order, so results equal
    a sequential run)."""

    def __init__(self, program, build_strategy=None):
        if not isinstance(program, Program):
            raise TypeError(f"CompiledProgram: argument 'program' expected a "
                            f"skiff.static.Program, got {type(program).__name__}")
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise TypeError(f"CompiledProgram: argument 'build_strategy' expected a "
                            f"BuildStrategy, got {type(build_strategy).__name__}")
        self._program = program
        self._build_strategy = build_strategy or BuildStrategy()


class _Entry:
    def __init__(self, compiled, keep):
        self.compiled = compiled
        self.keep = keep  # the fetched tensors: their ids stay valid as cache keys


class Executor:
    """Executor(place=None): CPU for now; run() as Paddle's."""

    def __init__(self, place=None):
        self.place = place
        self._cache = {}
        self._lr_written = {}  # id(lr tensor) -> (tensor, the value last written into it)

    def close(self):
        self._cache.clear()

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed",
            fetch_var_name="fetch", scope=None, return_numpy=True, use_program_cache=True):
        program = default_main_program() if program is None else program
        threads = 0  # sequential
        if isinstance(program, CompiledProgram):
            threads = max(1, int(program._build_strategy.num_threads))
            program = program._program
        from .io import InferenceProgram
        if isinstance(program, InferenceProgram):
            return program._run({} if feed is None else feed, fetch_list, return_numpy)
        if not isinstance(program, Program):
            raise TypeError(f"Executor.run: argument 'program' expected a skiff.static.Program, "
                            f"got {type(program).__name__}")
        feed = {} if feed is None else feed
        if not isinstance(feed, dict):
            raise TypeError(f"Executor.run: argument 'feed' expected a dict of name -> array, "
                            f"got {type(feed).__name__}")
        for name in feed:
            if name not in program._data:
                raise ValueError(f"Executor.run: feed '{name}' is not an input of the program "
                                 f"(inputs: {sorted(program._data)})")
        targets = [self._fetch_target(program, f, i) for i, f in enumerate(_as_list(fetch_list))]
        prints = print_targets(program) if program._prints else []
        n_user = len(targets)
        targets += [e.tensor for e in prints]  # fetched too, then printed (static.Print)
        symbolic = [(i, t) for i, t in enumerate(targets) if t.is_symbolic]
        key = (id(program), program._version(), tuple(sorted(feed)),
               tuple(id(t) for _, t in symbolic), threads)
        entry = self._cache.get(key) if use_program_cache else None
        if entry is None:
            snapshot = program._snapshot([t for _, t in symbolic],
                                         [f"fetch{i}" for i, _ in symbolic])
            compiled = snapshot.prune().compile(parallel=threads > 0,
                                                num_threads=max(threads, 1))
            entry = _Entry(compiled, [program] + [t for _, t in symbolic])
            if use_program_cache:
                # The program grew: what was compiled for its earlier versions is not run again.
                for k in [k for k in self._cache if k[0] == key[0] and k[1] != key[1]]:
                    del self._cache[k]
                self._cache[key] = entry
        compiled = entry.compiled
        for name in compiled.inputs:
            if name not in feed:
                raise ValueError(f"Executor.run: the program needs input '{name}', which is not "
                                 f"in feed (fed: {sorted(feed)})")
        with outside_programs():  # feeding and the lr refresh are eager work
            feeds = [_feed_tensor(program, name, feed[name]) for name in compiled.inputs]
            self._before_run(program, self._lr_written)
            outs = dict(zip(compiled.outputs, compiled.run(feeds)))
        results = [outs[f"fetch{i}"] if t.is_symbolic else t for i, t in enumerate(targets)]
        if prints:
            emit_prints(prints, {id(e.tensor): r.numpy()
                                 for e, r in zip(prints, results[n_user:])})
            results = results[:n_user]
        if return_numpy:
            return [r.numpy() for r in results]
        return results

    @staticmethod
    def _fetch_target(program, f, i):
        if isinstance(f, str):
            return program._find_var(f, "Executor.run: fetch_list")
        if not isinstance(f, Tensor):
            raise TypeError(f"Executor.run: fetch_list[{i}] expected a Tensor or a name, got "
                            f"{type(f).__name__}")
        if f.is_symbolic and not program._owns(f):
            raise ValueError(f"Executor.run: fetch_list[{i}] ({f.name}) is a variable of another "
                             f"program")
        return f

    @staticmethod
    def _before_run(program, written):
        if program._initializers and program.random_seed:
            _C.seed(program.random_seed % (1 << 64))
        for opt, lr in program._lr_vars:
            value = float(opt.get_lr())
            last = written.get(id(lr))
            if last is not None and last[0] is lr and last[1] == value:
                continue  # unchanged since this executor wrote it (no scheduler step)
            from ..nn._assign import assign_into
            assign_into(lr, _C.ops.full([], value, lr.dtype))
            written[id(lr)] = (lr, value)


class _Var:
    def __init__(self, t):
        self._t = t

    def get_tensor(self):
        return self._t


class Scope:
    """Paddle's scope, read-only: find_var(name) finds a parameter (or a persistable tensor) of
    the default programs by name."""

    def find_var(self, name):
        from .program import _main
        for p in _main[0].all_parameters():
            if p.name == name:
                return _Var(p)
        return None

    def var(self, name):
        v = self.find_var(name)
        if v is None:
            raise ValueError(f"Scope.var: no parameter named '{name}'")
        return v


_scope = [Scope()]  # the current scope: global_scope(), switched by scope_guard


def global_scope():
    """The current scope (the one scope_guard put in place, else the global one)."""
    return _scope[0]


@contextlib.contextmanager
def scope_guard(scope):
    """Makes `scope` what global_scope() returns inside the block."""
    if not isinstance(scope, Scope):
        raise TypeError(f"(InvalidType) scope_guard: argument 'scope' expected a "
                        f"paddle.static.Scope, got {type(scope).__name__}")
    saved = _scope[0]
    _scope[0] = scope
    try:
        yield
    finally:
        _scope[0] = saved
