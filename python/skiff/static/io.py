"""Saving static programs (Paddle's paddle.static.save/load and save/load_inference_model).

save(program, path) writes the program's persistable tensors (parameters in path.pdparams,
optimizer state in path.pdopt: skiff.save's pickle, Paddle's format) and its IR text
(path.pdmodel); load(program, path) copies them back by name.

save_inference_model(prefix, feed_vars, fetch_vars, exe) writes what computes fetch_vars from
feed_vars: the program pruned to them, dropout in inference mode, without updates, as text IR
(prefix.pdmodel) plus its parameters (prefix.pdiparams, safetensors) in the format of
paddle.jit.save, so skiff.jit.load reads it too. load_inference_model(prefix, exe) returns
[program, feed names, fetch targets] for exe.run."""
import json
import os

from .. import _C
from ..framework import Tensor
from .program import Program, default_main_program

__all__ = ["save", "load", "load_program_state", "set_program_state", "save_inference_model",
           "load_inference_model"]


def _check_path(path, what):
    if not isinstance(path, str) or not path or os.path.basename(path) == "":
        raise ValueError(f"{what}: argument 'path' expected 'dirname/prefix', got {path!r}")


def _persistables(program):
    params = {p.name: p for p in program.all_parameters()}
    state = {t.name: t for t in program._persistables if t.name not in params}
    return params, state


def save(program, model_path, protocol=4, **configs):
    """Writes model_path.pdparams (parameters), .pdopt (optimizer state) and .pdmodel (IR)."""
    from ..save_load import _write_atomic
    from ..save_load import save as save_obj
    if not isinstance(program, Program):
        raise TypeError(f"static.save: argument 'program' expected a skiff.static.Program, got "
                        f"{type(program).__name__}")
    _check_path(model_path, "static.save")
    params, state = _persistables(program)
    save_obj(params, model_path + ".pdparams", protocol)
    save_obj(state, model_path + ".pdopt", protocol)
    _write_atomic(model_path + ".pdmodel", str(program).encode())


def load_program_state(model_path, var_list=None):
    """{name: ndarray} from model_path.pdparams (and .pdopt when present)."""
    from ..save_load import load as load_obj
    files = [model_path + ".pdparams"]
    if not os.path.exists(files[0]):
        raise ValueError(f"static.load_program_state: {files[0]} does not exist")
    if os.path.exists(model_path + ".pdopt"):
        files.append(model_path + ".pdopt")
    state = {}
    for f in files:
        state.update(load_obj(f, return_numpy=True))
    return state


def set_program_state(program, state_dict):
    """Copies the arrays of `state_dict` into the program's tensors of the same names; a name
    the program lacks, or a shape that differs, is an error."""
    from ..nn._assign import assign_into
    from .program import outside_programs
    if not isinstance(program, Program):
        raise TypeError(f"static.set_program_state: argument 'program' expected a "
                        f"skiff.static.Program, got {type(program).__name__}")
    params, state = _persistables(program)
    targets = {**params, **state}
    with outside_programs():
        for name, value in state_dict.items():
            if name not in targets:
                raise ValueError(f"static.load: '{name}' is saved, but the program has no "
                                 f"tensor for it")
            t = targets[name]
            if list(value.shape) != list(t.shape):
                raise ValueError(f"static.load: '{name}' expected shape {list(t.shape)}, got "
                                 f"{list(value.shape)}")
            assign_into(t, value)


def load(program, model_path, executor=None, var_list=None):
    """Copies model_path.pdparams (and .pdopt when present) into the program's tensors by name
    (load_program_state + set_program_state)."""
    if not isinstance(program, Program):
        raise TypeError(f"static.load: argument 'program' expected a skiff.static.Program, got "
                        f"{type(program).__name__}")
    set_program_state(program, load_program_state(model_path))


class FetchTarget:
    """An output of a loaded inference program (what exe.run's fetch_list takes)."""

    def __init__(self, name, index):
        self.name = name
        self.index = index

    def __repr__(self):
        return f"FetchTarget({self.name})"


class InferenceProgram:
    """A program read by load_inference_model: run by Executor.run with its feed names."""

    def __init__(self, program, inputs, fetch_names):
        self._program = program  # _C.jit.Program
        self._inputs = inputs  # [(name, shape, dtype)]
        self._data = {n: (shape, getattr(_C.dtype, dtype), None) for n, shape, dtype in inputs}
        self.fetch_targets = [FetchTarget(n, i) for i, n in enumerate(fetch_names)]
        self._compiled = None

    def __str__(self):
        return self._program.text()

    def _run(self, feed, fetch_list, return_numpy):
        from .executor import _as_list, _feed_tensor
        from .program import outside_programs
        for name in feed:
            if name not in self._data:
                raise ValueError(f"Executor.run: feed '{name}' is not an input of the program "
                                 f"(inputs: {sorted(self._data)})")
        missing = [n for n, _, _ in self._inputs if n not in feed]
        if missing:
            raise ValueError(f"Executor.run: the program needs input '{missing[0]}', which is "
                             f"not in feed (fed: {sorted(feed)})")
        wanted = []
        for i, f in enumerate(_as_list(fetch_list) or self.fetch_targets):
            name = f.name if isinstance(f, FetchTarget) else f
            match = [t for t in self.fetch_targets if t.name == name]
            if not match:
                raise ValueError(f"Executor.run: fetch_list[{i}] ({name}) is not an output of "
                                 f"the loaded program ({[t.name for t in self.fetch_targets]})")
            wanted.append(match[0].index)
        with outside_programs():
            if self._compiled is None:
                self._compiled = self._program.compile()
            feeds = [_feed_tensor(self, n, feed[n]) for n, _, _ in self._inputs]
            outs = self._compiled.run(feeds)
        results = [outs[k] for k in wanted]
        return [r.numpy() for r in results] if return_numpy else results


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, program=None, **kwargs):
    """Writes path_prefix.pdmodel/.pdiparams: what computes fetch_vars from feed_vars."""
    from ..save_load import _write_atomic
    from .executor import _as_list
    _check_path(path_prefix, "static.save_inference_model")
    program = program or default_main_program()
    feed_vars, fetch_vars = _as_list(feed_vars), _as_list(fetch_vars)
    feed_names = []
    for i, v in enumerate(feed_vars):
        name = v if isinstance(v, str) else getattr(v, "name", None)
        if name not in program._data:
            raise ValueError(f"static.save_inference_model: feed_vars[{i}] ({name}) is not an "
                             f"input of the program (inputs: {sorted(program._data)})")
        feed_names.append(name)
    for i, v in enumerate(fetch_vars):
        if not isinstance(v, Tensor) or not v.is_symbolic or not program._owns(v):
            raise ValueError(f"static.save_inference_model: fetch_vars[{i}] expected a variable "
                             f"of the program")
    names = [f"fetch{i}" for i in range(len(fetch_vars))]
    source = program._source or program
    pruned = source._capture.snapshot(fetch_vars, names, False, program._max_ops, True).prune()
    for name in pruned.inputs:
        if name not in feed_names:
            raise ValueError(f"static.save_inference_model: the fetched values need input "
                             f"'{name}', which is not in feed_vars ({feed_names})")
    inputs = [{"name": n, "shape": list(program._data[n][0]), "dtype": program._data[n][1].name}
              for n in pruned.inputs]
    from ..jit.model_files import format_metadata
    meta = {**format_metadata(), "skiff.inputs": json.dumps(inputs),
            "skiff.outputs": json.dumps({"count": len(names), "single": len(names) == 1}),
            "skiff.state_names": json.dumps({}), "skiff.fetch_names": json.dumps(names)}
    os.makedirs(os.path.dirname(os.path.abspath(path_prefix)), exist_ok=True)
    _C.save_safetensors(list(pruned.params), path_prefix + ".pdiparams", meta)
    _write_atomic(path_prefix + ".pdmodel", pruned.text().encode())


def load_inference_model(path_prefix, executor, **kwargs):
    """[program, feed names, fetch targets] from save_inference_model's (or jit.save's) files."""
    from ..jit.model_files import read_inference_model
    model = read_inference_model(path_prefix, "static.load_inference_model")
    program, fetch_names = model.program, model.fetch_names
    inputs = [(i["name"], i["shape"], i["dtype"]) for i in model.inputs]
    p = InferenceProgram(program, inputs, fetch_names)
    return [p, [n for n, _, _ in inputs], p.fetch_targets]
