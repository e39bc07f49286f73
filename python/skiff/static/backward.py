"""paddle.static.append_backward and gradients: the backward ops are appended to the program by
running the eager VJP rules on its symbolic tensors (skiff._C.jit.gradients)."""
from .. import _C
from ..framework import Tensor
from .print_op import add_gradient_prints
from .program import building, program_of

__all__ = ["append_backward", "gradients"]


def _names(no_grad_set):
    out = set()
    for v in no_grad_set or ():
        out.add(v if isinstance(v, str) else v.name)
    return out


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None,
                    checkpoints=None, distop_context=None):
    """Appends the gradient of `loss` with respect to the trainable parameters of its program
    (or `parameter_list`: tensors or names) and returns [(param, grad)]; a parameter `loss` does
    not depend on is left out. Gradients are named `<param>@GRAD`, so they can be fetched by
    name."""
    program = program_of(loss, "append_backward: argument 'loss'")
    if parameter_list is None:
        params = program.all_parameters()
    else:
        params = [program._find_var(p, "append_backward: parameter_list") if isinstance(p, str)
                  else p for p in parameter_list]
    skip = _names(no_grad_set)
    params = [p for p in params if not p.stop_gradient and p.name not in skip]
    if not params:
        return []
    with building(program):
        grads = _C.jit.gradients([loss], params)
        add_gradient_prints(program, lambda ts: _C.jit.gradients([loss], ts))
    pairs = []
    for p, g in zip(params, grads):
        if g is None:
            continue
        g.name = p.name + "@GRAD"
        pairs.append((p, g))
    return pairs


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """d(sum of targets * target_gradients) / d(inputs), appended to the targets' program; None
    for an input the targets do not depend on (or one in no_grad_set). An input variable needs
    stop_gradient = False before the ops that use it are built, as in Paddle."""
    targets = _as_list(targets)
    inputs = _as_list(inputs)
    program = program_of(targets[0], "gradients: argument 'targets'")
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            raise TypeError(f"gradients: inputs[{i}] expected a Tensor, got {type(t).__name__}")
    tg = None if target_gradients is None else _as_list(target_gradients)
    if tg is not None and len(tg) != len(targets):
        raise ValueError(f"gradients: argument 'target_gradients' expected {len(targets)} "
                         f"tensors (one per target), got {len(tg)}")
    skip = _names(no_grad_set)
    with building(program):
        grads = _C.jit.gradients(targets, inputs, tg)
        add_gradient_prints(program, lambda ts: _C.jit.gradients(targets, ts, tg))
    return [None if (g is None or t.name in skip) else g for t, g in zip(inputs, grads)]
