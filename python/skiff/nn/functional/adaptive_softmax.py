"""Paddle's adaptive_log_softmax_with_loss (Grave et al.'s adaptive softmax).

cutoffs are the layer's (the user's cutoffs with n_classes appended): labels below cutoffs[0]
are scored by the head; a label in cluster i (cutoffs[i] <= label < cutoffs[i + 1]) by the
head's entry shortlist + i - 1 plus its log-probability inside the cluster, from the two
projections tail_weights[i - 1] (input @ w0 @ w1, Paddle's [in, out] layout). Every cluster is
evaluated for all rows and selected per row, which gives the same values and gradients as
evaluating only the rows that need it."""
from ._common_ops import ops as _ops

__all__ = ["adaptive_log_softmax_with_loss"]


def _bad(msg):
    raise ValueError(f"(InvalidArgument) adaptive_log_softmax_with_loss: {msg}")


def adaptive_log_softmax_with_loss(input, label, head_weight, tail_weights, cutoffs,
                                   head_bias=None, name=None):
    """-> (output [N]: the label's log-probability, loss: mean of -output)."""
    batched = len(input.shape) == 2
    if len(input.shape) not in (1, 2):
        _bad(f"argument 'input' expected a 1-D or 2-D tensor, got shape {list(input.shape)}")
    if len(label.shape) != (1 if batched else 0):
        _bad(f"argument 'label' expected {'a 1-D' if batched else 'a 0-D'} tensor for input "
             f"shape {list(input.shape)}, got shape {list(label.shape)}")
    if not batched:
        input, label = _ops.unsqueeze(input, [0]), _ops.unsqueeze(label, [0])
    if input.shape[0] != label.shape[0]:
        _bad(f"arguments 'input' and 'label' expected one batch size, got {input.shape[0]} and "
             f"{label.shape[0]}")
    cutoffs = [int(c) for c in cutoffs]
    if len(tail_weights) != len(cutoffs) - 1:
        _bad(f"argument 'tail_weights' expected {len(cutoffs) - 1} clusters for cutoffs "
             f"{cutoffs}, got {len(tail_weights)}")
    lab = _ops.cast(label, "int64")
    if not getattr(lab, "is_symbolic", False) and lab.size > 0:
        lo, hi = int(_ops.min(lab, [], False)), int(_ops.max(lab, [], False))
        if lo < 0 or hi >= cutoffs[-1]:
            _bad(f"label values should be in [0, {cutoffs[-1] - 1}], but values in range "
                 f"[{lo}, {hi}] were found")
    head = _ops.log_softmax(_ops.linear(input, head_weight, head_bias), 1)
    shortlist = cutoffs[0]
    index = lab
    output = None
    for i in range(1, len(cutoffs)):
        low, high = cutoffs[i - 1], cutoffs[i]
        inside = _ops.logical_and(_ops.greater_equal(lab, _ops.full_like(lab, low, "int64")),
                                  _ops.less_than(lab, _ops.full_like(lab, high, "int64")))
        index = _ops.where(inside, _ops.full_like(lab, shortlist + i - 1, "int64"), index)
        w0, w1 = tail_weights[i - 1][0], tail_weights[i - 1][1]
        cluster = _ops.log_softmax(_ops.matmul(_ops.matmul(input, w0, False, False), w1, False,
                                               False), 1)
        rel = _ops.clip(_ops.scale(lab, 1.0, -float(low), True), 0, high - low - 1)
        local = _ops.squeeze(_ops.take_along_axis(cluster, _ops.unsqueeze(rel, [1]), 1), [1])
        local = _ops.where(inside, local, _ops.zeros_like(local, local.dtype))
        output = local if output is None else _ops.add(output, local)
    picked = _ops.squeeze(_ops.take_along_axis(head, _ops.unsqueeze(index, [1]), 1), [1])
    output = picked if output is None else _ops.add(output, picked)
    loss = _ops.mean(_ops.neg(output), [], False)
    if not batched:
        output = _ops.squeeze(output, [0])
    return output, loss
