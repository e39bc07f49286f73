"""Paddle's margin and metric-learning losses: triplet_margin_loss,
triplet_margin_with_distance_loss, multi_margin_loss, multi_label_soft_margin_loss, npair_loss.

Compositions of differentiable ops, so gradients come from their rules. The formulas are
Paddle's own, including multi_margin_loss's (the j == label term is computed and its
margin^p / C subtracted, and the weight multiplies inside the clip) and npair_loss's
(labels compared for equality give soft targets; an L2 term of 0.25 * l2_reg)."""
from ._common_ops import ops as _ops
from .distance import pairwise_distance
from .loss import _check_reduction, _reduce

__all__ = ["triplet_margin_loss", "triplet_margin_with_distance_loss", "multi_margin_loss",
           "multi_label_soft_margin_loss", "npair_loss"]


def _bad(fn, msg, cls=ValueError):
    raise cls(f"(InvalidArgument) {fn}: {msg}")


def _check_triplet(fn, input, positive, negative, margin, reduction):
    _check_reduction(fn, reduction)
    if margin < 0:
        _bad(fn, f"argument 'margin' expected a value >= 0, got {margin}")
    shapes = [list(t.shape) for t in (input, positive, negative)]
    if not shapes[0] == shapes[1] == shapes[2]:
        _bad(fn, f"arguments 'input', 'positive' and 'negative' expected one shape, got "
             f"{shapes[0]}, {shapes[1]} and {shapes[2]}")


def _triplet(pos_dist, neg_dist, margin, reduction):
    loss = _ops.clip(_ops.scale(_ops.subtract(pos_dist, neg_dist), 1.0, float(margin), True),
                     0.0, float("inf"))
    return _reduce(loss, reduction)


def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-6, swap=False,
                        reduction="mean", name=None):
    """max(d(input, positive) - d(input, negative) + margin, 0), d = pairwise_distance(p,
    epsilon); swap uses min(d(input, negative), d(positive, negative))."""
    fn = "triplet_margin_loss"
    _check_triplet(fn, input, positive, negative, margin, reduction)
    pos = pairwise_distance(input, positive, p, epsilon)
    neg = pairwise_distance(input, negative, p, epsilon)
    if swap:
        neg = _ops.minimum(neg, pairwise_distance(positive, negative, p, epsilon))
    return _triplet(pos, neg, margin, reduction)


def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean", name=None):
    """The triplet loss over a user distance (default pairwise_distance with p=2); as Paddle,
    the distances must be positive."""
    fn = "triplet_margin_with_distance_loss"
    _check_triplet(fn, input, positive, negative, margin, reduction)
    dist = distance_function if distance_function is not None else pairwise_distance
    pos = dist(input, positive)
    neg = dist(input, negative)
    if swap:
        neg = _ops.minimum(neg, dist(positive, negative))
    if not getattr(pos, "is_symbolic", False) and not getattr(neg, "is_symbolic", False):
        if not (bool(_ops.all(_ops.greater_than(pos, _ops.zeros_like(pos, pos.dtype)), [], False))
                and bool(_ops.all(_ops.greater_than(neg, _ops.zeros_like(neg, neg.dtype)), [],
                                  False))):
            _bad(fn, "the positive and negative distances expected to be > 0 (check the "
                 "distance function), got a distance <= 0")
    return _triplet(pos, neg, margin, reduction)


def multi_margin_loss(input, label, p=1, margin=1.0, weight=None, reduction="mean", name=None):
    """Multi-class hinge loss of input [N, C] and class indices label [N]:
    mean_j max(0, w[y] * (margin - x[y] + x[j]))^p - w[y] * margin^p / C (Paddle's form)."""
    fn = "multi_margin_loss"
    _check_reduction(fn, reduction)
    if len(input.shape) != 2:
        _bad(fn, f"argument 'input' expected a 2-D tensor [N, C], got shape {list(input.shape)}")
    if label.dtype not in ("int32", "int64"):
        _bad(fn, f"argument 'label' expected dtype int32 or int64, got {label.dtype}", TypeError)
    if len(label.shape) != 1 or label.shape[0] != input.shape[0]:
        _bad(fn, f"argument 'label' expected shape [{input.shape[0]}], got {list(label.shape)}")
    n_classes = input.shape[1]
    if not getattr(label, "is_symbolic", False) and label.size > 0:
        lo, hi = int(_ops.min(label, [], False)), int(_ops.max(label, [], False))
        if lo < 0 or hi >= n_classes:
            _bad(fn, f"argument 'label' expected class indices in [0, {n_classes}), got "
                 f"{lo if lo < 0 else hi}")
    lab = _ops.reshape(_ops.cast(label, "int64"), [-1, 1])
    picked = _ops.take_along_axis(input, lab, 1)
    hinge = _ops.scale(_ops.subtract(input, picked), 1.0, float(margin), True)
    offset = margin ** p / n_classes
    if weight is not None:
        if len(weight.shape) != 1 or weight.shape[0] != n_classes:
            _bad(fn, f"argument 'weight' expected shape [{n_classes}], got "
                 f"{list(weight.shape)}")
        w = _ops.reshape(_ops.gather(weight, _ops.reshape(lab, [-1]), 0), [-1, 1])
        hinge = _ops.multiply(w, hinge)
        total = _ops.mean(_ops.pow(_ops.clip(hinge, 0.0, float("inf")), float(p)), [1], True)
        loss = _ops.subtract(total, _ops.scale(w, offset, 0.0, True))
    else:
        total = _ops.mean(_ops.pow(_ops.clip(hinge, 0.0, float("inf")), float(p)), [1], True)
        loss = _ops.scale(total, 1.0, -offset, True)
    return _reduce(_ops.reshape(loss, [-1]), reduction)


def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None):
    """-mean_c(y log sigmoid(x) + (1 - y) log sigmoid(-x)) per sample, optionally weighted."""
    fn = "multi_label_soft_margin_loss"
    _check_reduction(fn, reduction)
    if list(input.shape) != list(label.shape):
        _bad(fn, f"arguments 'input' and 'label' expected one shape, got {list(input.shape)} "
             f"and {list(label.shape)}")
    from .activation import log_sigmoid
    one = _ops.ones_like(label, label.dtype)
    loss = _ops.neg(_ops.add(_ops.multiply(label, log_sigmoid(input)),
                             _ops.multiply(_ops.subtract(one, label),
                                           log_sigmoid(_ops.neg(input)))))
    if weight is not None:
        loss = _ops.multiply(loss, weight)
    return _reduce(_ops.mean(loss, [-1], False), reduction)


def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """N-pair loss: cross entropy of softmax(anchor @ positive^T) against the row-normalised
    label-equality matrix, plus 0.25 * l2_reg * (mean |anchor|^2 + mean |positive|^2)."""
    fn = "npair_loss"
    for arg, t in (("anchor", anchor), ("positive", positive)):
        if t.dtype not in ("float32", "float64"):
            _bad(fn, f"argument '{arg}' expected dtype float32 or float64, got {t.dtype}",
                 TypeError)
        if len(t.shape) != 2:
            _bad(fn, f"argument '{arg}' expected a 2-D tensor [batch, dims], got shape "
                 f"{list(t.shape)}")
    if list(anchor.shape) != list(positive.shape):
        _bad(fn, f"arguments 'anchor' and 'positive' expected one shape, got "
             f"{list(anchor.shape)} and {list(positive.shape)}")
    if labels.dtype not in ("float32", "float64", "int64"):
        _bad(fn, f"argument 'labels' expected dtype float32, float64 or int64, got "
             f"{labels.dtype}", TypeError)
    batch = anchor.shape[0]
    if len(labels.shape) != 1 or labels.shape[0] != batch:
        _bad(fn, f"argument 'labels' expected shape [{batch}], got {list(labels.shape)}")
    col = _ops.reshape(labels, [batch, 1])
    same = _ops.cast(_ops.equal(col, _ops.reshape(labels, [1, batch])), anchor.dtype)
    target = _ops.divide(same, _ops.sum(same, [1], None, True))
    l2 = _ops.add(_ops.mean(_ops.sum(_ops.square(anchor), [1], None, False), [], False),
                  _ops.mean(_ops.sum(_ops.square(positive), [1], None, False), [], False))
    l2 = _ops.scale(l2, 0.25 * l2_reg, 0.0, True)
    sim = _ops.matmul(anchor, positive, False, True)
    ce = _ops.neg(_ops.sum(_ops.multiply(target, _ops.log_softmax(sim, -1)), [1], None, True))
    ce = _ops.mean(_ops.sum(_ops.multiply(target, ce), [0], None, False), [], False)
    return _ops.add(l2, ce)
