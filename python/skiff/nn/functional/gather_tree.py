"""Paddle's gather_tree: the full token sequences of the final beams of a beam search.

ids and parents are [max_time, batch, beam]; parents[t][b][k] is the beam at step t - 1 that
beam k at step t extends. Walking back from the last step, out[t] = ids[t] at the beam the
path occupies then, as Paddle's kernel (one take_along_axis over the beam axis per step)."""
from ._common_ops import ops as _ops

__all__ = ["gather_tree"]


def gather_tree(ids, parents):
    fn = "gather_tree"
    if len(ids.shape) != 3:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'ids' expected a 3-D tensor "
                         f"[max_time, batch_size, beam_size], got shape {list(ids.shape)}")
    if list(parents.shape) != list(ids.shape):
        raise ValueError(f"(InvalidArgument) {fn}: argument 'parents' expected ids' shape "
                         f"{list(ids.shape)}, got {list(parents.shape)}")
    for arg, t in (("ids", ids), ("parents", parents)):
        if t.dtype not in ("int32", "int64"):
            raise TypeError(f"(InvalidArgument) {fn}: argument '{arg}' expected dtype int32 or "
                            f"int64, got {t.dtype}")
    if ids.dtype != parents.dtype:
        raise TypeError(f"(InvalidArgument) {fn}: arguments 'ids' and 'parents' expected one "
                        f"dtype, got {ids.dtype} and {parents.dtype}")
    steps, _, beam = ids.shape
    if steps == 0:
        return _ops.assign(ids)
    if not getattr(parents, "is_symbolic", False) and parents.size > 0:
        lo, hi = int(_ops.min(parents, [], False)), int(_ops.max(parents, [], False))
        if lo < 0 or hi >= beam:
            raise ValueError(f"(InvalidArgument) {fn}: argument 'parents' expected beam "
                             f"indices in [0, {beam}), got {lo if lo < 0 else hi}")
    ids64, par64 = _ops.cast(ids, "int64"), _ops.cast(parents, "int64")
    at = [_ops.squeeze(t, [0]) for t in _ops.split_with_num(ids64, steps, 0)]
    par = [_ops.squeeze(t, [0]) for t in _ops.split_with_num(par64, steps, 0)]
    out = [None] * steps
    out[-1] = at[-1]
    parent = par[-1]
    for t in range(steps - 2, -1, -1):
        out[t] = _ops.take_along_axis(at[t], parent, 1)
        parent = _ops.take_along_axis(par[t], parent, 1)
    return _ops.cast(_ops.stack(out, 0), ids.dtype)
