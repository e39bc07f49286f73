"""paddle.DataParallel: the classic dygraph data parallel.

At construction the parameters and buffers are broadcast from the group's first rank (one
flat buffer per dtype), so every rank starts equal. Trainable parameters are put in buckets in
reverse order (backward produces the last layers' gradients first), the first bucket
`last_comm_buffer_size` MB and the others `comm_buffer_size` MB, one dtype per bucket. Each
parameter's gradient hook copies its gradient into its slot of the bucket's flat buffer; a bucket
whose parameters are all in is all-reduced (AVG) asynchronously at once, so communication
overlaps the rest of backward. Buckets start in index order on every rank. When backward has
finished (a callback of the autograd engine) the remaining tasks are waited for and the averaged
values written into each parameter's `.grad` in place.

`no_sync()` skips all of this (gradients accumulate locally; the next synchronized backward
reduces the accumulated values). Parameters that get no gradient in a backward: with
`find_unused_parameters=True` they contribute zeros (so ranks using different parameters stay in
step); without it the backward fails with an error naming them, as Paddle asks users to set the
flag."""
import contextlib

from .. import _C
from . import group as _group
from .collective import ReduceOp, _TO_C
from .. import _errors

__all__ = ["DataParallel"]

_MB = 1 << 20


class _Bucket:
    def __init__(self, params, dtype):
        import skiff
        self.params = params
        self.numel = sum(int(p.size) for p in params)
        self.flat = skiff.zeros([self.numel], dtype=dtype)
        self.slots, off = [], 0
        for p in params:
            n = int(p.size)
            self.slots.append(self.flat[off:off + n].reshape(list(p.shape)))
            off += n
        self.reset()

    def reset(self):
        self.ready = [False] * len(self.params)
        self.pending = len(self.params)
        self.task = None


def _layer_base():
    from ..nn import Layer
    return Layer


class DataParallel(_layer_base()):
    def __init__(self, layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
                 find_unused_parameters=False, group=None):
        super().__init__()
        self._layers = layers
        self.find_unused_parameters = bool(find_unused_parameters)
        self._group = group
        self._grad_need_sync = True
        for name, size in (("comm_buffer_size", comm_buffer_size),
                           ("last_comm_buffer_size", last_comm_buffer_size)):
            if not isinstance(size, (int, float)) or size <= 0:
                raise _errors.InvalidArgument(f"DataParallel: argument '{name}' expected a "
                                              f"positive size in MB, got {size!r}")
        g = _group._global_group() if group is None else group
        self._g = g
        self._nranks = g.nranks if g.is_member() else 1
        if g.is_member() and self._nranks > 1:
            self._sync_params_buffers()
        self._buckets, self._where = [], {}
        if g.is_member() and self._nranks > 1:
            self._build_buckets(comm_buffer_size * _MB, last_comm_buffer_size * _MB)
        self._in_backward = False
        self._next_launch = 0

    # -- construction ------------------------------------------------------------------------
    def _sync_params_buffers(self):
        import skiff
        tensors = {}
        seen = set()
        for t in list(self._layers.parameters()) + list(self._layers.buffers()):
            if t is None or id(t) in seen:
                continue
            seen.add(id(t))
            tensors.setdefault(str(t.dtype), []).append(t)
        src = self._g.ranks[0]
        with skiff.no_grad():
            for _, ts in sorted(tensors.items()):
                flat = skiff.concat([t.reshape([-1]) for t in ts])
                self._g.process_group.broadcast(flat, self._g.get_group_rank(src), True)
                off = 0
                for t in ts:
                    n = int(t.size)
                    t.set_value(flat[off:off + n].reshape(list(t.shape)))
                    off += n

    def _build_buckets(self, limit, first_limit):
        seen, params = set(), []
        for p in self._layers.parameters():
            if p.stop_gradient or id(p) in seen:
                continue
            seen.add(id(p))
            params.append(p)
        current, size, dtype = [], 0, None

        def close():
            if current:
                self._buckets.append(_Bucket(list(current), dtype))

        for p in reversed(params):
            nbytes = int(p.size) * p.element_size()
            cap = first_limit if not self._buckets else limit
            if current and (str(p.dtype) != str(dtype) or size + nbytes > cap):
                close()
                current, size = [], 0
            if not current:
                dtype = p.dtype
            current.append(p)
            size += nbytes
        close()
        for b, bucket in enumerate(self._buckets):
            for i, p in enumerate(bucket.params):
                self._where[id(p)] = (b, i)
                p.register_hook(self._make_hook(b, i))

    # -- backward ------------------------------------------------------------------------------
    def _make_hook(self, b, i):
        def hook(grad):
            if not self._grad_need_sync:
                return None
            self._on_grad(b, i, grad)
            return None
        return hook

    def _on_grad(self, b, i, grad):
        import skiff
        if not self._in_backward:
            self._in_backward = True
            _C._queue_backward_callback(self._finish_backward)
        bucket = self._buckets[b]
        if bucket.ready[i]:
            return
        p = bucket.params[i]
        with skiff.no_grad():
            # The value .grad will hold after this backward: earlier accumulation plus this.
            slot = bucket.slots[i]
            if p.grad is not None:
                slot.copy_(p.grad + grad)
            else:
                slot.copy_(grad)
        bucket.ready[i] = True
        bucket.pending -= 1
        self._launch_ready()

    def _launch_ready(self):
        while self._next_launch < len(self._buckets):
            bucket = self._buckets[self._next_launch]
            if bucket.pending:
                return
            bucket.task = self._g.process_group.all_reduce(bucket.flat, _TO_C[ReduceOp.AVG],
                                                           False)
            self._next_launch += 1

    def _finish_backward(self):
        import skiff
        self._in_backward = False
        unused = []
        for bucket in self._buckets:
            for i, p in enumerate(bucket.params):
                if not bucket.ready[i]:
                    unused.append((bucket, i, p))
        if unused and not self.find_unused_parameters:
            for bucket in self._buckets:
                bucket.reset()
            self._next_launch = 0
            names = ", ".join(getattr(p, "name", "?") for _, _, p in unused[:8])
            raise _errors.PreconditionNotMet(
                
                f"DataParallel: expected every trainable parameter to get "
                f"a gradient in backward, got none for {len(unused)} parameter(s) ({names}); "
                f"pass find_unused_parameters=True to DataParallel when the forward does not "
                f"use every parameter")
        with skiff.no_grad():
            for bucket, i, p in unused:
                bucket.slots[i].copy_(p.grad if p.grad is not None else
                                      skiff.zeros(list(p.shape), dtype=p.dtype))
                bucket.ready[i] = True
                bucket.pending -= 1
        self._launch_ready()
        try:
            for bucket in self._buckets:
                bucket.task.wait()
            with skiff.no_grad():
                for bucket in self._buckets:
                    for slot, p in zip(bucket.slots, bucket.params):
                        if p.grad is None:
                            p.grad = slot.clone()
                        else:
                            p.grad.copy_(slot)
        finally:
            for bucket in self._buckets:
                bucket.reset()
            self._next_launch = 0

    # -- Layer API -------------------------------------------------------------------------------
    def forward(self, *inputs, **kwargs):
        return self._layers(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self):
        """Gradients accumulate locally inside; the next synchronized backward reduces them."""
        old = self._grad_need_sync
        self._grad_need_sync = False
        try:
            yield
        finally:
            self._grad_need_sync = old

    def scale_loss(self, loss):
        return loss

    def apply_collective_grads(self):
        return None

    def state_dict(self, *args, **kwargs):
        return self._layers.state_dict(*args, **kwargs)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name=use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict
