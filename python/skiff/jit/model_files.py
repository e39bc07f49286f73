"""Reading an inference model (`prefix.pdmodel` text IR + `prefix.pdiparams` safetensors), shared
by jit.load and static.load_inference_model. Every way a file can be damaged (not UTF-8, a
program that does not parse, no outputs, metadata that is missing, not JSON, of the wrong shape
or disagreeing with the program) is a ValueError naming the loader and the file; an unreadable
or corrupt parameter file is the C++ reader's OSError, which names the file too."""
import json
import os

from .. import _C

MODEL_SUFFIX = ".pdmodel"
PARAMS_SUFFIX = ".pdiparams"
# The model format version this Skiff writes and reads (docs/FORMATS.md). A change that an
# older reader would misread bumps it.
FORMAT_VERSION = 1


def format_metadata():
    """The metadata every writer of an inference model puts first: format and producer."""
    from .. import version
    return {"skiff.format": str(FORMAT_VERSION), "skiff.producer": f"skiff {version.full_version}"}


def _check_format(op, params_file, meta):
    from .. import version
    got = meta.get("skiff.format")
    producer = meta.get("skiff.producer", "an unknown producer")
    if got is None:
        raise ValueError(f"{op}: '{params_file}' has no metadata 'skiff.format' (not written by "
                         "jit.save or static.save_inference_model?)")
    if got != str(FORMAT_VERSION):
        newer = got.isdigit() and int(got) > FORMAT_VERSION
        raise ValueError(f"{op}: '{params_file}' is in model format version {got!r} (written by "
                         f"{producer}), {'newer than' if newer else 'unknown to'} this Skiff "
                         f"{version.full_version}, which reads format version {FORMAT_VERSION}"
                         + (": load it with a newer Skiff" if newer else ""))

_DTYPES = {"bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
           "float64"}


class InferenceModel:
    """What a model directory holds, validated: program (_C.jit.Program), params
    [(ir name, Tensor)], inputs [{name, shape, dtype}], n_out, single, state_names, fetch_names."""

    def __init__(self, program, params, inputs, n_out, single, state_names, fetch_names):
        self.program = program
        self.params = params
        self.inputs = inputs
        self.n_out = n_out
        self.single = single
        self.state_names = state_names
        self.fetch_names = fetch_names


def _json(op, params_file, meta, key, default=None):
    if key not in meta:
        if default is not None:
            return default
        raise ValueError(f"{op}: '{params_file}' has no metadata '{key}' (not written by "
                         "jit.save or static.save_inference_model?)")
    try:
        return json.loads(meta[key])
    except (ValueError, TypeError) as e:
        raise ValueError(f"{op}: '{params_file}' has metadata '{key}' that is not JSON: "
                         f"{e}") from None


def _bad(op, params_file, key, expected, got):
    return ValueError(f"{op}: '{params_file}' metadata '{key}' expected {expected}, got "
                      f"{str(got)[:200]}")


def _check_inputs(op, params_file, inputs):
    key = "skiff.inputs"
    if not isinstance(inputs, list):
        raise _bad(op, params_file, key, "a list of inputs", inputs)
    for i in inputs:
        if not (isinstance(i, dict) and isinstance(i.get("name"), str)
                and isinstance(i.get("shape"), list)
                and all(isinstance(d, int) and not isinstance(d, bool) and d >= -1
                        for d in i["shape"])
                and i.get("dtype") in _DTYPES):
            raise _bad(op, params_file, key,
                       "entries {name: str, shape: [int >= -1], dtype: a dtype name}", i)


def read_inference_model(prefix, op):
    """The validated InferenceModel at `prefix` (`op` names the loader in errors)."""
    if not isinstance(prefix, (str, os.PathLike)):
        raise TypeError(f"{op}: argument 'path' expected a str path prefix, got "
                        f"{type(prefix).__name__}")
    prefix = os.fspath(prefix)
    model, params_file = prefix + MODEL_SUFFIX, prefix + PARAMS_SUFFIX
    for f in (model, params_file):
        if not os.path.exists(f):
            raise ValueError(f"{op}: {f} does not exist (the model is saved as "
                             f"path{MODEL_SUFFIX} and path{PARAMS_SUFFIX})")
        if os.path.isdir(f):
            raise ValueError(f"{op}: {f} is a directory, not a model file")
    with open(model, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{op}: '{model}' is not a text IR program (not UTF-8 at byte "
                         f"{e.start})") from None
    params, meta = _C.load_safetensors(params_file)
    _check_format(op, params_file, meta)
    try:
        program = _C.jit.Program.parse(text, params)
    except (ValueError, TypeError, IndexError, KeyError, NotImplementedError, RuntimeError) as e:
        raise type(e)(f"{op}: '{model}' is not a valid program: {e}") from None
    outs = list(program.outputs)
    if not outs:
        raise ValueError(f"{op}: '{model}' has no outputs (no builtin.shadow_output op)")
    inputs = _json(op, params_file, meta, "skiff.inputs")
    _check_inputs(op, params_file, inputs)
    if [i["name"] for i in inputs] != list(program.inputs):
        raise ValueError(f"{op}: '{params_file}' metadata 'skiff.inputs' names inputs "
                         f"{[i['name'] for i in inputs]}, but '{model}' reads "
                         f"{list(program.inputs)}")
    outputs = _json(op, params_file, meta, "skiff.outputs")
    if not (isinstance(outputs, dict) and isinstance(outputs.get("count"), int)
            and isinstance(outputs.get("single", False), bool)):
        raise _bad(op, params_file, "skiff.outputs", "{count: int, single: bool}", outputs)
    if outputs["count"] != len(outs):
        raise ValueError(f"{op}: '{params_file}' metadata 'skiff.outputs' declares "
                         f"{outputs['count']} outputs, but '{model}' has {len(outs)}")
    single = outputs.get("single", False)
    if single and len(outs) != 1:
        raise _bad(op, params_file, "skiff.outputs", "single only with 1 output", outputs)
    state_names = _json(op, params_file, meta, "skiff.state_names", default={})
    if not (isinstance(state_names, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in state_names.items())):
        raise _bad(op, params_file, "skiff.state_names", "a dict of str -> str", state_names)
    fetch_names = _json(op, params_file, meta, "skiff.fetch_names", default=[])
    if not (isinstance(fetch_names, list) and all(isinstance(n, str) for n in fetch_names)
            and (not fetch_names or len(fetch_names) == len(outs))):
        raise _bad(op, params_file, "skiff.fetch_names", f"{len(outs)} names", fetch_names)
    return InferenceModel(program, params, inputs, len(outs), single, state_names,
                          fetch_names or [f"out{i}" for i in range(len(outs))])
