"""paddle.static.accuracy: the top-k accuracy of a batch, as ops of the program (it also runs
eagerly on dense tensors)."""
from .. import float32
from ..nn.functional._common_ops import ops as _ops

__all__ = ["accuracy"]


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
