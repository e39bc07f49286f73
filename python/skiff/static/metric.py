"""paddle.static.accuracy: the top-k accuracy of a batch, as ops of the program (it also runs
eagerly on dense tensors)."""
from .. import float32
from ..nn.functional._common_ops import ops as _ops

__all__ = ["accuracy", "auc"]


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """The fraction of rows of `input` ([N, classes] scores) whose top-k classes hold `label`
    ([N, 1] or [N] int64): a 0-D float32 tensor."""
    if len(input.shape) != 2:
        raise ValueError(f"accuracy: argument 'input' expected [batch, classes] scores, got shape "
                         f"{list(input.shape)}")
    if not isinstance(k, int) or k < 1:
        raise ValueError(f"accuracy: argument 'k' expected an int >= 1, got {k!r}")
    if len(label.shape) == 1:
        label = _ops.unsqueeze(label, [1])
    _, top = _ops.topk(input, k, -1, True, True)
    hit = _ops.any(_ops.equal(top, _ops.cast(label, top.dtype)), [1], False)
    return _ops.mean(_ops.cast(hit, float32))


def _stat_tensor(shape, name):
    """A persistent int64 histogram of the program (zeros, reset by the startup program)."""
    from .. import framework, zeros
    from .persistent import create_persistent
    from .program import default_main_program
    if framework.in_dynamic_mode():
        return zeros(shape, "int64")
    t = create_persistent(shape, "int64", lambda: zeros(shape, "int64"))
    t.name = name
    t.persistable = True
    default_main_program()._persistables.append(t)
    return t


def _write(dst, value):
    """dst <- value: an update of the program's state, or an eager copy."""
    from .. import _C, framework
    from ..nn._assign import assign_into
    if framework.in_dynamic_mode():
        assign_into(dst, value)
    else:
        _C.jit.update_parameter(dst, value)


def _auc_of(stat_pos, stat_neg):
    """The area under the ROC curve of the bucket histograms [.., T + 1] (summed over the leading
    axes), walking the thresholds from the highest bucket down with trapezoids, as Paddle's auc
    kernel: 0 when either class is empty."""
    from .. import sum as _sum
    pos = _ops.cast(_sum(stat_pos, axis=0) if len(stat_pos.shape) == 2 else stat_pos, "float64")
    neg = _ops.cast(_sum(stat_neg, axis=0) if len(stat_neg.shape) == 2 else stat_neg, "float64")
    # tot[i] = the number of samples in buckets >= i
    tot_pos = _ops.cumsum(pos, 0, False, False, True)
    tot_neg = _ops.cumsum(neg, 0, False, False, True)
    prev_pos = tot_pos - pos
    prev_neg = tot_neg - neg
    area = _sum((tot_neg - prev_neg) * (tot_pos + prev_pos) * 0.5)
    p, n = tot_pos[0], tot_neg[0]
    denom = p * n
    ok = _ops.cast(denom > 0, "float64")
    return area / (denom + (1.0 - ok)) * ok


def auc(input, label, curve="ROC", num_thresholds=2**12 - 1, topk=1, slide_steps=1,
        ins_tag_weight=None):
    """Paddle's static.auc: the ROC AUC of the positive-class probabilities input[:, 1] against
    `label` ([N, 1] or [N] int), bucketed into num_thresholds + 1 buckets. Returns (auc_out,
    batch_auc_out, [batch_stat_pos, batch_stat_neg, stat_pos, stat_neg]): auc_out over every
    run of the program so far (its histograms stat_pos/stat_neg persist across runs; the startup
    program zeroes them), batch_auc_out over the last `slide_steps` runs (0: every run).
    Eagerly, each call starts from empty histograms."""
    if curve != "ROC":
        raise ValueError(f"(InvalidArgument) auc: argument 'curve' expected 'ROC' (Paddle's auc "
                         f"kernel computes ROC only), got {curve!r}")
    if not isinstance(num_thresholds, int) or isinstance(num_thresholds, bool) \
            or num_thresholds < 1:
        raise ValueError(f"(InvalidArgument) auc: argument 'num_thresholds' expected an int >= 1, "
                         f"got {num_thresholds!r}")
    if not isinstance(slide_steps, int) or isinstance(slide_steps, bool) or slide_steps < 0:
        raise ValueError(f"(InvalidArgument) auc: argument 'slide_steps' expected an int >= 0, "
                         f"got {slide_steps!r}")
    if len(input.shape) != 2 or input.shape[1] != 2:
        raise ValueError(f"(InvalidArgument) auc: argument 'input' expected [batch, 2] class "
                         f"probabilities, got shape {list(input.shape)}")
    if label.dtype.is_floating_point:
        raise TypeError(f"(InvalidType) auc: argument 'label' expected an int tensor, got "
                        f"{label.dtype.name}")
    if len(label.shape) == 2:
        label = _ops.reshape(label, [-1])
    if len(label.shape) != 1 or (label.shape[0] >= 0 and input.shape[0] >= 0
                                 and label.shape[0] != input.shape[0]):
        raise ValueError(f"(InvalidArgument) auc: argument 'label' expected shape [batch, 1] with "
                         f"the batch of 'input' ({input.shape[0]}), got {list(label.shape)}")
    from .. import sum as _sum
    from ..nn import unique_name
    from ..nn.functional import one_hot
    buckets = num_thresholds + 1
    prob = _ops.cast(input[:, 1], "float64")
    bucket = _ops.cast(prob * float(num_thresholds), "int64")  # truncation, as Paddle's kernel
    bucket = _ops.clip(bucket, 0.0, float(num_thresholds))
    hot = _ops.cast(one_hot(bucket, buckets), "int64")                  # [N, T + 1]
    is_pos = _ops.cast(_ops.unsqueeze(_ops.cast(label, "int64") > 0, [1]), "int64")
    batch_pos = _sum(hot * is_pos, axis=0)
    batch_neg = _sum(hot * (1 - is_pos), axis=0)

    prefix = unique_name.generate("auc")
    stat_pos = _stat_tensor([1, buckets], f"{prefix}_stat_pos")
    stat_neg = _stat_tensor([1, buckets], f"{prefix}_stat_neg")
    new_pos = stat_pos + _ops.unsqueeze(batch_pos, [0])
    new_neg = stat_neg + _ops.unsqueeze(batch_neg, [0])
    _write(stat_pos, new_pos)
    _write(stat_neg, new_neg)
    if slide_steps == 0:
        win_pos, win_neg = new_pos, new_neg
        batch_stat_pos, batch_stat_neg = stat_pos, stat_neg
    else:
        batch_stat_pos = _stat_tensor([slide_steps, buckets], f"{prefix}_batch_stat_pos")
        batch_stat_neg = _stat_tensor([slide_steps, buckets], f"{prefix}_batch_stat_neg")
        # the window keeps the last slide_steps batches, the newest last
        win_pos = _ops.concat([batch_stat_pos[1:], _ops.unsqueeze(batch_pos, [0])], 0)
        win_neg = _ops.concat([batch_stat_neg[1:], _ops.unsqueeze(batch_neg, [0])], 0)
        _write(batch_stat_pos, win_pos)
        _write(batch_stat_neg, win_neg)
    auc_out = _ops.cast(_auc_of(new_pos, new_neg), "float64")
    batch_auc_out = _ops.cast(_auc_of(win_pos, win_neg), "float64")
    return auc_out, batch_auc_out, [batch_stat_pos, batch_stat_neg, stat_pos, stat_neg]
