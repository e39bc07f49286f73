"""Adam and AdamW (Paddle's paddle.optimizer.Adam / AdamW) over the fused kernels."""
import numbers

import numpy as np

from .. import Tensor, float32
from ..nn.functional._common_ops import ops as _ops
from ..regularizer import L1Decay, L2Decay
from .optimizer import Optimizer, bias_correction_step

__all__ = ["Adam", "AdamW"]


def _float(v, name):
    if isinstance(v, Tensor):
        return float(v.item())
    if isinstance(v, bool) or not isinstance(v, numbers.Number):
        raise TypeError(f"Adam: argument '{name}' expected a float or a Tensor, got "
                        f"{type(v).__name__}")
    return float(v)


class Adam(Optimizer):
    """m1 = b1 m1 + (1 - b1) g; m2 = b2 m2 + (1 - b2) g^2;
    param -= lr * m1_hat / (sqrt(m2_hat) + epsilon), hats being the bias-corrected moments.
    weight_decay (float or L2Decay) adds coeff * param to the gradient first (L2)."""

    _kernel = "fused_adam_"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, use_multi_tensor=False, amsgrad=False, name=None):
        self._beta1 = _float(beta1, "beta1")
        self._beta2 = _float(beta2, "beta2")
        self._epsilon = _float(epsilon, "epsilon")
        if not 0 <= self._beta1 < 1:
            raise ValueError(f"Invaild value of beta1, expect beta1 in [0,1), got {self._beta1}")
        if not 0 <= self._beta2 < 1:
            raise ValueError(f"Invaild value of beta2, expect beta2 in [0,1), got {self._beta2}")
        if self._epsilon < 0:
            raise ValueError(f"Invaild value of epsilon, expect epsilon >= 0., got "
                             f"{self._epsilon}")
        self._amsgrad = bool(amsgrad)
        self._lazy_mode = lazy_mode
        self._multi_precision = multi_precision
        self._steps = {}  # param name -> number of updates done
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _defaults(self):
        d = super()._defaults()
        d.update(beta1=self._beta1, beta2=self._beta2, epsilon=self._epsilon,
                 lazy_mode=self._lazy_mode, amsgrad=self._amsgrad)
        return d

    def _decay_coeff(self, group, p, l2_coeff):
        """The coefficient the kernel takes (L2 for Adam, decoupled for AdamW)."""
        return l2_coeff

    def _apply(self, group, entries):
        b1, b2 = _float(group["beta1"], "beta1"), _float(group["beta2"], "beta2")
        eps = _float(group["epsilon"], "epsilon")
        amsgrad = bool(group["amsgrad"])

        names = {id(p): p.name for p, _, _ in entries}

        def key(e):
            p, _, coeff = e
            return (self._param_lr(group, p), self._decay_coeff(group, p, coeff),
                    self._steps.get(names[id(p)], 0))

        kernel = getattr(_ops, self._kernel)
        for (lr, coeff, step), items in self._buckets(entries, key).items():
            params = [p for p, _, _ in items]
            grads = [g for _, g, _ in items]
            m1 = [self._add_accumulator("moment1", p) for p in params]
            m2 = [self._add_accumulator("moment2", p) for p in params]
            m2max = [self._add_accumulator("moment2_max", p) for p in params] if amsgrad else []
            if self._static is not None:  # the program counts steps in a persistent tensor
                step_tensor = self._static.step_tensor()
            else:
                for p in params:
                    self._steps[names[id(p)]] = step + 1
                step_tensor = _ops.full([], float(step + 1), float32)
            kernel(params, grads, m1, m2, m2max, self._lr_tensor(lr), step_tensor, b1, b2, eps,
                   coeff, amsgrad)

    def _group_of(self, name):
        for g in self._param_groups:
            for p in g["params"]:
                if p.name == name:
                    return g
        return self._default_dict

    def _extra_state(self):
        """Paddle's beta pow accumulators, [1]-shaped float32: beta^step."""
        from .. import to_tensor
        out = {}
        for name, step in self._steps.items():
            g = self._group_of(name)
            for i, beta in ((1, g["beta1"]), (2, g["beta2"])):
                t = to_tensor(np.array([_float(beta, "beta") ** step], np.float32))
                t.name = f"{name}_beta{i}_pow_acc_0"
                out[t.name] = t
        return out

    def _load_extra_state(self, state):
        for key in [k for k in state if k.endswith("_beta1_pow_acc_0")]:
            name = key[:-len("_beta1_pow_acc_0")]
            value = state.pop(key)
            state.pop(f"{name}_beta2_pow_acc_0", None)
            pow1 = float(np.asarray(value.numpy() if hasattr(value, "numpy") else value)
                         .reshape(-1)[0])
            g = self._group_of(name)
            self._steps[name] = bias_correction_step(pow1, _float(g["beta1"], "beta1"))


class AdamW(Adam):
    """Adam with decoupled weight decay: param *= 1 - lr * weight_decay before the Adam step,
    for the parameters apply_decay_param_fun(name) accepts (all by default); lr_ratio(param)
    scales a parameter's learning rate."""

    _kernel = "fused_adamw_"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=0.01, lr_ratio=None, apply_decay_param_fun=None,
                 grad_clip=None, lazy_mode=False, multi_precision=False, amsgrad=False,
                 name=None):
        if weight_decay is None:
            weight_decay = 0.0
        if not isinstance(weight_decay, (numbers.Number, Tensor)) or \
                isinstance(weight_decay, bool):
            raise TypeError("weight_decay should be float or Tensor.")
        if lr_ratio is not None and not callable(lr_ratio):
            raise TypeError("'lr_ratio' should be None or a callable")
        self._coeff = _float(weight_decay, "weight_decay")
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, None, grad_clip,
                         lazy_mode, multi_precision, False, amsgrad, name)

    def _defaults(self):
        d = super()._defaults()
        d["weight_decay"] = self._coeff
        return d

    def _normalize_decay(self, weight_decay):
        if isinstance(weight_decay, (L1Decay, L2Decay)):
            return weight_decay.coeff
        return _float(weight_decay, "weight_decay") if weight_decay is not None else 0.0

    def _regularize(self, group, params_grads):
        # Only a parameter's own regularizer changes its gradient; the group's weight_decay is
        # the decoupled coefficient.
        out = []
        for p, g in params_grads:
            reg = getattr(p, "regularizer", None)
            if isinstance(reg, L1Decay) and reg.coeff:
                g = _ops.add(g, _ops.scale(_ops.sign(p), reg.coeff, 0.0, True))
            elif isinstance(reg, L2Decay) and reg.coeff:
                g = _ops.add(g, _ops.scale(p, reg.coeff, 0.0, True))
            out.append((p, g, 0.0))
        return out

    def _decay_coeff(self, group, p, l2_coeff):
        if self._apply_decay_param_fun is not None and not self._apply_decay_param_fun(p.name):
            return 0.0
        return float(group["weight_decay"])

    def _param_lr(self, group, p):
        lr = super()._param_lr(group, p)
        if self._lr_ratio is not None:
            lr *= float(self._lr_ratio(p))
        return lr
