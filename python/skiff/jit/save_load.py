"""paddle.jit.save / paddle.jit.load: a Layer's forward captured for an input spec, saved as the
program's text IR (`path.pdmodel`) and its parameters (`path.pdiparams`, safetensors, which the
C++ side reads too); loaded back as a callable TranslatedLayer that runs the program with the
executor. Both files are written atomically."""
import json
import os

from .. import _C
from ..autograd import no_grad
from ..nn import Layer
from ..static.input import InputSpec
from . import save_hooks
from .flatten import _Slot
from .static_function import StaticFunction, _capture_specs, _flat_specs

from .model_files import MODEL_SUFFIX, PARAMS_SUFFIX, format_metadata, read_inference_model


def _function_of(layer):
    if isinstance(layer, Layer):
        return layer.forward, layer
    if isinstance(layer, StaticFunction):
        return layer, getattr(layer, "_instance", None)
    if callable(layer):
        return layer, None
    raise TypeError(f"jit.save: argument 'layer' expected a Layer or a function, got "
                    f"{type(layer).__name__}")


def save(layer, path, input_spec=None, **configs):
    """Captures `layer`'s forward for `input_spec` (the one given to to_static if omitted) and
    writes path.pdmodel and path.pdiparams. Capture runs under no_grad in the layer's current
    mode (call layer.eval() first for inference)."""
    if not isinstance(path, str) or not path or os.path.basename(path) == "":
        raise ValueError(f"jit.save: argument 'path' expected 'dirname/prefix', got {path!r}")
    save_hooks.run_pre_save_hooks(layer, input_spec, configs)
    fn, owner = _function_of(layer)
    if input_spec is None and isinstance(fn, StaticFunction):
        input_spec = fn.input_spec
        if input_spec is None and fn._last is not None:
            # Paddle saves the program traced by the most recent call: its inputs' shapes,
            # dtypes and names (captured again forward-only, under no_grad).
            input_spec = [InputSpec([None if d < 0 else d for d in shape], dtype, name)
                          for shape, dtype, name, _ in fn._last.input_infos]
    if input_spec is None:
        raise ValueError("jit.save: argument 'input_spec' is required (a list of InputSpec, one "
                         "per Tensor argument of forward) unless forward was decorated with "
                         "to_static(input_spec=...) or called once after to_static")
    specs = _flat_specs(input_spec)
    if any(s is None for s in specs):
        raise ValueError(f"jit.save: argument 'input_spec' expected an InputSpec for every "
                         f"Tensor argument, got {input_spec}")
    function = fn.dygraph_function if isinstance(fn, StaticFunction) else fn
    names = [s.name or f"input{i}" for i, s in enumerate(specs)]
    if len(set(names)) != len(names):
        raise ValueError(f"jit.save: input names must be distinct, got {names}")
    with no_grad():
        concrete = _capture_specs(function, specs, names)
    program = concrete.main_program
    state_names = {}
    if isinstance(owner, Layer):
        state = owner.state_dict()
        for ir_name, t in program.params:
            for key, value in state.items():
                if isinstance(value, _C.Tensor) and value._is_same(t):
                    state_names[ir_name] = key
                    break
    meta = {
        **format_metadata(),
        "skiff.inputs": json.dumps([{"name": n, "shape": list(s.ir_shape()), "dtype": s.dtype}
                                    for n, s in zip(names, specs)]),
        "skiff.outputs": json.dumps({"count": concrete.n_out,
                                     "single": isinstance(concrete.out_structure, _Slot)}),
        "skiff.state_names": json.dumps(state_names),
    }
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    _C.save_safetensors(list(program.params), path + PARAMS_SUFFIX, meta)
    from ..save_load import _write_atomic
    _write_atomic(path + MODEL_SUFFIX, program.text().encode())


class TranslatedLayer(Layer):
    """A Layer loaded by jit.load: calls run the saved program (inference; its parameters are
    in state_dict() under the saved layer's names)."""

    def __init__(self, model):
        super().__init__()
        self._program = model.program
        self._compiled = None
        self._input_specs = [InputSpec(i["shape"], i["dtype"], i["name"]) for i in model.inputs]
        self._single = model.single
        for ir_name, t in model.params:
            self._buffers[model.state_names.get(ir_name, ir_name)] = t

    @property
    def program(self):
        """The program's text IR."""
        return self._program.text()

    def input_spec(self):
        return list(self._input_specs)

    def forward(self, *inputs):
        if len(inputs) != len(self._input_specs):
            raise ValueError(f"TranslatedLayer: expected {len(self._input_specs)} inputs "
                             f"({self._input_specs}), got {len(inputs)}")
        for i, (x, spec) in enumerate(zip(inputs, self._input_specs)):
            if not isinstance(x, _C.Tensor):
                raise TypeError(f"TranslatedLayer: input {i} expected a Tensor, got "
                                f"{type(x).__name__}")
            if not spec.matches(x):
                raise ValueError(f"TranslatedLayer: input {i} ({spec.name}) expected a Tensor "
                                 f"of {spec.dtype} {list(spec.shape)}, got {x.dtype} {x.shape}")
        compiled = self._compiled
        if compiled is None:  # threads racing here compile one program each; one is kept
            compiled = self._compiled = self._program.compile()
        outs = compiled.run(list(inputs))
        return outs[0] if self._single else outs


def load(path, **configs):
    """A TranslatedLayer from path.pdmodel and path.pdiparams (written by jit.save)."""
    return TranslatedLayer(read_inference_model(path, "jit.load"))
