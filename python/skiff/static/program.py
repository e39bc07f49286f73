"""Paddle's static Program on the capture machinery (skiff._C.jit.Capture).

A Program owns a capture: while it is the innermost active one, every op called on its
symbolic tensors appends an IR op instead of running. enable_static() activates the default
main program; program_guard(main, startup) activates `main` on top of it and makes `startup`
the program that records parameter initializers. Activation follows a stack (_ACTIVE), so
guards nest; eager work (creating a parameter's dense tensor) sets them aside (_C.jit.suspend).

A Program is never finished: Executor.run compiles a snapshot (a copy with the fetched values as
outputs), so ops can still be appended and the program run again. clone() gives a Program that
snapshots a prefix of its source (for_test: without the parameter updates, dropout off)."""
import contextlib
import weakref

from .. import _C
from .. import framework
from ..framework import Tensor

__all__ = ["Program", "Block", "program_guard", "default_main_program",
           "default_startup_program"]

_ACTIVE = []  # Programs whose captures are active, innermost last
_NAMED = weakref.WeakValueDictionary()  # name -> a named symbolic tensor of no program built now
_PARAMETERS = weakref.WeakValueDictionary()  # id -> every live parameter (nn.Parameter)
_global_seed = [0]  # set by skiff.seed; new Programs take it as random_seed (Paddle's global_seed)


class Program:
    """A static program (paddle.static.Program). str(program) is its IR text."""

    def __init__(self):
        self._capture = _C.jit.Capture()
        self.random_seed = _global_seed[0]
        self._data = {}  # name -> (shape, dtype, tensor): the program's inputs
        self._named = {}  # name -> its tensor (Tensor.name, @GRAD): they live with the program
        self._params = []  # parameters created while this was the main program
        self._persistables = []  # other tensors its runs keep (optimizer moments, counters)
        self._initializers = 0  # persistent tensors this program (a startup program) initializes
        self._lr_vars = []  # (optimizer, lr tensor): the learning rate written before each run
        self._source = None  # for a clone: the program it copies a prefix of
        self._max_ops = None
        self._for_test = False
        self._namescopes = []  # (first op, end op, "/a/b/"): static.name_scope ranges
        self._prints = []  # static.Print entries (static/print_op.py), printed by each run

    # ------------------------------------------------------------------ structure
    def global_block(self):
        return Block(self)

    def block(self, index):
        if index != 0:
            raise IndexError(f"Program.block: argument 'index' expected 0 (one block), got "
                             f"{index}")
        return Block(self)

    @property
    def num_blocks(self):
        return 1

    def all_parameters(self):
        """The parameters made for this program, then the others its ops read (a layer made
        eagerly or under another program), in the order the program first used them."""
        out = list(self._params)
        seen = {id(p) for p in out}
        by_data = {}
        for p in list(_PARAMETERS.values()):
            if id(p) not in seen:
                by_data.setdefault(p.data_ptr(), []).append(p)
        for _, t in (self._source or self)._capture.params:
            for p in by_data.get(t.data_ptr(), ()):
                if id(p) not in seen and p._is_same(t):
                    seen.add(id(p))
                    out.append(p)
        return out

    def list_vars(self):
        return [t for _, _, t in self._data.values()] + list(self._params)

    def clone(self, for_test=False):
        """A copy of the program as it is now; ops appended to this program later are not in
        it. for_test drops the parameter updates (the optimizer step) and runs dropout in
        inference mode, as Paddle's test clone. (Layers whose mode is decided in Python, such
        as BatchNorm, follow layer.eval() at build time.)"""
        source = self._source or self
        c = Program.__new__(Program)
        c.__dict__.update(self.__dict__)
        c._capture = None
        c._source = source
        c._max_ops = self._max_ops if self._source else self._capture.num_ops
        c._for_test = bool(for_test) or self._for_test
        c._data = dict(self._data)
        c._params = list(self._params)
        c._persistables = list(self._persistables)
        c._lr_vars = [] if c._for_test else list(self._lr_vars)
        return c

    def __str__(self):
        return self._snapshot([], []).text()

    __repr__ = __str__

    # ------------------------------------------------------------------ for the executor
    def _version(self):
        """Changes whenever the program grows (the executor's cache key)."""
        if self._source is not None:
            return ("clone", self._max_ops, self._for_test)
        return (self._capture.num_ops, self._initializers)

    def _owns(self, t):
        return (self._source or self)._capture.owns(t)

    def _snapshot(self, fetch, names):
        if self._source is not None:
            return self._source._capture.snapshot(fetch, names, not self._for_test,
                                                  self._max_ops, self._for_test)
        return self._capture.snapshot(fetch, names)

    def _find_var(self, name, what):
        """The tensor named `name`: an input, a parameter, a persistable (optimizer state, global
        var) or a named result of this program."""
        if name in self._data:
            return self._data[name][2]
        for p in self._params + self._persistables:
            if p.name == name:
                return p
        for t in ((self._source or self)._named.get(name), _NAMED.get(name)):
            if t is not None and self._owns(t):
                return t
        raise ValueError(f"{what}: no variable named '{name}' in the program (inputs: "
                         f"{sorted(self._data)})")

    def _num_raw_ops(self):
        """The number of ops appended so far (the parameter ops, hoisted to the front of the
        program, are not counted)."""
        return (self._source or self)._capture.num_ops

    def _namescope_of(self, index):
        for start, end, path in self._namescopes:  # innermost first
            if start <= index < end:
                return path
        return "/"

    def _building_capture(self):
        if self._source is not None:
            raise NotImplementedError("program_guard: a cloned Program cannot be extended; "
                                      "append ops to the program it was cloned from")
        return self._capture


class Block:
    """Paddle's global block: the program's variables and parameters."""

    def __init__(self, program):
        self.program = program
        self.idx = 0

    def all_parameters(self):
        return self.program.all_parameters()

    def var(self, name):
        return self.program._find_var(name, "Block.var")

    def has_var(self, name):
        try:
            self.var(name)
            return True
        except ValueError:
            return False

    @property
    def vars(self):
        return {t.name: t for t in self.program.list_vars()}

    @property
    def ops(self):
        """The program's ops in order (parameters excluded), each with Paddle's `type`
        (`matmul`, `fused_adam_`, ...; IR-only ops keep their dialect: `builtin.combine`)."""
        p = self.program
        src = p._source or p
        names = [n for n in src._capture.op_names if n != "builtin.parameter"]
        if p._max_ops is not None:
            names = names[:p._max_ops]
        return [Operator(n[3:] if n.startswith("op.") else n,
                         {"op_namescope": src._namescope_of(i)})
                for i, n in enumerate(names)]


class Operator:
    """One op of a Block: its type and its attributes (op_namescope)."""

    def __init__(self, type, attrs=None):  # noqa: A002 - Paddle's attribute name
        self.type = type
        self._attrs = dict(attrs or {})

    def attr(self, name):
        if name not in self._attrs:
            raise RuntimeError(f"(NotFound) Operator.attr: op '{self.type}' has no attribute "
                             f"'{name}' (it has {sorted(self._attrs)})")
        return self._attrs[name]

    def has_attr(self, name):
        return name in self._attrs

    @property
    def attr_names(self):
        return sorted(self._attrs)

    def __repr__(self):
        return f"Operator(type={self.type})"


_main = [Program()]
_startup = [Program()]


def default_main_program():
    """The program ops are appended to (the innermost program_guard's main program)."""
    return _main[0]


def default_startup_program():
    """The program that records parameter initializers (the innermost guard's startup)."""
    return _startup[0]


# ---------------------------------------------------------------------- the capture stack
def _activate(program):
    program._building_capture().activate()
    _ACTIVE.append(program)


def _deactivate(program):
    if not _ACTIVE or _ACTIVE[-1] is not program:
        raise RuntimeError("static: programs must be left in the reverse order they were entered")
    _ACTIVE.pop()
    program._capture.deactivate()


@contextlib.contextmanager
def building(program):
    """Makes `program` the innermost capture for the block (a startup program recording an
    initializer, append_backward on a program that is not the innermost)."""
    if _ACTIVE and _ACTIVE[-1] is program:
        yield
        return
    _activate(program)
    try:
        yield
    finally:
        _deactivate(program)


@contextlib.contextmanager
def outside_programs():
    """Runs the block eagerly (the captures set aside, then restored)."""
    with _C.jit.suspend():
        yield


def _enter_static():
    if not _ACTIVE:
        _activate(_main[0])


def _leave_static():
    while _ACTIVE:
        _deactivate(_ACTIVE[-1])


def _on_seed(seed):
    """skiff.seed: Programs created from now on, and the default ones, get it as random_seed."""
    _global_seed[0] = seed
    _main[0].random_seed = seed
    _startup[0].random_seed = seed


def register_parameter(p):
    """Every nn.Parameter is known here, so a program can find those its ops read."""
    _PARAMETERS[id(p)] = p


def _register_name(name, t):
    """Records the name of a symbolic tensor in its program (fetch_list by name)."""
    for p in _ACTIVE[::-1] + [_main[0]]:
        if p._capture is not None and p._capture.owns(t):
            p._named[name] = t
            return
    _NAMED[name] = t


@contextlib.contextmanager
def program_guard(main_program, startup_program=None):
    """Appends ops to `main_program` and parameter initializers to `startup_program` (when
    given) inside the block; guards nest."""
    for arg, p in (("main_program", main_program), ("startup_program", startup_program)):
        if p is not None and not isinstance(p, Program):
            raise TypeError(f"program_guard: argument '{arg}' expected a skiff.static.Program, "
                            f"got {type(p).__name__}")
    if main_program is None:
        raise TypeError("program_guard: argument 'main_program' expected a skiff.static.Program, "
                        "got None")
    saved = (_main[0], _startup[0])
    _main[0] = main_program
    if startup_program is not None:
        _startup[0] = startup_program
    pushed = not framework.in_dynamic_mode() and not (_ACTIVE and _ACTIVE[-1] is main_program)
    try:
        if pushed:
            _activate(main_program)
        yield
    finally:
        if pushed and _ACTIVE and _ACTIVE[-1] is main_program:
            _deactivate(main_program)
        _main[0], _startup[0] = saved


def program_of(t, what):
    """The program whose tensor `t` is: the main program, or one being built."""
    if not isinstance(t, Tensor) or not t.is_symbolic:
        raise TypeError(f"{what}: expected a variable of a static program, got "
                        f"{'a dense Tensor' if isinstance(t, Tensor) else type(t).__name__}")
    for p in [_main[0]] + _ACTIVE[::-1]:
        if p._owns(t):
            return p
    raise ValueError(f"{what}: the variable {t.name} belongs to no program being built (its "
                     f"program_guard has been left)")
