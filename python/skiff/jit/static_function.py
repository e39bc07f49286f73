"""paddle.jit.to_static: a function (or a Layer's forward) captured into an IR program once per
input signature and run by the executor afterwards.

Capture runs the function itself on symbolic tensors through the same op API eager mode uses
(skiff/runtime/jit): there is no source translation. Each cached program is guarded by the
Python constants among the arguments, every input's dtype and shape (dims an InputSpec leaves
None match any size when no gradient is needed), the stop_gradient flags, grad mode and the
layer's training flag; a call that matches no program captures again (`num_captures`). Python
control flow on Tensor values adds value guards: one program per path (value_guard.py).

When gradients are needed, the program also holds the backward, appended with the eager VJP
rules, and is split into a forward and a backward program (jit::split_forward_backward). A call
runs the forward program and links one grad node (like a PyLayer) whose backward runs the
backward program on the values the forward saved, so `loss.backward()` and `opt.step()` after a
static forward work as in eager mode. Backward needs concrete shapes, so a program with
gradients is captured for the call's exact dims.
"""
import functools
import threading
import warnings

from .. import _C
from . import logging_utils, value_guard
from .flatten import _Slot, flatten, structure_key, unflatten

_enabled = True
_run_hooks = []  # per capture in progress: ([before each run], [after each counted run])


def on_every_run(fn, after=False):
    """Inside a capture: `fn()` runs eagerly before each run of the program being captured
    (refreshing a dense input such as the learning rate; it may run for a run whose guards then
    fail, so it must not change state), or with after=True once a run has counted (advancing a
    counter)."""
    if not _run_hooks:
        raise RuntimeError("on_every_run: expected a to_static capture in progress, got none")
    _run_hooks[-1][1 if after else 0].append(fn)


def enable_to_static(enable_to_static_bool):
    """Globally switches to_static on (the default) or off (functions run eagerly)."""
    global _enabled
    _enabled = bool(enable_to_static_bool)


def _is_float(dtype):
    return str(dtype).split(".")[-1] in ("float16", "bfloat16", "float32", "float64")


def _flat_specs(input_spec):
    """The InputSpecs of input_spec in the order flatten() visits the arguments' tensors."""
    from ..static.input import InputSpec

    out = []

    def walk(s):
        if isinstance(s, InputSpec) or s is None:
            out.append(s)
        elif isinstance(s, (list, tuple)):
            for x in s:
                walk(x)
        elif isinstance(s, dict):
            for x in s.values():
                walk(x)
        elif isinstance(s, _C.Tensor):
            out.append(InputSpec.from_tensor(s))
        else:
            raise TypeError(f"to_static: argument 'input_spec' expected InputSpecs (nested in "
                            f"lists, tuples or dicts), got {type(s).__name__}")

    walk(list(input_spec))
    return out


class ConcreteProgram:
    """One capture: the program, its compiled forward (and backward) and how its flat inputs and
    outputs map onto the function's arguments and result."""

    def __init__(self, program, out_structure, n_out, diff_outputs, input_targets, params,
                 grad_index, parallel, run_hooks=(), guards=()):
        self.main_program = program
        # Paddle's ConcreteProgram fields: the program's input and output variables (outputs a
        # list, as Paddle wraps a single one), the parameters it reads, the function, a startup
        # program (Skiff's captures read parameters' current values: there is none).
        self.inputs, self.outputs, self.parameters = [], [], []
        self.function, self.startup_program, self.kwargs = None, None, {}
        self.input_infos = []  # (shape, dtype, name, stop_gradient) of each flat input
        self.before_run, self.after_run = run_hooks if run_hooks else ([], [])
        self.guards = list(guards)  # (output name, value) of the value reads it was captured on
        self.out_structure = out_structure
        self.n_out = n_out
        self.diff_outputs = diff_outputs  # output indices that get gradients
        self.input_targets = input_targets  # input indices that get gradients
        self.params = params  # parameters that get gradients, after the inputs
        self.grad_index = grad_index  # target positions the backward program outputs
        self.backward_program = None
        forward_outputs = [f"out{j}" for j in range(n_out)] + [g for g, _ in self.guards]
        if grad_index:
            self.forward_program, self.backward_program, self.num_saved = program.split(
                forward_outputs)
            self._backward = self.backward_program.compile(parallel=parallel)
        else:
            self.forward_program, self.num_saved = program, 0
        # A guarded run may be discarded: its updates must not be written during the run.
        self._forward = self.forward_program.compile(parallel=parallel,
                                                     in_place_updates=not self.guards)
        outputs = self.forward_program.outputs
        self._guard_checks = [(outputs.index(g), float(v)) for g, v in self.guards]

    @property
    def planned_peak_bytes(self):
        return self._forward.planned_peak_bytes

    @property
    def measured_peak_bytes(self):
        return self._forward.measured_peak_bytes

    def run(self, inputs):
        """The function's result, or MISMATCH when a guard does not hold for these inputs."""
        for hook in self.before_run:
            hook()
        if self._guard_checks:
            result = self._forward.run_guarded(inputs, self._guard_checks)
            if result is None:
                return MISMATCH
        else:
            result = self._forward.run(inputs)
        for hook in self.after_run:
            hook()
        outs, saved = result[:self.n_out], result[self.n_out + len(self.guards):]
        if self.backward_program is None or not _C.is_grad_enabled():
            return unflatten(self.out_structure, outs)
        targets = [inputs[j] for j in self.input_targets] + list(self.params)
        n_targets = len(targets)
        run_backward = self._backward.run
        diff = self.diff_outputs
        grad_index = self.grad_index
        # The closure must not hold the outputs: the grad node it belongs to is held by them
        # (a cycle through C++ that Python's collector cannot see).
        zeros = {j: (outs[j].shape, outs[j].dtype) for j in diff}

        def backward(*grads):
            dys = [grads[j] if grads[j] is not None else _C.ops.zeros(*zeros[j]) for j in diff]
            got = run_backward(saved + dys)
            full = [None] * n_targets
            for m, g in zip(grad_index, got):
                full[m] = g
            return full

        non_diff = [j not in diff for j in range(len(outs))]
        linked, _ = _C._apply_py_layer(targets, outs, backward, "RunProgram", non_diff, [])
        return unflatten(self.out_structure, linked)


MISMATCH = object()  # ConcreteProgram.run: the program was captured for another path


def _capture(fn, structure, inputs, need_grad, parallel, feeds=None):
    """Captures fn(*args, **kwargs), `structure` being (args, kwargs) with _Slots for the
    tensors and `inputs` their (shape, dtype, name, stop_gradient). With `feeds` (input name
    -> the call's tensor), bool and int reads of Tensor values are speculated and guarded
    (value_guard.Speculation)."""
    cap = _C.jit.Capture()
    cap.set_locator(value_guard.user_location)
    cap.activate()
    hooks = ([], [])
    _run_hooks.append(hooks)
    speculation = value_guard.Speculation(cap, feeds) if feeds is not None else None
    if speculation is not None:
        value_guard._speculations.append(speculation)
    try:
        syms = []
        for shape, dtype, name, stop_gradient in inputs:
            s = cap.input(shape, dtype, name)
            s.stop_gradient = stop_gradient or not need_grad
            syms.append(s)
        a, k = unflatten(structure, syms)
        out = fn(*a, **k)
        outs = []
        out_structure = flatten(out, outs)
        for j, o in enumerate(outs):
            cap.output(o, f"out{j}")
        guards = []
        for i, (t, v) in enumerate(speculation.guards if speculation is not None else []):
            cap.output(t, f"guard{i}")
            guards.append((f"guard{i}", v))
        diff, input_targets, params, grad_index = [], [], [], []
        # A function that updated trainable parameters (a whole training step) already ran
        # its backward: its results get no gradient program.
        trains = any(not t.stop_gradient for t in cap.written)
        if need_grad and not trains:
            input_targets = [j for j, s in enumerate(syms) if not s.stop_gradient]
            params = [p for _, p in cap.params if not p.stop_gradient]
            diff = [j for j, o in enumerate(outs) if not o.stop_gradient and _is_float(o.dtype)]
            targets = [syms[j] for j in input_targets] + params
            if targets and diff:
                dys = [cap.input(outs[j].shape, outs[j].dtype, f"grad_out{j}") for j in diff]
                grads = _C.jit.gradients([outs[j] for j in diff], targets, dys)
                for m, g in enumerate(grads):
                    if g is not None:
                        cap.output(g, f"grad{m}")
                        grad_index.append(m)
    finally:
        if speculation is not None:
            value_guard._speculations.pop()
        _run_hooks.pop()
        if cap.active:
            cap.deactivate()
    all_params = [p for _, p in cap.params]
    program = cap.finish()
    concrete = ConcreteProgram(program, out_structure, len(outs), diff, input_targets, params,
                               grad_index, parallel, hooks, guards)
    concrete.inputs, concrete.outputs, concrete.parameters = syms, outs, all_params
    concrete.function, concrete.input_infos = fn, list(inputs)
    logging_utils.report_capture(fn, syms, program)
    return concrete


def _capture_specs(fn, specs, names):
    """A forward-only capture of fn(*tensors) for InputSpecs (jit.save)."""
    structure = ([_Slot(i) for i in range(len(specs))], {})
    inputs = [(s.ir_shape(), s.dtype, n, True) for s, n in zip(specs, names)]
    return _capture(fn, structure, inputs, False, False)


class PartialProgramLayer:
    """Runs one ConcreteProgram on tensors (what Paddle's get_concrete_program returns second):
    `layer(*args, **kwargs)` with the arguments' structure of the capture."""

    def __init__(self, concrete):
        self.program = concrete

    def __call__(self, *args, **kwargs):
        tensors = []
        flatten((args, kwargs), tensors)
        result = self.program.run(tensors)
        if result is MISMATCH:
            raise RuntimeError("PartialProgramLayer: the inputs took another path through the "
                               "function's Tensor-valued conditions than the captured program")
        return result


_EAGER = object()  # cache entry of a signature that runs eagerly (full_graph=False fallback)
MAX_PATHS = 8  # programs per input signature before the function runs eagerly


class StaticFunction:
    """The callable to_static returns; see the module docstring."""

    def __init__(self, function, input_spec=None, full_graph=False, instance=None,
                 parallel=False):
        self._function = function
        self._input_spec = list(input_spec) if input_spec is not None else None
        self._specs = _flat_specs(self._input_spec) if self._input_spec is not None else None
        self._full_graph = full_graph
        self._instance = instance
        self._parallel = parallel
        self._cache = {}
        self._last = None
        self._captures = 0
        # Captures and cache updates of one function are serialized: a compiled program may run
        # on many threads at once (its executor keeps per-run state), but a capture records into
        # process-wide hook lists and reorders the cache.
        self._lock = threading.RLock()
        functools.update_wrapper(self, function)

    def __get__(self, instance, owner):
        # A method decorated in a class body: one StaticFunction per instance, since its
        # programs bind that instance's parameters.
        if instance is None:
            return self
        attr = "_skiff_static_" + self._function.__name__
        bound = instance.__dict__.get(attr)
        if bound is None:
            bound = StaticFunction(self._function, self._input_spec, self._full_graph,
                                   instance, self._parallel)
            instance.__dict__[attr] = bound
        return bound

    @property
    def dygraph_function(self):
        if self._instance is None:
            return self._function
        return functools.partial(self._function, self._instance)

    @property
    def num_captures(self):
        """How many times the function was captured (one per cached program)."""
        return self._captures

    @property
    def program_cache(self):
        """Input signature -> the programs captured for it (one per path through its Tensor
        value reads)."""
        return {k: list(v) for k, v in self._cache.items() if v is not _EAGER}

    @property
    def concrete_program(self):
        """The program of the most recent call (Paddle's ConcreteProgram: inputs, outputs,
        main_program, parameters, function); before any call, the program for the input_spec
        given to to_static."""
        if self._last is None:
            if self._input_spec is None:
                raise ValueError(f"No valid transformed program for {self.__name__}: specify "
                                 f"`input_spec` in `to_static` or call the decorated function "
                                 f"once")
            return self.get_concrete_program(*self._input_spec)[0]
        return self._last

    def get_concrete_program(self, *args, **kwargs):
        """Captures the function for `args` (Tensors, or InputSpecs whose None dims stay
        dynamic) without running it; returns (concrete_program, partial_program_layer) as
        Paddle does, the second a callable that runs the program on tensors."""
        from ..static.input import InputSpec
        fn = self.dygraph_function
        spec_of = {}

        def lift(a):  # an InputSpec stands in as a tensor of its dtype
            if isinstance(a, InputSpec):
                t = _C.ops.zeros([1 if d is None or d < 0 else d for d in a.shape], a.dtype)
                spec_of[id(t)] = (t, a)
                return t
            if isinstance(a, (list, tuple)):
                return type(a)(lift(x) for x in a)
            if isinstance(a, dict):
                return {k: lift(v) for k, v in a.items()}
            return a

        args, kwargs = lift(args), lift(kwargs)
        tensors = []
        structure = flatten((args, kwargs), tensors)
        need_grad = _C.is_grad_enabled()
        inputs = []
        for i, t in enumerate(tensors):
            spec = spec_of.get(id(t), (None, None))[1]
            if spec is None:
                inputs.append((list(t.shape), t.dtype, f"input{i}", t.stop_gradient))
            else:
                inputs.append((spec.ir_shape(), t.dtype, spec.name or f"input{i}",
                               spec.stop_gradient))
        with self._lock:
            entry = _capture(fn, structure, inputs, need_grad, self._parallel)
            self._captures += 1
            self._last = entry
        return entry, PartialProgramLayer(entry)

    @property
    def input_spec(self):
        return self._input_spec

    def _owner(self):
        return self._instance if self._instance is not None else \
            getattr(self._function, "__self__", None)

    def rollback(self):
        """Layer.forward back to the eager function (Paddle's StaticFunction.rollback)."""
        owner = self._owner()
        if owner is not None and owner.__dict__.get("forward") is self:
            del owner.__dict__["forward"]
        return self.dygraph_function

    def __call__(self, *args, **kwargs):
        fn = self.dygraph_function
        # Inside another capture the function is simply inlined into that program.
        if not _enabled or _C.jit.is_capturing():
            return fn(*args, **kwargs)
        tensors = []
        structure = flatten((args, kwargs), tensors)
        need_grad = _C.is_grad_enabled()
        shapes, names, sig = [], [], []
        specs = self._specs if self._specs is not None and len(self._specs) >= len(tensors) \
            else None
        for i, t in enumerate(tensors):
            spec = specs[i] if specs is not None else None
            if spec is not None and not spec.matches(t):
                raise ValueError(f"to_static: {self.__name__}: input {i} expected a Tensor "
                                 f"matching {spec}, got {t.dtype} {t.shape}")
            shape = list(t.shape)
            if spec is not None and not need_grad:
                shape = spec.ir_shape()
            shapes.append(shape)
            names.append(spec.name if spec is not None and spec.name else f"input{i}")
            sig.append((str(t.dtype), tuple(shape), t.stop_gradient))
        owner = self._owner()
        # auto_cast around the call changes the captured ops (their casts): part of the key.
        amp = tuple(tuple(v) if isinstance(v, list) else v for v in _C.amp.state())
        key = (structure_key(structure), tuple(sig), need_grad,
               getattr(owner, "training", None), amp)
        paths = self._cache.get(key)
        if paths is _EAGER:
            return fn(*args, **kwargs)
        # One program per path through the function's value reads (guards); most recent first.
        for entry in list(paths or ()):
            result = entry.run(tensors)
            if result is not MISMATCH:
                if paths[0] is not entry:
                    with self._lock:
                        if entry in paths:
                            paths.remove(entry)
                            paths.insert(0, entry)
                self._last = entry
                return result
        with self._lock:
            return self._miss(fn, args, kwargs, key, tensors, structure, need_grad, shapes,
                              names)

    def _miss(self, fn, args, kwargs, key, tensors, structure, need_grad, shapes, names):
        """No cached program fits: capture one (under the function's lock)."""
        paths = self._cache.setdefault(key, [])
        if paths is _EAGER:
            return fn(*args, **kwargs)
        if paths:  # another thread may have captured this signature meanwhile
            result = paths[0].run(tensors)
            if result is not MISMATCH:
                self._last = paths[0]
                return result
        if len(paths) >= MAX_PATHS:
            warnings.warn(f"to_static: {self.__name__} took more than {MAX_PATHS} paths through "
                          f"its Tensor-valued conditions for one input signature; running it "
                          f"eagerly from now on.", stacklevel=2)
            self._cache[key] = _EAGER
            return fn(*args, **kwargs)
        inputs = [(shape, t.dtype, name, t.stop_gradient)
                  for t, shape, name in zip(tensors, shapes, names)]
        feeds = None if self._full_graph else dict(zip(names, tensors))
        try:
            entry = _capture(fn, structure, inputs, need_grad, self._parallel, feeds)
        except value_guard.Dy2StaticError as e:
            if self._full_graph:
                raise
            warnings.warn(f"{e} Running {self.__name__} eagerly for this input signature.",
                          stacklevel=2)
            self._cache[key] = _EAGER
            return fn(*args, **kwargs)
        self._captures += 1
        paths.insert(0, entry)
        self._last = entry
        result = entry.run(tensors)
        if result is MISMATCH:  # the path's values were read from these very inputs
            raise RuntimeError(f"to_static: {self.__name__}: a program failed the guards it was "
                               f"captured with (the function reads values nondeterministically?)")
        return result

    def __repr__(self):
        return f"StaticFunction({self.__name__}, captures={self._captures})"


def to_static(function=None, input_spec=None, build_strategy=None, backend=None,
              full_graph=False, **kwargs):
    """paddle.jit.to_static as a decorator or a function over a function or a Layer.

    full_graph=True: reading a Tensor's value inside the function (Python `if` on a Tensor) is
    an error naming the line. full_graph=False (Paddle's default): a bool or int read gets one
    guarded program per path taken (jit/value_guard.py); other reads run the function eagerly,
    with a warning. kwargs: parallel=True runs independent ops of the program on a thread pool.
    """
    if backend not in (None, "CINN"):
        raise ValueError(f"to_static: argument 'backend' expected None or 'CINN', got {backend!r}")
    parallel = bool(kwargs.pop("parallel", False))
    if kwargs:
        raise TypeError(f"to_static: unexpected arguments {sorted(kwargs)}")

    def decorate(fn):
        from ..nn import Layer

        if isinstance(fn, StaticFunction):
            return fn
        if isinstance(fn, Layer):
            forward = fn.forward
            if isinstance(forward, StaticFunction):
                return fn
            fn.__dict__["forward"] = StaticFunction(forward, input_spec, full_graph,
                                                    parallel=parallel)
            return fn
        if not callable(fn):
            raise TypeError(f"to_static: expected a function or a Layer, got "
                            f"{type(fn).__name__}")
        return StaticFunction(fn, input_spec, full_graph, parallel=parallel)

    return decorate if function is None else decorate(function)


def not_to_static(func=None):
    """paddle.jit.not_to_static: marks a function that to_static must not convert. Capture runs
    Python code as it is written (there is no source conversion to skip), so the function is
    returned unchanged and, called inside a captured function, is captured with it, which is
    what Paddle's AST mode does with such a function."""
    if func is None:
        return not_to_static
    return func
