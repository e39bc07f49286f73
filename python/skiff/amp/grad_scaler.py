"""Dynamic loss scaling (Paddle's python/paddle/amp/grad_scaler.py): AmpScaler and GradScaler.

scale(loss) multiplies the loss by the scale; unscale_ divides every gradient of an optimizer
by it and records whether one of them holds an inf or nan (one reduction per gradient, one
host read for all); step() skips the update on inf/nan; update() moves the scale as Paddle's
update_loss_scaling op: after `decr_every_n_nan_or_inf` steps with inf/nan it is multiplied by
decr_ratio (never below 1), after `incr_every_n_steps` finite steps by incr_ratio (when the
result is finite)."""
import collections
import enum
import math

from .. import Tensor, no_grad
from .. import _C

__all__ = ["AmpScaler", "GradScaler", "OptimizerState"]


class OptimizerState(enum.Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_optimizer_state():
    return {"state": OptimizerState.INIT}


def _number(v, name):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"GradScaler: argument '{name}' expected a number, got "
                        f"{type(v).__name__}")
    return v


class AmpScaler:
    def __init__(self, enable=True, init_loss_scaling=2.0**15, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=1000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True):
        self._enable = bool(enable)
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._found_inf = False
        self._cache_founf_inf = None
        self._optimizer_states = collections.defaultdict(_refresh_optimizer_state)
        if self._enable:
            if _number(incr_ratio, "incr_ratio") <= 1.0:
                raise AssertionError("The incr_ratio must be > 1.0.")
            if _number(decr_ratio, "decr_ratio") >= 1.0:
                raise AssertionError("The decr_ratio must be < 1.0.")
            self._init_loss_scaling = float(_number(init_loss_scaling, "init_loss_scaling"))
            self._incr_ratio = float(incr_ratio)
            self._decr_ratio = float(decr_ratio)
            self._incr_every_n_steps = int(_number(incr_every_n_steps, "incr_every_n_steps"))
            self._decr_every_n_nan_or_inf = int(_number(decr_every_n_nan_or_inf,
                                                        "decr_every_n_nan_or_inf"))
            self._incr_count = 0
            self._decr_count = 0
            self._use_dynamic_loss_scaling = bool(use_dynamic_loss_scaling)
            self._scale = float(self._init_loss_scaling)

    def scale(self, var):
        """The loss multiplied by the loss scale (the loss itself when disabled)."""
        if not isinstance(var, Tensor):
            raise TypeError("The type of 'var' in AmpScaler.scale() must be Tensor, but "
                            f"received {type(var).__name__}.")
        if not self._enable:
            return var
        # In float32 (as Paddle's float32 scale tensor promotes): 2**16 overflows float16.
        if str(var.dtype) != "paddle.float32":
            var = _C.ops.cast(var, "float32")
        return var * _C.ops.full([], self._scale, "float32")

    def _grads_of(self, optimizer):
        out = []
        for p in optimizer._parameter_list:
            if p.stop_gradient:
                continue
            g = p.grad
            if g is not None:
                out.append(g)
        return out

    def _unscale(self, optimizer):
        if not self._enable:
            return
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        grads = self._grads_of(optimizer)
        found = False
        if grads:
            with no_grad():
                inv = 1.0 / self._scale
                finite = []
                for g in grads:
                    g.multiply_(_C.ops.full([], inv, g.dtype))
                    finite.append(_C.ops.reshape(_C.ops.all(_C.ops.isfinite(g)), [1]))
                found = not bool(_C.ops.all(_C.ops.concat(finite, 0)).item())
        self._found_inf = found
        state["state"] = OptimizerState.UNSCALED

    def _update(self):
        if not self._enable:
            return
        if self._cache_founf_inf:
            self._incr_count = 0
            self._decr_count += 1
            if self._decr_count == self._decr_every_n_nan_or_inf:
                self._scale = max(self._scale * self._decr_ratio, 1.0)
                self._decr_count = 0
        else:
            self._decr_count = 0
            self._incr_count += 1
            if self._incr_count == self._incr_every_n_steps:
                new = self._scale * self._incr_ratio
                if math.isfinite(new):
                    self._scale = new
                self._incr_count = 0

    def minimize(self, optimizer, *args, **kwargs):
        """Unscales (unless done), runs optimizer.minimize(*args, **kwargs) unless a gradient
        holds inf/nan, and updates the scale. Returns what minimize returned (None, None when
        skipped)."""
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        result = (None, None)
        if self._found_inf:
            self._cache_founf_inf = True
        else:
            result = optimizer.minimize(*args, **kwargs)
            self._cache_founf_inf = False
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = collections.defaultdict(_refresh_optimizer_state)
        return result

    def is_enable(self):
        return self._enable

    def is_use_dynamic_loss_scaling(self):
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self):
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling):
        self._init_loss_scaling = float(new_init_loss_scaling)
        self._scale = float(new_init_loss_scaling)

    def get_loss_scaling(self):
        """The current scale, a float32 Tensor of shape [1] as Paddle's."""
        return _C.ops.full([1], self._scale if self._enable else 1.0, "float32")

    def get_incr_ratio(self):
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio):
        if new_incr_ratio <= 1.0:
            raise AssertionError("The new_incr_ratio must be > 1.0.")
        self._incr_ratio = float(new_incr_ratio)

    def get_decr_ratio(self):
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio):
        if new_decr_ratio >= 1.0:
            raise AssertionError("The new_decr_ratio must be < 1.0.")
        self._decr_ratio = float(new_decr_ratio)

    def get_incr_every_n_steps(self):
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps):
        self._incr_every_n_steps = int(new_incr_every_n_steps)

    def get_decr_every_n_nan_or_inf(self):
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf):
        self._decr_every_n_nan_or_inf = int(new_decr_every_n_nan_or_inf)

    def state_dict(self):
        """The scaler's state (empty when disabled)."""
        if not self._enable:
            return {}
        import numpy as np
        return {"scale": np.array([self._scale], np.float32), "incr_ratio": self._incr_ratio,
                "decr_ratio": self._decr_ratio, "incr_every_n_steps": self._incr_every_n_steps,
                "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
                "incr_count": self._incr_count, "decr_count": self._decr_count,
                "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling}

    def load_state_dict(self, state_dict):
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The input state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        import numpy as np
        scale = state_dict["scale"]
        scale = scale.numpy() if isinstance(scale, Tensor) else scale
        self._init_loss_scaling = float(np.asarray(scale).reshape(-1)[0])
        self._scale = self._init_loss_scaling
        self._incr_ratio = float(state_dict["incr_ratio"])
        self._decr_ratio = float(state_dict["decr_ratio"])
        self._incr_every_n_steps = int(state_dict["incr_every_n_steps"])
        self._decr_every_n_nan_or_inf = int(state_dict["decr_every_n_nan_or_inf"])
        self._incr_count = int(state_dict["incr_count"])
        self._decr_count = int(state_dict["decr_count"])
        self._use_dynamic_loss_scaling = bool(state_dict["use_dynamic_loss_scaling"])


class GradScaler(AmpScaler):
    """Paddle's paddle.amp.GradScaler: scale(loss).backward(), then step(optimizer) and
    update() (or minimize(optimizer, scaled_loss)); unscale_(optimizer) before clipping."""

    def __init__(self, enable=True, init_loss_scaling=2.0**16, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=2000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True):
        super().__init__(enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps,
                         decr_every_n_nan_or_inf, use_dynamic_loss_scaling)

    def scale(self, var):
        return super().scale(var)

    def minimize(self, optimizer, *args, **kwargs):
        return super().minimize(optimizer, *args, **kwargs)

    def step(self, optimizer):
        """Unscales (unless unscale_ was called) and runs optimizer.step() unless a gradient
        holds inf/nan."""
        if not self._enable:
            return optimizer.step()
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        if self._found_inf:
            self._cache_founf_inf = True
        else:
            optimizer.step()
            self._cache_founf_inf = False
        state["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = collections.defaultdict(_refresh_optimizer_state)

    def update(self):
        """Moves the loss scale after step() (dynamic loss scaling only)."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = collections.defaultdict(_refresh_optimizer_state)

    def unscale_(self, optimizer):
        """Divides the optimizer's gradients by the scale now (to clip them) and checks them
        for inf/nan."""
        return super()._unscale(optimizer)
