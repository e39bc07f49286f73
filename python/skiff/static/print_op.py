"""paddle.static.Print: print a tensor's value each time the program runs.

Print(x) returns a copy of x and registers the copy with its program. Executor.run fetches the
registered tensors along with the fetch list and prints them, in the order the Prints were
made, when the run's ops have executed (so within the run, with the values that run computed;
the forward prints first, then the gradients, as in Paddle where backward runs after forward).
With print_phase 'backward' or 'both', append_backward/gradients also differentiate with
respect to the copy and register its gradient ('<name>@GRAD'). Eagerly, Print prints at once.
The format is Paddle's TensorFormatter:

    Variable: print_0.tmp
      - message: The content of input layer:
      - lod: {}
      - place: Place(cpu)
      - shape: [2, 3]
      - layout: NCHW
      - dtype: float
      - data: [3 3 3 3 3 3]
"""
import numpy as np

__all__ = ["Print"]

_PHASES = ("forward", "backward", "both")
# Paddle's DataTypeToString names
_DTYPE_NAMES = {"float32": "float", "float64": "double", "float16": "float16",
                "bfloat16": "bfloat16", "int64": "int64_t", "int32": "int", "int16": "int16_t",
                "int8": "int8_t", "uint8": "uint8_t", "bool": "bool"}


class _PrintEntry:
    def __init__(self, tensor, name, options, backward=False, end=None):
        self.end = end  # the program's op count once the copy exists (a clone's prefix test)
        self.tensor = tensor
        self.name = name
        self.options = options
        self.backward = backward
        self.printed = 0

    def emit(self, value):
        first_n = self.options["first_n"]
        if first_n >= 0 and self.printed >= first_n:
            return
        self.printed += 1
        print(format_tensor(value, self.name, self.options), end="", flush=True)


def _value(v):
    return f"{v:g}" if isinstance(v, float) else str(int(v) if isinstance(v, bool) else v)


def format_tensor(value, name, o):
    """Paddle's TensorFormatter text of `value` (a numpy array)."""
    lines = []
    if o["print_tensor_name"]:
        lines.append(f"Variable: {name}")
    if o["message"]:
        lines.append(f"  - message: {o['message']}")
    if o["print_tensor_lod"]:
        lines.append("  - lod: {}")
    lines.append("  - place: Place(cpu)")
    if o["print_tensor_shape"]:
        lines.append(f"  - shape: [{', '.join(str(d) for d in value.shape)}]")
    if o["print_tensor_layout"]:
        lines.append("  - layout: NCHW")
    if o["print_tensor_type"]:
        lines.append(f"  - dtype: {_DTYPE_NAMES.get(o['dtype'], o['dtype'])}")
    flat = value.reshape(-1).tolist()
    n = len(flat) if o["summarize"] < 0 else min(o["summarize"], len(flat))
    lines.append(f"  - data: [{' '.join(_value(v) for v in flat[:n])}]")
    return "\n".join(lines) + "\n"


def Print(input, first_n=-1, message=None, summarize=20, print_tensor_name=True,  # noqa: N802
          print_tensor_type=True, print_tensor_shape=True, print_tensor_layout=True,
          print_tensor_lod=True, print_phase="both"):
    """Prints `input` (name, shape, dtype and its first `summarize` values) each run, at most
    `first_n` times (-1: every time); returns a copy of it to use instead."""
    from .. import Tensor, framework
    from .._C import ops
    from ..nn import unique_name
    if not isinstance(input, Tensor):
        raise TypeError(f"(InvalidType) Print: argument 'input' expected a Tensor, got "
                        f"{type(input).__name__}")
    if input.dtype.name not in _DTYPE_NAMES or input.dtype.name in ("int8", "int16", "uint8"):
        raise TypeError(f"(InvalidType) Print: argument 'input' expected a bool, int32, int64, "
                        f"float16, bfloat16, float32 or float64 tensor, got {input.dtype.name}")
    if not isinstance(print_phase, str) or print_phase.lower() not in _PHASES:
        raise ValueError(f"(InvalidArgument) Print: argument 'print_phase' expected one of "
                         f"{list(_PHASES)}, got {print_phase!r}")
    for arg, v in (("first_n", first_n), ("summarize", summarize)):
        if not isinstance(v, int) or isinstance(v, bool) or v < -1:
            raise ValueError(f"(InvalidArgument) Print: argument '{arg}' expected an int >= -1, "
                             f"got {v!r}")
    options = {"first_n": first_n, "message": message, "summarize": summarize,
               "print_tensor_name": print_tensor_name, "print_tensor_type": print_tensor_type,
               "print_tensor_shape": print_tensor_shape,
               "print_tensor_layout": print_tensor_layout, "print_tensor_lod": print_tensor_lod,
               "dtype": input.dtype.name, "phase": print_phase.lower()}
    out = ops.assign(input)
    if framework.in_dynamic_mode() and not out.is_symbolic:
        if options["phase"] != "backward":
            _PrintEntry(out, input.name, options).emit(input.numpy())
        return out
    from .program import program_of
    try:
        program = program_of(out, "Print: argument 'input'")
    except ValueError:
        raise NotImplementedError("(Unimplemented) Print: argument 'input' is a variable of a "
                                  "to_static capture; Print runs in static Programs and "
                                  "eagerly") from None
    out.name = unique_name.generate("print") + ".tmp"
    program._named[out.name] = out
    program._prints.append(_PrintEntry(out, out.name, options, end=program._num_raw_ops()))
    return out


def add_gradient_prints(program, gradient_of):
    """After backward was appended: registers the gradient of each Print copy whose phase
    includes backward. gradient_of(tensors) returns their gradients (None: not reached)."""
    todo = [e for e in program._prints
            if not e.backward and e.options["phase"] != "forward" and not e.options.get("done")]
    if not todo:
        return
    grads = gradient_of([e.tensor for e in todo])
    for e, g in zip(todo, grads):
        e.options["done"] = True
        if g is None:
            continue
        g.name = e.name + "@GRAD"
        program._named[g.name] = g
        program._prints.append(_PrintEntry(g, g.name, dict(e.options), backward=True,
                                           end=program._num_raw_ops()))


def print_targets(program):
    """The Print entries a run of `program` prints (a clone: those inside its prefix)."""
    entries = program._prints
    if program._max_ops is not None:
        entries = [e for e in entries if e.end is not None and e.end <= program._max_ops]
    return [e for e in entries if e.backward or e.options["phase"] != "backward"]


def emit_prints(entries, values):
    """Prints the run's values of the Print tensors: forward ones, then gradients."""
    entries = sorted(entries, key=lambda e: e.backward)  # stable: creation order within each phase
    for e in entries:
        v = values.get(id(e.tensor))
        if v is not None:
            e.emit(np.asarray(v))

