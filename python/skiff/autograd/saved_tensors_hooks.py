"""paddle.autograd.saved_tensors_hooks: pack/unpack hooks for the tensors autograd saves.

    with paddle.autograd.saved_tensors_hooks(lambda t: t.numpy(), paddle.to_tensor):
        y = paddle.multiply(a, b)        # a and b are saved as numpy arrays
    y.sum().backward()                   # ... and come back as tensors for the gradient

Inside the block, every tensor an op (or a PyLayer's ctx.save_for_backward) saves for the
gradient is replaced by pack_hook(tensor); backward calls unpack_hook(packed), which must
return a tensor of the saved one's shape and dtype (skiff/runtime/eager/saved_tensor_hooks.h).
Hooks nest and are per thread. A saved input that needs its gradient comes back without its
autograd history, so differentiating through it again (create_graph=True) raises."""
from .. import _C

__all__ = ["saved_tensors_hooks"]


class saved_tensors_hooks:  # noqa: N801 (Paddle's name)
    def __init__(self, pack_hook, unpack_hook):
        for arg, fn in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(fn):
                raise TypeError(f"(InvalidType) saved_tensors_hooks: argument '{arg}' expected a "
                                f"callable, got {type(fn).__name__}")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        _C._push_saved_tensors_hooks(self.pack_hook, self.unpack_hook)

    def __exit__(self, *args):
        _C._pop_saved_tensors_hooks()
