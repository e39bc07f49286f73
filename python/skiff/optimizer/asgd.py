"""ASGD (Paddle's paddle.optimizer.ASGD), the stochastic average gradient of Paddle 3: the last
batch_num gradients of each parameter are kept (y), their sum d is updated as the oldest slot is
replaced, and the step averages over the slots filled so far:
  i = m % batch_num;  d = d - y[i] + g;  y[i] = g;  m += 1
  param -= lr * d / min(m, batch_num)"""
import numbers

from .. import _errors, int64
from ._elementwise import ElementwiseOptimizer, check_learning_rate, write

__all__ = ["ASGD"]


class ASGD(ElementwiseOptimizer):
    """Accumulators `<param>_d_0` (param-shaped), `<param>_y_0` ([batch_num] + shape) and the
    int64 [1] counter `<param>_m_0`. Eager only: the slot index is read from the counter."""

    def __init__(self, learning_rate=0.001, batch_num=1, parameters=None, weight_decay=None,
                 grad_clip=None, multi_precision=False, name=None):
        learning_rate = check_learning_rate("ASGD", learning_rate)
        if batch_num is None:
            raise _errors.InvalidArgument("ASGD: batch_num should not be none")
        if isinstance(batch_num, bool) or not isinstance(batch_num, numbers.Integral):
            raise _errors.InvalidType("ASGD: argument 'batch_num' expected an int, got "
                                      f"{type(batch_num).__name__}")
        if not batch_num > 0:
            raise _errors.InvalidArgument("ASGD: batch_num should be greater than 0, got "
                                          f"{batch_num}")
        self._n = int(batch_num)
        self._multi_precision = bool(multi_precision)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _update(self, group, param, p, g, lr):
        if self._static is not None:
            raise _errors.Unimplemented("ASGD: the update picks its history slot by the step "
                                        "counter's value; it runs eagerly only (not inside "
                                        "to_static or a static program)")
        d = self._add_accumulator("d", param)
        ys = self._add_accumulator("y", param, shape=[self._n] + list(param.shape))
        m = self._add_accumulator("m", param, 0, dtype=int64, shape=[1])
        count = int(m.item())
        slot = count % self._n
        d_new = d - ys[slot] + g
        write(d, d_new)
        ys[slot] = g.astype(ys.dtype)
        write(m, m + 1)
        return p - lr * d_new / float(min(count + 1, self._n))
