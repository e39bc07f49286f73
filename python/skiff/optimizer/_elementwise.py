"""Base of the optimizers written as tensor ops (Paddle's Adagrad, RMSProp, Adamax, Adadelta, Lamb,
NAdam, RAdam, ASGD).

Skiff has fused multi-tensor kernels only for SGD, Momentum, Adam and AdamW. The others are a few
elementwise ops per parameter under no_grad, computed in the accumulator dtype (float32 for 16-bit
parameters) and written back into the parameter and its accumulators in place (`copy_`), so
references to them (layers, the optimizer's state_dict) stay valid. The learning rate enters as
a 0-d tensor (`_lr_tensor`), so an update captured by to_static follows an LRScheduler."""
import numbers

from .. import Tensor, _errors, float32
from ..nn.functional._common_ops import ops as _ops
from .lr import LRScheduler
from .optimizer import Optimizer


def as_float(owner, name, value):
    """A hyperparameter given as a number or a one-element Tensor, as a Python float."""
    if isinstance(value, Tensor):
        return float(value.item())
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise _errors.InvalidType(f"{owner}: argument '{name}' expected a float or a Tensor, "
                                  f"got {type(value).__name__}")
    return float(value)


def check_range(owner, name, value, low=None, high=None, high_open=True):
    """Paddle's range checks (`Invalid value of beta1, expect beta1 in [0,1).`) as
    (InvalidArgument) ValueErrors naming the optimizer, the argument and the value."""
    v = as_float(owner, name, value)
    if low is not None and not v >= low:
        raise _errors.InvalidArgument(f"{owner}: Invalid value of {name}, expect {name} >= "
                                      f"{low}, got {v}")
    if high is not None and not (v < high if high_open else v <= high):
        bracket = ")" if high_open else "]"
        raise _errors.InvalidArgument(f"{owner}: Invalid value of {name}, expect {name} in "
                                      f"[{low},{high}{bracket}, got {v}")
    return v


def check_learning_rate(owner, learning_rate):
    if learning_rate is None:
        raise _errors.InvalidArgument(f"{owner}: learning_rate is not set")
    if isinstance(learning_rate, numbers.Number) and not isinstance(learning_rate, bool) \
            and not learning_rate >= 0:
        raise _errors.InvalidArgument(f"{owner}: Invalid learning rate: {learning_rate}, expect "
                                      "learning_rate >= 0.")
    if isinstance(learning_rate, Tensor):  # Paddle takes a 0-d/1-element float Tensor too
        return float(learning_rate.item())
    if not isinstance(learning_rate, (numbers.Number, LRScheduler)):
        raise _errors.InvalidType(f"{owner}: argument 'learning_rate' expected a float or an "
                                  f"LRScheduler, got {type(learning_rate).__name__}")
    return learning_rate


def check_betas(owner, beta1, beta2, epsilon):
    """The Adam family's beta1, beta2 in [0, 1) and epsilon >= 0, checked, as a dict."""
    return dict(beta1=check_range(owner, "beta1", beta1, low=0.0, high=1.0),
                beta2=check_range(owner, "beta2", beta2, low=0.0, high=1.0),
                epsilon=check_range(owner, "epsilon", epsilon, low=0.0))


def write(dst, value):
    """Stores `value` into `dst`'s memory (cast to dst's dtype)."""
    if value.dtype != dst.dtype:
        value = _ops.cast(value, dst.dtype)
    dst.copy_(value, True)


class ElementwiseOptimizer(Optimizer):
    """Calls `_update(group, param, p, g, lr)` per parameter with p, g in the accumulator dtype
    (L2 weight decay already added to g, as Paddle's regularizer does) and lr a 0-d tensor of
    that dtype; `_update` writes the accumulators and returns the new parameter value."""

    def _set_group_defaults(self, **values):
        """Hyperparameters a parameter group may override (read back as `group[name]`); also
        kept as the attributes `_<name>`, as Paddle's optimizers keep them."""
        self._group_defaults = values
        for name, value in values.items():
            setattr(self, "_" + name, value)

    def _defaults(self):
        d = super()._defaults()
        d.update(getattr(self, "_group_defaults", {}))
        return d

    def _apply(self, group, entries):
        for param, grad, l2_coeff in entries:
            dtype = float32 if str(param.dtype).endswith(("float16", "bfloat16")) \
                else param.dtype
            p = param if param.dtype == dtype else _ops.cast(param, dtype)
            g = grad if grad.dtype == dtype else _ops.cast(grad, dtype)
            if l2_coeff:
                g = g + p * l2_coeff
            lr = self._param_lr(group, param)
            if self._static is None:  # eager: the exact value in the update's dtype
                lr = _ops.full([], lr, dtype)
            else:
                lr = _ops.cast(self._lr_tensor(lr), dtype)
            write(param, self._update(group, param, p, g, lr))

    def _update(self, group, param, p, g, lr):
        raise NotImplementedError(f"{type(self).__name__} does not implement _update")
