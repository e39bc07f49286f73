"""An optimizer step inside a to_static capture (a whole training step as one program).

The optimizer runs its usual fused update ops; the capture turns their writes into parameters
and moments into updates of the program. What must not be frozen into the program comes from
dense tensors refreshed before every run: the learning rate (optimizer.get_lr(), so an
LRScheduler stepped outside the function is followed) and Adam's step number (the optimizer's
own counters advance once per run, so state_dict() stays right and a recapture continues the
count). Moments are created eagerly, outside the program: they persist between runs and are in
the optimizer's state_dict as in eager mode. This is the `opt._static` protocol
skiff/static/optimize.py uses for Paddle's static minimize."""
import contextlib

from .. import _C, float32
from ..nn.functional._common_ops import ops as _ops
from .static_function import on_every_run


class CapturedStep:
    def __init__(self, opt, params):
        self.opt = opt
        with _C.jit.suspend():
            self.lr = _ops.full([], float(opt.get_lr()), float32)
        self._params = [p.name for p in params]
        self._step = None
        lr = self.lr
        on_every_run(lambda: lr.fill_(float(opt.get_lr())))

    def persistent(self, shape, fill_value, dtype):
        with _C.jit.suspend():
            return _ops.full(shape, fill_value, dtype)

    def lr_tensor(self, multiplier):
        return self.lr if multiplier == 1.0 else _ops.scale(self.lr, float(multiplier), 0.0, True)

    def step_tensor(self):
        if self._step is None:
            with _C.jit.suspend():
                step = _ops.full([], 0.0, float32)
            opt, names = self.opt, self._params

            def advance():  # once the run counted (its guards held)
                for n in names:
                    opt._steps[n] = opt._steps.get(n, 0) + 1

            on_every_run(lambda: step.fill_(float(opt._steps.get(names[0], 0) + 1)))
            on_every_run(advance, after=True)
            self._step = step
        return self._step


@contextlib.contextmanager
def captured_step(opt):
    params = [p for g in opt._param_groups for p, _ in opt._collect(g)]
    opt._static = CapturedStep(opt, params)
    try:
        yield
    finally:
        opt._static = None
