"""Paddle's hsigmoid_loss: hierarchical sigmoid over a binary tree of classes.

Each class is a leaf; the loss of a sample sums, over the non-leaf nodes j on its path,
softplus(p_j) - bit_j * p_j with p_j = clip(w[node_j] . x + b[node_j], -40, 40) (Paddle's
clip), bit_j the branch taken. The default tree is Paddle's SimpleCode: with c = label +
num_classes, node j is (c >> (j + 1)) - 1 and its bit is c & (1 << j), for j < bit_length(c) - 1.
A custom tree gives the nodes (path_table) and bits (path_code) per sample, -1 past its end.
The per-sample node tables are built in numpy; the rest is differentiable ops (the rows of
weight and bias are gathered), so input, weight and bias get gradients."""
import numpy as np

from ._common_ops import ops as _ops

__all__ = ["hsigmoid_loss"]


def _bad(msg, cls=ValueError):
    raise cls(f"(InvalidArgument) hsigmoid_loss: {msg}")


def _default_tree(labels, num_classes):
    c = labels.astype(np.int64) + num_classes
    length = np.floor(np.log2(c)).astype(np.int64)  # bit_length(c) - 1
    depth = int(length.max()) if length.size else 0
    j = np.arange(depth)[None, :]
    valid = j < length[:, None]
    nodes = np.where(valid, (c[:, None] >> (j + 1)) - 1, 0)
    bits = np.where(valid, (c[:, None] >> j) & 1, 0)
    return nodes, bits, valid


def hsigmoid_loss(input, label, num_classes, weight, bias=None, path_table=None,
                  path_code=None, is_sparse=False, name=None):
    """input [N, D], label [N] or [N, 1] -> loss [N, 1]."""
    from ...tensor.creation import to_tensor
    if len(input.shape) != 2:
        _bad(f"argument 'input' expected a 2-D tensor [N, D], got shape {list(input.shape)}")
    n, d = input.shape
    if label.dtype not in ("int32", "int64"):
        _bad(f"argument 'label' expected dtype int32 or int64, got {label.dtype}", TypeError)
    if any(getattr(t, "is_symbolic", False) for t in (label, path_table, path_code)
           if t is not None):
        raise NotImplementedError("(Unimplemented) hsigmoid_loss: the tree tables are built "
                                  "from label values, which a captured program does not have")
    lab = label.numpy().reshape([-1]).astype(np.int64)
    if lab.size != n:
        _bad(f"argument 'label' expected {n} labels ([N] or [N, 1]), got shape "
             f"{list(label.shape)}")
    if len(weight.shape) != 2 or weight.shape[1] != d:
        _bad(f"argument 'weight' expected shape [num_nodes, {d}], got {list(weight.shape)}")
    custom = path_table is not None or path_code is not None
    if custom:
        if path_table is None or path_code is None:
            _bad("arguments 'path_table' and 'path_code' expected both or neither")
        table = path_table.numpy().astype(np.int64)
        code = path_code.numpy().astype(np.int64)
        if table.shape != code.shape or table.ndim != 2 or table.shape[0] != n:
            _bad(f"arguments 'path_table' and 'path_code' expected one shape [{n}, L], got "
                 f"{list(table.shape)} and {list(code.shape)}")
        valid = np.cumprod(table >= 0, axis=1).astype(bool)  # up to the first -1
        nodes, bits = np.where(valid, table, 0), np.where(valid, code, 0)
    else:
        if num_classes < 2:
            _bad(f"argument 'num_classes' expected a value >= 2 for the default tree, got "
                 f"{num_classes}")
        if lab.size and (lab.min() < 0 or lab.max() >= num_classes):
            _bad(f"argument 'label' expected class indices in [0, {num_classes}), got "
                 f"{int(lab.min()) if lab.min() < 0 else int(lab.max())}")
        nodes, bits, valid = _default_tree(lab, num_classes)
    rows = weight.shape[0]
    if nodes.size and valid.any() and (nodes[valid].max() >= rows or nodes[valid].min() < 0):
        _bad(f"the tree's node indices expected to lie in [0, {rows}) (weight's rows), got "
             f"{int(nodes[valid].max())}")
    depth = nodes.shape[1]
    idx = to_tensor(np.ascontiguousarray(nodes.reshape([-1])))
    w = _ops.reshape(_ops.index_select(weight, idx, 0), [n, depth, d])
    pre = _ops.sum(_ops.multiply(w, _ops.unsqueeze(input, [1])), [2], None, False)
    if bias is not None:
        b = _ops.reshape(bias, [-1])
        if b.shape[0] != rows:
            _bad(f"argument 'bias' expected {rows} values, got shape {list(bias.shape)}")
        pre = _ops.add(pre, _ops.reshape(_ops.index_select(b, idx, 0), [n, depth]))
    pre = _ops.clip(pre, -40.0, 40.0)
    mask = _ops.cast(to_tensor(valid.astype(np.float64)), input.dtype)
    bit = _ops.cast(to_tensor(bits.astype(np.float64)), input.dtype)
    per_node = _ops.subtract(_ops.log1p(_ops.exp(pre)), _ops.multiply(bit, pre))
    return _ops.sum(_ops.multiply(per_node, mask), [1], None, True)
