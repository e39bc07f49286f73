"""Writing new values into an existing tensor's memory (parameters, buffers, optimizer state):
what set_state_dict, in-place initializers and running statistics need. The write happens
without recording autograd history and bumps the storage version."""


def assign_into(dst, src):
    """Copies `src` (Tensor or array-like, broadcastable, cast to dst's dtype) into `dst`."""
    from .. import Tensor, no_grad, to_tensor
    if not isinstance(src, Tensor):
        src = to_tensor(src, dtype=dst.dtype)
    elif src.dtype != dst.dtype:
        src = src.astype(dst.dtype)
    if list(src.shape) != list(dst.shape):
        raise ValueError(f"cannot assign a tensor of shape {list(src.shape)} to a tensor of "
                         f"shape {list(dst.shape)}")
    with no_grad():
        dst.set_value(src)
    return dst
