"""Paddle's rnnt_loss (warprnnt): the RNN-Transducer loss with FastEmit regularisation.

input [B, T, U + 1, D] are logits: log_softmax is taken first (Paddle does it by hand for CPU,
warp-transducer inside for GPU), then a PyLayer runs the transducer lattice in log space on
the log-probabilities, vectorised over the batch: alpha(t, u) = lse(alpha(t-1, u) +
blank(t-1, u), alpha(t, u-1) + emit(t, u-1)), beta the mirror image from each sample's end
(T_b - 1, U_b), -log p = -(alpha + blank) at that end. The gradient with respect to the
log-probabilities is minus the posterior of each lattice edge, with label emissions scaled by
(1 + fastemit_lambda) (FastEmit changes the gradient only, as warp-transducer's); autograd
through log_softmax does the rest."""
import numpy as np

from ...autograd.py_layer import PyLayer
from ._common_ops import ops as _ops

__all__ = ["rnnt_loss"]

_NEG = -np.inf


def transducer(logp, labels, t_len, u_len, blank, fastemit_lambda):
    """logp [B, T, U+1, D] float64 log-probabilities -> (nll [B], grad of the nll [B, T, U+1, D]).
    """
    b, t_max, u1, _ = logp.shape
    rows = np.arange(b)
    blank_lp = logp[..., blank]  # [B, T, U+1]
    lab = np.concatenate([labels, np.zeros([b, 1], dtype=np.int64)], 1)[:, :u1]
    emit_lp = np.take_along_axis(logp, lab[:, None, :, None].repeat(t_max, 1), 3)[..., 0]
    alpha = np.full([b, t_max, u1], _NEG)
    for t in range(t_max):
        for u in range(u1):
            if t == 0 and u == 0:
                alpha[:, 0, 0] = 0.0
                continue
            a = alpha[:, t - 1, u] + blank_lp[:, t - 1, u] if t > 0 else np.full(b, _NEG)
            e = alpha[:, t, u - 1] + emit_lp[:, t, u - 1] if u > 0 else np.full(b, _NEG)
            alpha[:, t, u] = np.logaddexp(a, e)
    last_t, last_u = t_len - 1, u_len
    loglike = alpha[rows, last_t, last_u] + blank_lp[rows, last_t, last_u]
    beta = np.full([b, t_max, u1], _NEG)
    for t in range(t_max - 1, -1, -1):
        for u in range(u1 - 1, -1, -1):
            inside = (t <= last_t) & (u <= last_u)
            at_end = (t == last_t) & (u == last_u)
            a = beta[:, t + 1, u] + blank_lp[:, t, u] if t + 1 < t_max else np.full(b, _NEG)
            e = beta[:, t, u + 1] + emit_lp[:, t, u] if u + 1 < u1 else np.full(b, _NEG)
            beta[:, t, u] = np.where(at_end, blank_lp[:, t, u],
                                     np.where(inside, np.logaddexp(a, e), _NEG))
    feasible = np.isfinite(loglike)
    ll = np.where(feasible, loglike, 0.0)[:, None, None]
    grad = np.zeros_like(logp)
    with np.errstate(under="ignore", invalid="ignore"):
        nxt_t = np.concatenate([beta[:, 1:], np.full([b, 1, u1], _NEG)], 1)
        blank_edge = np.exp(alpha + blank_lp + nxt_t - ll)
        end = np.zeros([b, t_max, u1], dtype=bool)
        end[rows, last_t, last_u] = True
        blank_edge = np.where(end, np.exp(alpha + blank_lp - ll), blank_edge)
        nxt_u = np.concatenate([beta[:, :, 1:], np.full([b, t_max, 1], _NEG)], 2)
        emit_edge = np.exp(alpha + emit_lp + nxt_u - ll) * (1.0 + fastemit_lambda)
    blank_edge = np.nan_to_num(blank_edge)
    emit_edge = np.nan_to_num(emit_edge)
    grad[..., blank] -= blank_edge
    bi, ti, ui = np.meshgrid(np.arange(b), np.arange(t_max), np.arange(u1), indexing="ij")
    np.add.at(grad, (bi, ti, ui, lab[:, None, :].repeat(t_max, 1)), -emit_edge)
    grad[~feasible] = 0.0
    return -loglike, grad


class _RNNT(PyLayer):
    @staticmethod
    def forward(ctx, logp, labels, t_len, u_len, blank, fastemit_lambda):
        from ...tensor.creation import to_tensor
        nll, grad = transducer(logp.numpy().astype(np.float64), labels, t_len, u_len, blank,
                               fastemit_lambda)
        ctx.grad, ctx.dtype = grad, logp.dtype
        return _ops.cast(to_tensor(nll), logp.dtype)

    @staticmethod
    def backward(ctx, grad_loss):
        from ...tensor.creation import to_tensor
        g = _ops.cast(to_tensor(ctx.grad), ctx.dtype)
        return _ops.multiply(g, _ops.reshape(grad_loss, [-1, 1, 1, 1]))


def _bad(msg, cls=ValueError):
    raise cls(f"(InvalidArgument) rnnt_loss: {msg}")


def rnnt_loss(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001,
              reduction="mean", name=None):
    """input [B, T, U+1, D] logits, label [B, U] int32, lengths [B] int64; 'mean' is the sum
    over the batch divided by B (Paddle's)."""
    if reduction not in ("mean", "sum", "none"):
        _bad(f"argument 'reduction' expected 'mean', 'sum' or 'none', got {reduction!r}")
    if len(input.shape) != 4:
        _bad(f"argument 'input' expected a 4-D tensor [B, T, U + 1, D], got shape "
             f"{list(input.shape)}")
    if input.dtype not in ("float32", "float64"):
        _bad(f"argument 'input' expected dtype float32 or float64, got {input.dtype}", TypeError)
    b, t_max, u1, d = input.shape
    if b == 0 or t_max == 0:
        _bad(f"argument 'input' expected a non-empty batch and time axis, got shape "
             f"{list(input.shape)}")
    if len(label.shape) != 2 or label.shape[0] != b or label.shape[1] != u1 - 1:
        _bad(f"argument 'label' expected shape [{b}, {u1 - 1}] (input's U + 1 = {u1}), got "
             f"{list(label.shape)}")
    if label.dtype not in ("int32", "int64"):
        _bad(f"argument 'label' expected dtype int32 or int64, got {label.dtype}", TypeError)
    for arg, t in (("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        if list(t.shape) != [b]:
            _bad(f"argument '{arg}' expected shape [{b}], got {list(t.shape)}")
    if not 0 <= blank < d:
        _bad(f"argument 'blank' expected a value in [0, {d}), got {blank}")
    if fastemit_lambda < 0:
        _bad(f"argument 'fastemit_lambda' expected a value >= 0, got {fastemit_lambda}")
    if any(getattr(t, "is_symbolic", False) for t in (input, label, input_lengths,
                                                     label_lengths)):
        raise NotImplementedError("(Unimplemented) rnnt_loss: the lattice reads the values, "
                                  "which a captured program does not have")
    lab = label.numpy().astype(np.int64)
    t_len = input_lengths.numpy().astype(np.int64)
    u_len = label_lengths.numpy().astype(np.int64)
    if t_len.min() <= 0 or t_len.max() > t_max:
        _bad(f"argument 'input_lengths' expected values in [1, {t_max}], got {t_len.tolist()}")
    if u_len.min() < 0 or u_len.max() > u1 - 1:
        _bad(f"argument 'label_lengths' expected values in [0, {u1 - 1}], got "
             f"{u_len.tolist()}")
    used = np.arange(u1 - 1)[None, :] < u_len[:, None]
    if used.any() and (lab[used].min() < 0 or lab[used].max() >= d or (lab[used] == blank).any()):
        _bad(f"argument 'label' expected class indices in [0, {d}) other than blank ({blank}) "
             f"within label_lengths, got {sorted(set(lab[used].tolist()))}")
    lab = np.where(used, lab, 0 if blank != 0 else min(1, d - 1))
    logp = _ops.log_softmax(input, -1)
    loss = _RNNT.apply(logp, lab, t_len, u_len, int(blank), float(fastemit_lambda))
    if reduction == "mean":
        return _ops.scale(_ops.sum(loss, [], None, False), 1.0 / b, 0.0, True)
    if reduction == "sum":
        return _ops.sum(loss, [], None, False)
    return loss
