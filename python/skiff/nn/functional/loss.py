"""Loss functions (Paddle's paddle.nn.functional loss)."""
from ._common_ops import ops as _ops

__all__ = ["cross_entropy", "softmax_with_cross_entropy", "mse_loss", "l1_loss", "nll_loss",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "smooth_l1_loss",
           "kl_div", "margin_ranking_loss", "hinge_embedding_loss", "log_loss",
           "square_error_cost", "sigmoid_focal_loss", "cosine_embedding_loss",
           "soft_margin_loss", "poisson_nll_loss", "gaussian_nll_loss", "dice_loss"]


def _check_reduction(fn, reduction):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"{fn}: argument 'reduction' expected 'sum', 'mean' or 'none', got "
                         f"{reduction!r}")


def _reduce(loss, reduction):
    if reduction == "mean":
        return _ops.mean(loss, [], False)
    if reduction == "sum":
        return _ops.sum(loss, [], None, False)
    return loss


def _guard_zero(t):
    """t + (t == 0): a denominator that is 1 where t is 0 (Paddle's convention)."""
    return _ops.add(t, _ops.cast(_ops.equal(t, _ops.zeros_like(t, t.dtype)), t.dtype))


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",
                  soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    """Softmax cross entropy with Paddle's semantics: hard labels of shape input.shape without
    the class axis (or with it as 1), soft labels of input's shape; ignore_index >= 0 drops
    those samples (negative means none is ignored); `weight` per class; label_smoothing turns
    hard labels into smoothed one-hot soft labels."""
    _check_reduction("cross_entropy", reduction)
    if ignore_index > 0 and soft_label:
        raise ValueError("cross_entropy: argument 'ignore_index' must be -100 when "
                         f"soft_label=True, got {ignore_index}")
    input_dims = len(input.shape)
    if input_dims == 0:
        raise ValueError("cross_entropy: argument 'input' expected at least 1 dim, got a 0-D "
                         "tensor")
    label_dims = len(label.shape)
    if input_dims - 1 != label_dims and input_dims != label_dims:
        raise ValueError("cross_entropy: argument 'label' expected rank input_dims - 1 or "
                         f"input_dims (input shape {list(input.shape)}), got shape "
                         f"{list(label.shape)}")
    ax = axis % input_dims
    if input_dims - 1 == label_dims:
        label = _ops.unsqueeze(label, [ax])
    if label_smoothing > 0.0:
        if not soft_label:
            hard = _ops.squeeze(label, [ax]) if input_dims - 1 == label_dims else label
            if input_dims == label_dims and label.shape[ax] == 1:
                hard = _ops.squeeze(label, [ax])
            label = _ops.one_hot(hard, input.shape[ax])
            if ax != input_dims - 1:
                perm = list(range(input_dims))
                perm.insert(ax, perm.pop(-1))
                label = _ops.transpose(label, perm)
        soft_label = True
        label = _ops.cast(label, input.dtype)
        label = _ops.scale(label, 1.0 - label_smoothing, label_smoothing / input.shape[ax], True)
    _, out = _ops.cross_entropy_with_softmax(input, label, soft_label, use_softmax, True,
                                             ignore_index, ax)
    wgather = None
    if weight is not None:
        if soft_label:
            wshape = [1] * input_dims
            wshape[ax] = weight.shape[-1]
            wgather = _ops.sum(_ops.multiply(_ops.cast(label, weight.dtype),
                                             _ops.reshape(weight, wshape)), [ax], None, True)
        else:
            if input.shape[ax] != weight.shape[-1]:
                raise ValueError(f"input's class_dimension({input.shape[ax]}) must equal to "
                                 f"weight's class_dimension({weight.shape[-1]}) when weight is "
                                 "provided")
            keep = _ops.not_equal(label, _ops.full_like(label, ignore_index, label.dtype))
            valid = _ops.where(keep, label, _ops.zeros_like(label, label.dtype))
            wgather = _ops.multiply(_ops.reshape(_ops.gather(weight, _ops.reshape(valid, [-1]), 0),
                                                 list(label.shape)),
                                    _ops.cast(keep, weight.dtype))
        out = _ops.multiply(_ops.cast(out, wgather.dtype), wgather)
    if reduction == "sum":
        return _ops.sum(out, [], None, False)
    if reduction == "mean":
        if ignore_index >= 0 and not soft_label:
            out_sum = _ops.sum(out, [], None, False)
            keep = _ops.not_equal(label, _ops.full_like(label, ignore_index, label.dtype))
            if weight is None:
                count = _ops.sum(_ops.cast(keep, out_sum.dtype), [], None, False)
                return _ops.divide(out_sum, _guard_zero(count))
            wsum = _ops.sum(wgather, [], None, False)
            return _ops.divide(out_sum, _guard_zero(wsum))
        if weight is not None:
            out_sum = _ops.sum(out, [], None, False)
            wsum = _ops.sum(wgather, [], None, False)
            return _ops.divide(out_sum, _guard_zero(wsum))
        return _ops.mean(out, [], False)
    if input_dims - 1 == label_dims:
        out = _ops.squeeze(out, [ax])
    return out


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """The raw op: loss with the class axis kept as 1 (and the softmax if asked)."""
    if len(logits.shape) - 1 == len(label.shape):
        label = _ops.unsqueeze(label, [axis % len(logits.shape)])
    softmax, loss = _ops.cross_entropy_with_softmax(logits, label, soft_label, True,
                                                    numeric_stable_mode, ignore_index, axis)
    return (loss, softmax) if return_softmax else loss


def _check_broadcastable(op, input, label):
    """input and label must broadcast (the error names the loss, not the subtract inside it)."""
    a, b = list(input.shape), list(label.shape)
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and x != 1 and y != 1 and x >= 0 and y >= 0:
            raise ValueError(f"{op}: argument 'label' expected a shape broadcastable to input's "
                             f"{a}, got {b}")


def mse_loss(input, label, reduction="mean", name=None):
    _check_reduction("mse_loss", reduction)
    _check_broadcastable("mse_loss", input, label)
    return _reduce(_ops.square(_ops.subtract(input, label)), reduction)


def square_error_cost(input, label):
    return _ops.square(_ops.subtract(input, label))


def l1_loss(input, label, reduction="mean", name=None):
    _check_reduction("l1_loss", reduction)
    _check_broadcastable("l1_loss", input, label)
    return _reduce(_ops.abs(_ops.subtract(input, label)), reduction)


def _check_label_range(op, valid, n_classes, ignore_index):
    """Class labels (ignore_index replaced by 0) must lie in [0, n_classes): an eager check (a
    captured program cannot read values; its gather reports the index instead)."""
    if getattr(valid, "is_symbolic", False) or n_classes < 0 or valid.size == 0:
        return
    lo = int(_ops.min(valid, [], False))
    hi = int(_ops.max(valid, [], False))
    if lo < 0 or hi >= n_classes:
        raise ValueError(f"{op}: argument 'label' expected class indices in [0, {n_classes}) "
                         f"or ignore_index ({ignore_index}), got {lo if lo < 0 else hi}")


def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None):
    """Negative log-likelihood of log-probabilities `input` [N, C, d1...] at `label` [N, d1...];
    mean divides by the sum of the weights of non-ignored samples."""
    _check_reduction("nll_loss", reduction)
    rank = len(input.shape)
    if rank < 2:
        raise ValueError(f"nll_loss: argument 'input' expected rank >= 2, got shape "
                         f"{list(input.shape)}")
    if list(label.shape) != [input.shape[0]] + list(input.shape[2:]):
        raise ValueError(f"nll_loss: argument 'label' expected shape "
                         f"{[input.shape[0]] + list(input.shape[2:])}, got {list(label.shape)}")
    keep = _ops.not_equal(label, _ops.full_like(label, ignore_index, label.dtype))
    valid = _ops.where(keep, label, _ops.zeros_like(label, label.dtype))
    _check_label_range("nll_loss", valid, input.shape[1], ignore_index)
    picked = _ops.squeeze(_ops.take_along_axis(input, _ops.unsqueeze(valid, [1]), 1), [1])
    w = _ops.cast(keep, input.dtype)
    if weight is not None:
        w = _ops.multiply(w, _ops.reshape(_ops.gather(weight, _ops.reshape(valid, [-1]), 0),
                                          list(label.shape)))
    loss = _ops.neg(_ops.multiply(picked, w))
    if reduction == "none":
        return loss
    total = _ops.sum(loss, [], None, False)
    if reduction == "sum":
        return total
    return _ops.divide(total, _ops.sum(w, [], None, False))


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):
    _check_reduction("binary_cross_entropy", reduction)
    eps = 1e-12
    one = _ops.ones_like(input, input.dtype)
    logp = _ops.log(_ops.clip(input, eps, 1.0))
    log1mp = _ops.log(_ops.clip(_ops.subtract(one, input), eps, 1.0))
    loss = _ops.neg(_ops.add(_ops.multiply(label, logp),
                             _ops.multiply(_ops.subtract(one, label), log1mp)))
    if weight is not None:
        loss = _ops.multiply(loss, weight)
    return _reduce(loss, reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    """Stable form: (1 - y) * x + (1 + (pw - 1) * y) * log(1 + exp(-x))."""
    _check_reduction("binary_cross_entropy_with_logits", reduction)
    one = _ops.ones_like(logit, logit.dtype)
    softplus_neg = _ops.softplus(_ops.neg(logit), 1.0, 20.0)  # log(1 + exp(-x))
    if pos_weight is None:
        loss = _ops.add(_ops.multiply(_ops.subtract(one, label), logit), softplus_neg)
    else:
        coef = _ops.add(one, _ops.multiply(_ops.subtract(pos_weight, one), label))
        loss = _ops.add(_ops.multiply(_ops.subtract(one, label), logit),
                        _ops.multiply(coef, softplus_neg))
    if weight is not None:
        loss = _ops.multiply(loss, weight)
    return _reduce(loss, reduction)


def log_loss(input, label, epsilon=1e-4, name=None):
    one = _ops.ones_like(input, input.dtype)
    return _ops.neg(_ops.add(_ops.multiply(label, _ops.log(_ops.scale(input, 1.0, epsilon, True))),
                             _ops.multiply(_ops.subtract(one, label),
                                           _ops.log(_ops.scale(_ops.subtract(one, input), 1.0,
                                                               epsilon, True)))))


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, name=None):
    """Huber loss as Paddle defines it: 0.5 d^2 where |d| < delta, else
    delta * (|d| - 0.5 delta)."""
    _check_reduction("smooth_l1_loss", reduction)
    d = _ops.subtract(input, label)
    ad = _ops.abs(d)
    small = _ops.less_than(ad, _ops.full_like(ad, delta, ad.dtype))
    quad = _ops.scale(_ops.square(d), 0.5, 0.0, True)
    lin = _ops.scale(ad, delta, -0.5 * delta * delta, True)
    return _reduce(_ops.where(small, quad, lin), reduction)


def kl_div(input, label, reduction="mean", log_target=False, name=None):
    """label * (log(label) - input), `input` being log-probabilities; 'batchmean' divides the sum
    by the batch size."""
    if reduction not in ("sum", "mean", "none", "batchmean"):
        raise ValueError("kl_div: argument 'reduction' expected 'sum', 'mean', 'none' or "
                         f"'batchmean', got {reduction!r}")
    if log_target:
        loss = _ops.multiply(_ops.exp(label), _ops.subtract(label, input))
    else:
        safe = _ops.where(_ops.greater_than(label, _ops.zeros_like(label, label.dtype)), label,
                          _ops.ones_like(label, label.dtype))
        loss = _ops.multiply(label, _ops.subtract(_ops.log(safe), input))
    if reduction == "batchmean":
        return _ops.scale(_ops.sum(loss, [], None, False), 1.0 / input.shape[0], 0.0, True)
    return _reduce(loss, reduction)


def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None):
    _check_reduction("margin_ranking_loss", reduction)
    d = _ops.scale(_ops.multiply(_ops.neg(label), _ops.subtract(input, other)), 1.0, margin, True)
    return _reduce(_ops.relu(d), reduction)


def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):
    _check_reduction("hinge_embedding_loss", reduction)
    one = _ops.ones_like(label, label.dtype)
    pos = _ops.where(_ops.equal(label, one), input, _ops.zeros_like(input, input.dtype))
    neg = _ops.where(_ops.equal(label, _ops.neg(one)),
                     _ops.relu(_ops.scale(input, -1.0, margin, True)),
                     _ops.zeros_like(input, input.dtype))
    return _reduce(_ops.add(pos, neg), reduction)


def soft_margin_loss(input, label, reduction="mean", name=None):
    _check_reduction("soft_margin_loss", reduction)
    loss = _ops.log1p(_ops.exp(_ops.neg(_ops.multiply(_ops.cast(label, input.dtype), input))))
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    _check_reduction("cosine_embedding_loss", reduction)
    from .common import cosine_similarity
    cos = cosine_similarity(input1, input2, axis=-1, eps=1e-8)
    one = _ops.ones_like(cos, cos.dtype)
    lab = _ops.cast(label, cos.dtype)
    pos = _ops.subtract(one, cos)
    neg = _ops.relu(_ops.scale(cos, 1.0, -float(margin), True))
    loss = _ops.where(_ops.equal(lab, one), pos, neg)
    return _reduce(loss, reduction)


def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum",
                       name=None):
    _check_reduction("sigmoid_focal_loss", reduction)
    one = _ops.ones_like(logit, logit.dtype)
    p = _ops.sigmoid(logit)
    ce = binary_cross_entropy_with_logits(logit, label, reduction="none")
    p_t = _ops.add(_ops.multiply(p, label), _ops.multiply(_ops.subtract(one, p),
                                                          _ops.subtract(one, label)))
    loss = _ops.multiply(ce, _ops.pow(_ops.subtract(one, p_t), gamma))
    if alpha >= 0:
        a_t = _ops.add(_ops.scale(label, alpha, 0.0, True),
                       _ops.scale(_ops.subtract(one, label), 1.0 - alpha, 0.0, True))
        loss = _ops.multiply(a_t, loss)
    if normalizer is not None:
        loss = _ops.divide(loss, normalizer)
    return _reduce(loss, reduction)


def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-8, reduction="mean",
                     name=None):
    _check_reduction("poisson_nll_loss", reduction)
    if log_input:
        loss = _ops.subtract(_ops.exp(input), _ops.multiply(label, input))
    else:
        loss = _ops.subtract(input, _ops.multiply(label, _ops.log(_ops.scale(input, 1.0, epsilon,
                                                                             True))))
    if full:
        import math
        safe = _ops.where(_ops.greater_than(label, _ops.ones_like(label, label.dtype)), label,
                          _ops.ones_like(label, label.dtype))
        stirling = _ops.add(_ops.subtract(_ops.multiply(safe, _ops.log(safe)), safe),
                            _ops.scale(_ops.log(safe), 0.5, 0.5 * math.log(2 * math.pi), True))
        stirling = _ops.where(_ops.greater_than(label, _ops.ones_like(label, label.dtype)),
                              stirling, _ops.zeros_like(label, label.dtype))
        loss = _ops.add(loss, stirling)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-6, reduction="mean",
                      name=None):
    """0.5 * (log(max(var, eps)) + (input - label)^2 / max(var, eps)) (+ 0.5 log(2 pi) when
    full). variance has input's shape, or it without the last dim, or with the last dim 1; as
    Paddle's (and torch's), the clamp to eps is invisible to the gradient."""
    fn = "gaussian_nll_loss"
    _check_reduction(fn, reduction)
    for arg, t in (("input", input), ("label", label), ("variance", variance)):
        if t.dtype not in ("float32", "float64"):
            raise TypeError(f"(InvalidArgument) {fn}: argument '{arg}' expected dtype float32 "
                            f"or float64, got {t.dtype}")
    shape, vshape = list(input.shape), list(variance.shape)
    if vshape != shape:
        if shape[:-1] == vshape:
            variance = _ops.unsqueeze(variance, [-1])
        elif not (shape[:-1] == vshape[:-1] and vshape[-1:] == [1]):
            raise ValueError(f"(InvalidArgument) {fn}: argument 'variance' expected shape "
                             f"{shape}, {shape[:-1]} or {shape[:-1] + [1]}, got {vshape}")
    _check_broadcastable(fn, input, label)
    if not getattr(variance, "is_symbolic", False) and variance.size > 0:
        if bool(_ops.any(_ops.less_than(variance, _ops.zeros_like(variance, variance.dtype)),
                         [], False)):
            raise ValueError(f"(InvalidArgument) {fn}: argument 'variance' expected "
                             "non-negative entries, got a negative one")
    clamped = _ops.clip(variance, float(epsilon), float("inf"))
    var = _ops.add(variance, _ops.subtract(clamped, variance).detach())
    loss = _ops.scale(_ops.add(_ops.log(var),
                               _ops.divide(_ops.square(_ops.subtract(input, label)), var)),
                      0.5, 0.0, True)
    if full:
        import math
        loss = _ops.scale(loss, 1.0, 0.5 * math.log(2 * math.pi), True)
    return _reduce(loss, reduction)


def dice_loss(input, label, epsilon=0.00001, name=None):
    """Mean over the batch of 1 - 2 |X n Y| / (|X| + |Y| + eps); input [N, ..., D]
    probabilities, label [N, ..., 1] class indices (one-hot over D)."""
    fn = "dice_loss"
    if input.dtype not in ("float32", "float64"):
        raise TypeError(f"(InvalidArgument) {fn}: argument 'input' expected dtype float32 or "
                        f"float64, got {input.dtype}")
    if label.dtype not in ("int32", "int64"):
        raise TypeError(f"(InvalidArgument) {fn}: argument 'label' expected dtype int32 or "
                        f"int64, got {label.dtype}")
    shape, lshape = list(input.shape), list(label.shape)
    if len(shape) < 2 or len(lshape) != len(shape) or lshape[-1] != 1 or lshape[:-1] != shape[:-1]:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'label' expected shape "
                         f"{shape[:-1] + [1]} for input shape {shape} (rank >= 2), got {lshape}")
    if input.size == 0:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'input' expected a non-empty "
                         f"tensor, got shape {shape}")
    onehot = _ops.cast(_ops.one_hot(_ops.squeeze(label, [-1]), shape[-1]), input.dtype)
    axes = list(range(1, len(shape)))
    inse = _ops.sum(_ops.multiply(input, onehot), axes, None, False)
    denom = _ops.add(_ops.sum(input, axes, None, False), _ops.sum(onehot, axes, None, False))
    score = _ops.scale(_ops.divide(inse, _ops.scale(denom, 1.0, float(epsilon), True)), -2.0,
                       1.0, True)
    return _ops.mean(score, [], False)
