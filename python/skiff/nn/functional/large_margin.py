"""Paddle's large-scale face-recognition losses on one device: margin_cross_entropy (the
combined ArcFace / CosFace / SphereFace margin) and class_center_sample (PartialFC sampling).

margin_cross_entropy takes cosines: the target class' cos(theta) becomes
cos(m1 * theta + m2) - m3, every logit is multiplied by `scale`, and the loss is the softmax
cross entropy; the composition (acos, cos) gives Paddle's gradient. class_center_sample keeps
every positive class (ascending) and fills up to num_samples with distinct random negatives,
remapping labels to positions in the sampled list. Model-parallel groups are not supported."""
import numpy as np

from ._common_ops import ops as _ops

__all__ = ["margin_cross_entropy", "class_center_sample"]


def _bad(fn, msg, cls=ValueError):
    raise cls(f"(InvalidArgument) {fn}: {msg}")


def _single_device(fn, group):
    if group is not None and group is not False and getattr(group, "nranks", 1) > 1:
        raise NotImplementedError(f"(Unimplemented) {fn}: a model-parallel group of "
                                  f"{group.nranks} ranks is not supported")


def margin_cross_entropy(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0,
                         group=None, return_softmax=False, reduction="mean"):
    fn = "margin_cross_entropy"
    _single_device(fn, group)
    if reduction not in ("mean", "sum", "none", None):
        _bad(fn, f"argument 'reduction' expected 'mean', 'sum', 'none' or None, got "
             f"{reduction!r}")
    if len(logits.shape) != 2:
        _bad(fn, f"argument 'logits' expected a 2-D tensor [N, num_classes], got shape "
             f"{list(logits.shape)}")
    n, classes = logits.shape
    if len(label.shape) == 2 and label.shape[1] == 1:
        label = _ops.squeeze(label, [1])
    if list(label.shape) != [n]:
        _bad(fn, f"argument 'label' expected shape [{n}] or [{n}, 1], got {list(label.shape)}")
    if label.dtype not in ("int32", "int64"):
        _bad(fn, f"argument 'label' expected dtype int32 or int64, got {label.dtype}", TypeError)
    if not getattr(label, "is_symbolic", False) and n > 0:
        lo, hi = int(_ops.min(label, [], False)), int(_ops.max(label, [], False))
        if lo < 0 or hi >= classes:
            _bad(fn, f"argument 'label' expected class indices in [0, {classes}), got "
                 f"{lo if lo < 0 else hi}")
    lab = _ops.unsqueeze(_ops.cast(label, "int64"), [1])
    target = _ops.take_along_axis(logits, lab, 1)
    theta = _ops.acos(_ops.clip(target, -1.0, 1.0))
    moved = _ops.scale(_ops.cos(_ops.scale(theta, float(margin1), float(margin2), True)), 1.0,
                       -float(margin3), True)
    hot = _ops.cast(_ops.one_hot(_ops.cast(label, "int64"), classes), logits.dtype)
    adjusted = _ops.add(logits, _ops.multiply(hot, _ops.subtract(moved, target)))
    z = _ops.scale(adjusted, float(scale), 0.0, True)
    logp = _ops.log_softmax(z, -1)
    loss = _ops.neg(_ops.take_along_axis(logp, lab, 1))  # [N, 1], as Paddle's
    if reduction == "mean":
        loss = _ops.mean(loss, [], False)
    elif reduction == "sum":
        loss = _ops.sum(loss, [], None, False)
    if return_softmax:
        return loss, _ops.exp(logp)
    return loss


def class_center_sample(label, num_classes, num_samples, group=None):
    """-> (remapped_label, sampled_class_center): label's classes as positions in the sampled
    list (positives ascending, then random negatives)."""
    fn = "class_center_sample"
    _single_device(fn, group)
    from ...tensor.creation import to_tensor
    if len(label.shape) != 1:
        _bad(fn, f"argument 'label' expected a 1-D tensor, got shape {list(label.shape)}")
    if label.dtype not in ("int32", "int64"):
        _bad(fn, f"argument 'label' expected dtype int32 or int64, got {label.dtype}", TypeError)
    if num_samples <= 0 or num_samples > num_classes:
        _bad(fn, f"argument 'num_samples' expected a value in [1, num_classes = "
             f"{num_classes}], got {num_samples}")
    lab = label.numpy().astype(np.int64)
    if lab.size and (lab.min() < 0 or lab.max() >= num_classes):
        _bad(fn, f"argument 'label' expected class indices in [0, {num_classes}), got "
             f"{int(lab.min()) if lab.min() < 0 else int(lab.max())}")
    positives = np.unique(lab)
    sampled = positives
    if positives.size < num_samples:
        rest = np.setdiff1d(np.arange(num_classes), positives)
        order = _ops.randperm(int(rest.size), "int64").numpy()
        sampled = np.concatenate([positives, rest[order[:num_samples - positives.size]]])
    remap = np.searchsorted(positives, lab)
    return (to_tensor(remap.astype(lab.dtype)).astype(label.dtype),
            to_tensor(sampled.astype(np.int64)).astype(label.dtype))
