"""Paddle's ctc_loss (warpctc): connectionist temporal classification, forward-backward.

As Paddle's warpctc, log_probs are unscaled logits [T, B, C]: the softmax is taken inside, and
the gradient with respect to the logits is softmax - gamma, gamma_t(k) the posterior of being
on a label-k state at time t. The dynamic programme runs in log space over the extended label
sequence (blanks between and around the labels, 2L + 1 states), vectorised over the batch and
the states, one step per time frame; alpha includes the frame's emission, beta the frames
after it, so gamma = exp(alpha + beta - log p). Samples whose labels cannot fit their input
length have an infinite loss and a zero gradient. norm_by_times scales only the gradient, by
1 / input_length (warpctc's meaning)."""
import numpy as np

from ...autograd.py_layer import PyLayer
from ._common_ops import ops as _ops

__all__ = ["ctc_loss"]

_NEG = -np.inf


def _extended(labels, label_lengths, blank):
    b, lmax = labels.shape
    s = 2 * lmax + 1
    ext = np.full([b, s], blank, dtype=np.int64)
    ext[:, 1::2] = labels
    # a state may skip the blank before it when its label differs from the one two back
    skip = np.zeros([b, s], dtype=bool)
    skip[:, 3::2] = labels[:, 1:] != labels[:, :-1]
    valid = np.arange(s)[None, :] < (2 * label_lengths[:, None] + 1)
    return ext, skip, valid


def _forward_backward(logp, labels, input_lengths, label_lengths, blank):
    """logp [T, B, C] float64 log-softmax -> (nll [B], gamma [T, B, C])."""
    t_max, b, c = logp.shape
    ext, skip, valid = _extended(labels, label_lengths, blank)
    s = ext.shape[1]
    rows = np.arange(b)[:, None]
    emit = np.where(valid[None], logp[:, rows, ext], _NEG)  # [T, B, S]
    alpha = np.full([t_max, b, s], _NEG)
    alpha[0, :, 0] = emit[0, :, 0]
    alpha[0, :, 1] = np.where(label_lengths > 0, emit[0, :, 1], _NEG)
    for t in range(1, t_max):
        prev = alpha[t - 1]
        acc = prev.copy()
        acc[:, 1:] = np.logaddexp(acc[:, 1:], prev[:, :-1])
        acc[:, 2:] = np.where(skip[:, 2:], np.logaddexp(acc[:, 2:], prev[:, :-2]), acc[:, 2:])
        alpha[t] = np.where(t < input_lengths[:, None], acc + emit[t], prev)
    last = input_lengths - 1
    end = 2 * label_lengths
    a_last = alpha[last, np.arange(b)]
    logp_seq = np.logaddexp(a_last[np.arange(b), end],
                    np.where(label_lengths > 0, a_last[np.arange(b), np.maximum(end - 1, 0)], _NEG))
    beta = np.full([t_max, b, s], _NEG)
    init = np.full([b, s], _NEG)
    init[np.arange(b), end] = 0.0
    init[np.arange(b), np.maximum(end - 1, 0)] = np.where(label_lengths > 0, 0.0,
                                                          init[np.arange(b), 0])
    for t in range(t_max - 1, -1, -1):
        at_last = (t == last)[:, None]
        if t == t_max - 1:
            nxt = np.full([b, s], _NEG)
        else:
            e = beta[t + 1] + emit[t + 1]
            nxt = e.copy()
            nxt[:, :-1] = np.logaddexp(nxt[:, :-1], e[:, 1:])
            nxt[:, :-2] = np.where(skip[:, 2:], np.logaddexp(nxt[:, :-2], e[:, 2:]), nxt[:, :-2])
        beta[t] = np.where(at_last, init, np.where(t < last[:, None], nxt, _NEG))
    feasible = np.isfinite(logp_seq)
    occ = alpha + beta - np.where(feasible, logp_seq, 0.0)[None, :, None]
    occ = np.where(np.arange(t_max)[:, None, None] < input_lengths[None, :, None], occ, _NEG)
    gamma = np.zeros([t_max, b, c])
    with np.errstate(under="ignore"):
        prob = np.exp(occ)
    for j in range(s):
        np.add.at(gamma, (slice(None), np.arange(b), ext[:, j]), prob[:, :, j])
    gamma[:, ~feasible] = 0.0
    return -logp_seq, gamma, feasible


class _CTC(PyLayer):
    @staticmethod
    def forward(ctx, logits, labels, input_lengths, label_lengths, blank, norm_by_times):
        x = logits.numpy().astype(np.float64)
        x = x - x.max(-1, keepdims=True)
        logp = x - np.log(np.exp(x).sum(-1, keepdims=True))
        nll, gamma, feasible = _forward_backward(logp, labels, input_lengths, label_lengths,
                                                 blank)
        t_idx = np.arange(logp.shape[0])[:, None]
        live = (t_idx < input_lengths[None, :])[:, :, None]
        grad = np.where(live & feasible[None, :, None], np.exp(logp) - gamma, 0.0)
        if norm_by_times:
            grad = grad / np.maximum(input_lengths, 1)[None, :, None]
        ctx.grad = grad
        ctx.dtype = logits.dtype
        from ...tensor.creation import to_tensor
        return _ops.cast(to_tensor(nll), logits.dtype)

    @staticmethod
    def backward(ctx, grad_loss):
        from ...tensor.creation import to_tensor
        g = _ops.cast(to_tensor(ctx.grad), ctx.dtype)
        return _ops.multiply(g, _ops.reshape(grad_loss, [1, -1, 1]))


def _bad(msg, cls=ValueError):
    raise cls(f"(InvalidArgument) ctc_loss: {msg}")


def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
             norm_by_times=False):
    """log_probs [T, B, C] logits (softmax taken inside), labels [B, L] int32/int64, lengths
    [B] int64; 'mean' divides each loss by its label length before averaging."""
    if reduction not in ("mean", "sum", "none"):
        _bad(f"argument 'reduction' expected 'mean', 'sum' or 'none', got {reduction!r}")
    if len(log_probs.shape) != 3:
        _bad(f"argument 'log_probs' expected a 3-D tensor [T, B, C], got shape "
             f"{list(log_probs.shape)}")
    if log_probs.dtype not in ("float32", "float64"):
        _bad(f"argument 'log_probs' expected dtype float32 or float64, got {log_probs.dtype}",
             TypeError)
    t_max, b, c = log_probs.shape
    if len(labels.shape) != 2 or labels.shape[0] != b:
        _bad(f"argument 'labels' expected shape [{b}, max_label_length], got "
             f"{list(labels.shape)}")
    if labels.dtype not in ("int32", "int64"):
        _bad(f"argument 'labels' expected dtype int32 or int64, got {labels.dtype}", TypeError)
    for arg, t in (("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        if list(t.shape) != [b]:
            _bad(f"argument '{arg}' expected shape [{b}], got {list(t.shape)}")
    if b == 0 or t_max == 0:
        _bad(f"argument 'log_probs' expected a non-empty [T, B, C], got shape "
             f"{list(log_probs.shape)}")
    if any(getattr(t, "is_symbolic", False) for t in (log_probs, labels, input_lengths,
                                                     label_lengths)):
        raise NotImplementedError("(Unimplemented) ctc_loss: the dynamic programme reads the "
                                  "values, which a captured program does not have")
    if not 0 <= blank < c:
        _bad(f"argument 'blank' expected a value in [0, {c}), got {blank}")
    lab = labels.numpy().astype(np.int64)
    in_len = input_lengths.numpy().astype(np.int64)
    lab_len = label_lengths.numpy().astype(np.int64)
    if in_len.min() <= 0 or in_len.max() > t_max:
        _bad(f"argument 'input_lengths' expected values in [1, {t_max}], got "
             f"{in_len.tolist()}")
    if lab_len.min() < 0 or lab_len.max() > lab.shape[1]:
        _bad(f"argument 'label_lengths' expected values in [0, {lab.shape[1]}], got "
             f"{lab_len.tolist()}")
    used = np.arange(lab.shape[1])[None, :] < lab_len[:, None]
    if used.any() and (lab[used].min() < 0 or lab[used].max() >= c or (lab[used] == blank).any()):
        _bad(f"argument 'labels' expected class indices in [0, {c}) other than blank "
             f"({blank}) within label_lengths, got {sorted(set(lab[used].tolist()))}")
    lab = np.where(used, lab, blank)
    loss = _CTC.apply(log_probs, lab, in_len, lab_len, int(blank), bool(norm_by_times))
    if reduction == "mean":
        return _ops.mean(_ops.divide(loss, _ops.cast(label_lengths, loss.dtype)), [], False)
    if reduction == "sum":
        return _ops.sum(loss, [], None, False)
    return loss
