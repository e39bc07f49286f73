"""optimizer.minimize(loss) in static mode: appends backward (append_backward) and the
optimizer's update ops (the fused ops eager uses, captured functionally: their writes into
parameters and moments become updates of the program) to the loss's program.

The learning rate is a 0-D tensor the executor rewrites before each run from
optimizer.get_lr() (an LRScheduler's current value, as Paddle does), scaled per parameter group
inside the program; Adam's step is a persistent counter the program increments. Moments and the
counter are initialized by the startup program."""
from .. import _C, float32, no_grad
from ..nn import unique_name
from ..nn.functional._common_ops import ops as _ops
from .backward import append_backward
from .persistent import create_persistent
from .program import building, default_startup_program, outside_programs, program_of

__all__ = ["minimize"]


class _StaticStep:
    """What an optimizer's _apply needs from the program being built."""

    def __init__(self, opt, program, startup):
        self.opt = opt
        self.program = program
        self.startup = startup
        with outside_programs():
            self.lr = _ops.full([], 0.0, float32)
        self._step = None

    def persistent(self, shape, fill_value, dtype):
        t = create_persistent(shape, dtype, lambda: _ops.full(shape, fill_value, dtype),
                              self.startup)
        self.program._persistables.append(t)  # static.save writes it to .pdopt
        return t

    def lr_tensor(self, multiplier):
        return self.lr if multiplier == 1.0 else _ops.scale(self.lr, float(multiplier), 0.0, True)

    def step_tensor(self):
        """The step number of this run (the counter, incremented once per run)."""
        if self._step is None:
            counter = self.persistent([], 0.0, float32)
            counter.name = unique_name.generate(f"{type(self.opt).__name__.lower()}_step")
            self._step = _ops.scale(counter, 1.0, 1.0, True)
            _C.jit.update_parameter(counter, self._step)
        return self._step


def minimize(opt, loss, startup_program=None, parameters=None, no_grad_set=None):
    program = program_of(loss, "Optimizer.minimize: argument 'loss'")
    startup = startup_program or default_startup_program()
    if parameters is None:
        parameters = [p for g in opt._param_groups for p in g["params"]] or None
    params_grads = append_backward(loss, parameters, no_grad_set)
    if not opt._parameter_list:  # built without parameters: those of the program
        opt._param_groups[0]["params"] = [p for p, _ in params_grads]
        opt._parameter_list = list(opt._param_groups[0]["params"])
    grads = {id(p): g for p, g in params_grads}
    opt._static = _StaticStep(opt, program, startup)
    try:
        with building(program), no_grad():
            for group in opt._param_groups:
                opt._update_group(group, [(p, grads[id(p)]) for p in group["params"]
                                          if id(p) in grads])
        program._lr_vars.append((opt, opt._static.lr))
    finally:
        opt._static = None
    return None, params_grads
