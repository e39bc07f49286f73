"""paddle.inference.convert_to_mixed_precision: a saved model rewritten once into a mixed-
precision copy, the files the predictor then loads as they are. The rewrite is the predictor's
own `cpu-bfloat16` pass (auto_cast O1's op classes, skiff/inference/pass_pipeline.h) followed by
fold-params, so the weights of white-list ops are stored in the low-precision dtype."""
import json
import os

from .. import _C
from ..save_load import _write_atomic

_inf = _C.inference
_DTYPES = {_inf.PrecisionType.Bfloat16: "bfloat16", _inf.PrecisionType.Half: "float16"}


def _op_names(op, arg, value):
    if isinstance(value, str) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"(InvalidType) {op}: argument '{arg}' expected a set of op names, got "
                        f"{value!r}")
    return set(value)


def convert_to_mixed_precision(model_file, params_file, mixed_model_file, mixed_params_file,
                               mixed_precision, backend, keep_io_types=True, black_list=set(),
                               **kwargs):
    """Writes mixed_model_file and mixed_params_file: the model of model_file + params_file with
    the ops auto_cast O1 runs in `mixed_precision` (PrecisionType.Bfloat16 or Half) converted,
    their weights stored in it, and casts where dtypes meet. `black_list` (and the keyword
    `white_list`) move op names (Skiff's record names, such as "matmul", "linear") to float32 or
    to the low precision. Inputs and outputs stay float32 (keep_io_types=True)."""
    op = "convert_to_mixed_precision"
    white_list = kwargs.pop("white_list", set())
    if kwargs:
        raise TypeError(f"{op}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if mixed_precision not in _DTYPES:
        raise ValueError(f"(InvalidArgument) {op}: argument 'mixed_precision' expected "
                         f"PrecisionType.Bfloat16 or PrecisionType.Half, got {mixed_precision!r}")
    if backend != _inf.PlaceType.CPU:
        raise NotImplementedError(f"(Unimplemented) {op}: argument 'backend' expected "
                                  f"PlaceType.CPU (the predictor runs CPU kernels), got "
                                  f"{backend!r}")
    if keep_io_types is not True:
        raise NotImplementedError(f"(Unimplemented) {op}: argument 'keep_io_types' expected "
                                  f"True (inputs and outputs stay float32), got "
                                  f"{keep_io_types!r}")
    for arg, path in (("model_file", model_file), ("params_file", params_file),
                      ("mixed_model_file", mixed_model_file),
                      ("mixed_params_file", mixed_params_file)):
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"(InvalidType) {op}: argument '{arg}' expected a str path, got "
                            f"{type(path).__name__}")
    model_file, params_file = os.fspath(model_file), os.fspath(params_file)
    mixed_model_file, mixed_params_file = os.fspath(mixed_model_file), os.fspath(mixed_params_file)
    if {os.path.abspath(mixed_model_file), os.path.abspath(mixed_params_file)} & {
            os.path.abspath(model_file), os.path.abspath(params_file)}:
        raise ValueError(f"(InvalidArgument) {op}: the mixed files must not overwrite the model "
                         f"they are converted from ({model_file}, {params_file})")
    text, params = _inf.convert_program_precision(
        model_file, params_file, _DTYPES[mixed_precision], _op_names(op, "white_list", white_list),
        _op_names(op, "black_list", black_list))
    # The metadata (format, inputs, outputs) carries over; state names only for the parameters
    # still there (folded ones are new).
    _, meta = _C.load_safetensors(params_file)
    kept = {name for name, _ in params}
    names = json.loads(meta.get("skiff.state_names", "{}"))
    meta["skiff.state_names"] = json.dumps({k: v for k, v in names.items() if k in kept})
    _C.save_safetensors(params, mixed_params_file, meta)
    _write_atomic(mixed_model_file, text.encode())
