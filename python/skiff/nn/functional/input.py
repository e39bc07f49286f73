"""Embedding and one-hot (Paddle's paddle.nn.functional.input)."""
from ._common_ops import ops as _ops

__all__ = ["embedding", "one_hot"]


def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
              scale_grad_by_freq=False, name=None):
    """Rows of `weight` ([num_embeddings, dim]) at the int indices `x`; the row of padding_idx
    reads as given but gets no gradient."""
    if sparse:
        raise NotImplementedError("embedding: sparse=True (SelectedRows gradients) is not "
                                  "supported; use sparse=False")
    num = weight.shape[0]
    if padding_idx is None:
        padding_idx = -1
    else:
        if padding_idx >= num or padding_idx < -num:
            raise ValueError(f"embedding: argument 'padding_idx' expected a value in [-{num}, "
                             f"{num}), got {padding_idx}")
        if padding_idx < 0:
            padding_idx += num
    return _ops.embedding(x, weight, padding_idx)


def one_hot(x, num_classes, name=None):
    return _ops.one_hot(x, num_classes)
