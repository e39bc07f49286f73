"""Optimizer base class (Paddle's paddle.optimizer.Optimizer, dynamic-graph mode).

Updates run in the fused multi-tensor ops (`_C.ops.fused_sgd_`, `fused_momentum_`, `fused_adam_`,
`fused_adamw_`): the parameters of a group are bucketed by what the kernel takes as scalars
(effective learning rate, weight-decay coefficient, step) and each bucket is one op call that
updates every parameter and accumulator in place."""
import collections
import math
import numbers

from .. import _C, Tensor, float32, no_grad
from ..nn.functional._common_ops import ops as _ops
from ..profiler.utils import RecordEvent as _ProfilerEvent, TracerEventType as _EventType
from ..regularizer import L1Decay, L2Decay, WeightDecayRegularizer
from .lr import LRScheduler

__all__ = ["Optimizer"]


def _as_regularizer(weight_decay):
    if weight_decay is None:
        return None
    if isinstance(weight_decay, WeightDecayRegularizer):
        return weight_decay
    if isinstance(weight_decay, numbers.Number) and not isinstance(weight_decay, bool):
        return L2Decay(float(weight_decay))
    raise TypeError("weight_decay: expected a float or a regularizer (L1Decay/L2Decay), got "
                    f"{type(weight_decay).__name__}")


class Optimizer:
    """Holds parameter groups, the learning rate (float or LRScheduler), grad clipping and the
    accumulators (named `<param.name>_<acc>_0` as in Paddle)."""

    _acc_names = ()

    def __init__(self, learning_rate, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        from .. import in_dynamic_mode
        if parameters is None and in_dynamic_mode():
            raise AttributeError("parameters argument given to the Optimizer should not be None "
                                 "in dygraph mode.")
        # Static mode: minimize() takes the trainable parameters of the loss's program.
        parameters = [] if parameters is None else parameters
        self._static = None  # the static minimize in progress (skiff/static/optimize.py)
        self._step_lr = None  # get_lr() for the eager step in progress (read once per step)
        if isinstance(parameters, (Tensor, dict)):
            raise TypeError("`parameters` argument given to the optimizer should be an iterable "
                            "of paddle Tensors, but got argument type is "
                            f"`{type(parameters).__name__}`.")
        if isinstance(learning_rate, bool) or not isinstance(learning_rate,
                                                             (float, int, LRScheduler)):
            raise TypeError("learning rate should be float or LRScheduler, got "
                            f"{type(learning_rate).__name__} here")
        if grad_clip is not None and not callable(grad_clip):
            raise TypeError("'grad_clip' should be an instance of GradientClipBase's derived "
                            f"class, got {type(grad_clip).__name__}")
        self._learning_rate = learning_rate
        self._name = name
        self._grad_clip = grad_clip
        self.regularization = _as_regularizer(weight_decay)
        self._weight_decay = weight_decay
        self._accumulators = collections.defaultdict(dict)  # acc name -> {param name: Tensor}
        self._accumulators_holder = {}
        self._master_weights = {}  # param name -> float32 master (multi_precision)
        self._master_holder = {}  # master weights loaded before their first step
        self._param_groups = []
        self._default_dict = self._defaults()
        parameters = list(parameters)
        if parameters and isinstance(parameters[0], dict):
            for group in parameters:
                self._add_param_group(dict(group))
        else:
            self._add_param_group({"params": parameters})
        self._parameter_list = [p for g in self._param_groups for p in g["params"]]

    def _defaults(self):
        return {"weight_decay": self.regularization, "grad_clip": self._grad_clip,
                "learning_rate": 1.0}

    def _normalize_decay(self, weight_decay):
        return _as_regularizer(weight_decay)

    def _add_param_group(self, group):
        params = group.get("params")
        if params is None:
            raise ValueError("a parameter group must have the key 'params'")
        if isinstance(params, Tensor):
            params = [params]
        group["params"] = list(params)
        for k, v in self._default_dict.items():
            group.setdefault(k, v)
        group["weight_decay"] = self._normalize_decay(group["weight_decay"])
        seen = {id(p) for g in self._param_groups for p in g["params"]}
        for p in group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer: parameters must be Tensors, got {type(p).__name__}")
            if id(p) in seen:
                raise ValueError("some parameters appear in more than one parameter group")
            if getattr(p, "name", None) is None:
                p.name = f"param_{id(p)}"
        self._param_groups.append(group)

    # ------------------------------------------------------------------ learning rate
    def get_lr(self):
        """The current learning rate (the scheduler's value if one is used)."""
        if isinstance(self._learning_rate, LRScheduler):
            return float(self._learning_rate())
        return float(self._learning_rate)

    def set_lr(self, value):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"The type of 'value' in optimizer.set_lr must be float, but "
                            f"received {type(value).__name__}.")
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError("optimizer's learning rate can't be LRScheduler when invoke this "
                               "API, because this will lead to conflict.")
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler):
        if not isinstance(scheduler, LRScheduler):
            raise TypeError("The type of 'scheduler' in optimizer.set_lr_scheduler must be "
                            f"LRScheduler, but received {type(scheduler).__name__}.")
        self._learning_rate = scheduler

    # ------------------------------------------------------------------ accumulators
    def _acc_key(self, name, param):
        return f"{param.name}_{name}_0"

    def _add_accumulator(self, name, param, fill_value=0.0, dtype=None, shape=None):
        """Creates (or restores from a loaded state dict) the accumulator `name` of `param`."""
        store = self._accumulators[name]
        pname = param.name
        acc = store.get(pname)
        if acc is not None:
            return acc
        if dtype is None:
            dtype = float32 if str(param.dtype).endswith(("float16", "bfloat16")) else param.dtype
        shape = list(param.shape) if shape is None else shape
        key = self._acc_key(name, param)
        if key in self._accumulators_holder:
            from .. import to_tensor
            held = self._accumulators_holder.pop(key)
            value = held if isinstance(held, Tensor) else to_tensor(held)
            if list(value.shape) != shape:
                raise ValueError(f"optimizer state '{key}' has shape {list(value.shape)}, the "
                                 f"parameter needs {shape}")
            acc = _ops.assign(_ops.cast(value, dtype) if value.dtype != dtype else value)
        elif self._static is not None:  # persistent, (re)initialized by the startup program
            acc = self._static.persistent(shape, fill_value, dtype)
        elif param.is_dist() and shape == list(param.shape):
            # a state of a dist parameter: its local piece only, in the parameter's layout
            acc = _ops.full_like(param, fill_value, dtype)
        else:
            acc = _ops.full(shape, fill_value, dtype)
        acc.name = key
        store[pname] = acc
        return acc

    def _get_accumulator(self, name, param):
        return self._accumulators[name][param.name]

    # ------------------------------------------------------------------ the update
    def _collect(self, group):
        out = []
        for p in group["params"]:
            if p.stop_gradient:
                continue
            g = p.grad
            if g is None:
                continue
            out.append((p, g))
        return out

    def _regularize(self, group, params_grads):
        """Applies each parameter's regularizer (else the group's) the kernels cannot take:
        L1 always; L2 is returned as the kernel's weight_decay coefficient."""
        out = []
        for p, g in params_grads:
            reg = getattr(p, "regularizer", None) or group["weight_decay"]
            coeff = 0.0
            if isinstance(reg, L1Decay) and reg.coeff != 0.0:
                g = _ops.add(g, _ops.scale(_ops.sign(p), reg.coeff, 0.0, True))
            elif isinstance(reg, L2Decay):
                coeff = reg.coeff
            out.append((p, g, coeff))
        return out

    def _param_lr(self, group, p):
        # Static mode: the multiplier of the program's lr tensor (the lr is read at each run).
        if self._static is not None:
            base = 1.0
        else:
            base = self._step_lr if self._step_lr is not None else self.get_lr()
        return base * group["learning_rate"] * \
            getattr(p, "optimize_attr", {}).get("learning_rate", 1.0)

    def _lr_tensor(self, value):
        if self._static is not None:
            return self._static.lr_tensor(value)
        return _ops.full([], float(value), float32)

    def _buckets(self, entries, key_fn):
        buckets = collections.OrderedDict()
        for e in entries:
            buckets.setdefault(key_fn(e), []).append(e)
        return buckets

    def step(self):
        """One update of every parameter that has a gradient (after loss.backward())."""
        if self._static is None and _C.jit.is_capturing():
            # Inside to_static: the update joins the captured program (skiff/jit/captured_step).
            from ..jit.captured_step import captured_step
            with captured_step(self):
                return self.step()
        self._step_lr = self.get_lr()
        try:
            with no_grad(), _ProfilerEvent("Optimization Step", _EventType.Optimization):
                for group in self._param_groups:
                    self._update_group(group, self._collect(group))
        finally:
            self._step_lr = None

    def _update_group(self, group, params_grads):
        """Clips a group's (param, grad) pairs, regularizes and applies them. With
        multi_precision, 16-bit parameters are updated through their float32 master weights
        (gradients cast to float32), which are then copied back into the parameters."""
        if not params_grads:
            return
        written = []
        if getattr(self, "_multi_precision", False):
            params_grads, written = self._to_master(params_grads)
        clip = group.get("grad_clip")
        if clip is not None:
            params_grads = [(p, g) for p, g in clip(params_grads) if g is not None]
        self._apply(group, self._regularize(group, params_grads))
        if written:
            from ..nn._assign import assign_into
            for p, master in written:
                assign_into(p, _ops.cast(master, p.dtype))

    def _to_master(self, params_grads):
        """(master, float32 grad) for the 16-bit parameters, and the (param, master) pairs."""
        out, written = [], []
        for p, g in params_grads:
            if str(p.dtype) not in ("paddle.float16", "paddle.bfloat16"):
                out.append((p, g))
                continue
            if self._static is not None:
                raise NotImplementedError(
                    "optimizer: multi_precision master weights (paddle.amp.decorate level O2) "
                    "are eager-only in this build; to_static training needs float32 parameters")
            master = self._master_weights.get(p.name)
            if master is None:
                held = self._master_holder.pop(p.name, None)
                if held is not None:
                    from .. import to_tensor
                    held = held if isinstance(held, Tensor) else to_tensor(held)
                master = _ops.assign(_ops.cast(held if held is not None else p, float32))
                master.name = p.name  # the accumulators stay keyed by the parameter's name
                self._master_weights[p.name] = master
            master.optimize_attr = getattr(p, "optimize_attr", {})
            master.regularizer = getattr(p, "regularizer", None)
            out.append((master, _ops.cast(g, float32)))
            written.append((p, master))
        return out, written

    def _apply(self, group, entries):
        raise NotImplementedError(f"{type(self).__name__} does not implement _apply")

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Paddle's dygraph minimize: applies the gradients already computed by
        loss.backward() (it does not run backward). Returns (None, params_grads).
        In static mode it appends backward and the update ops to the loss's program instead."""
        from .. import in_dynamic_mode
        if not in_dynamic_mode():
            from ..static.optimize import minimize
            return minimize(self, loss, startup_program, parameters, no_grad_set)
        params = self._parameter_list if parameters is None else list(parameters)
        skip = {id(p) for p in (no_grad_set or [])}
        chosen = {id(p) for p in params if id(p) not in skip}
        saved = [g["params"] for g in self._param_groups]
        try:
            for g in self._param_groups:
                g["params"] = [p for p in g["params"] if id(p) in chosen]
            params_grads = [(p, p.grad) for g in self._param_groups for p in g["params"]
                            if not p.stop_gradient and p.grad is not None]
            self.step()
        finally:
            for g, ps in zip(self._param_groups, saved):
                g["params"] = ps
        return None, params_grads

    def clear_grad(self, set_to_zero=True):
        """Clears the gradients of all parameters (zeroed in place, or dropped with
        set_to_zero=False)."""
        for p in self._parameter_list:
            if not p.stop_gradient:
                p.clear_gradient(set_to_zero)

    clear_gradients = clear_grad

    # ------------------------------------------------------------------ state
    def _extra_state(self):
        """Accumulators a subclass keeps outside _accumulators (Adam's beta pows)."""
        return {}

    def _load_extra_state(self, state):
        pass

    def state_dict(self):
        """Accumulators by Paddle's names (`<param>_moment1_0`, ...) and `LR_Scheduler`."""
        state = collections.OrderedDict()
        for name, store in self._accumulators.items():
            for acc in store.values():
                state[acc.name] = acc
        state.update(self._extra_state())
        if self._master_weights:
            state["master_weights"] = dict(self._master_weights)
        if isinstance(self._learning_rate, LRScheduler):
            state["LR_Scheduler"] = self._learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict):
        """Loads accumulators (now, or when they are first created) and the scheduler state."""
        from ..nn._assign import assign_into
        state_dict = dict(state_dict)
        if "LR_Scheduler" in state_dict:
            lr_state = state_dict.pop("LR_Scheduler")
            if isinstance(self._learning_rate, LRScheduler):
                self._learning_rate.set_state_dict(lr_state)
        masters = dict(state_dict.pop("master_weights", None) or {})
        for name, master in self._master_weights.items():
            if name in masters:
                assign_into(master, masters.pop(name))
        self._master_holder.update(masters)
        self._load_extra_state(state_dict)
        for name, store in self._accumulators.items():
            for acc in store.values():
                if acc.name in state_dict:
                    assign_into(acc, state_dict.pop(acc.name))
        self._accumulators_holder = state_dict

    set_dict = set_state_dict
    load_state_dict = set_state_dict

    def _parameters_of_group(self, group):
        return group["params"]

    def __repr__(self):
        return f"{type(self).__name__}(learning_rate={self._learning_rate!r}, " \
               f"parameters={len(self._parameter_list)})"


def bias_correction_step(beta_pow, beta):
    """The step t with beta**t == beta_pow (Paddle keeps beta pows, the kernels take t)."""
    if beta <= 0 or beta >= 1 or beta_pow <= 0:
        return 0
    return int(round(math.log(beta_pow) / math.log(beta)))
