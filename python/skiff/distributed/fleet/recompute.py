"""Recompute (activation checkpointing): Paddle's paddle.distributed.fleet.utils.recompute and
paddle.incubate.distributed.fleet.recompute_sequential.

The function runs under no_grad in the forward pass, so none of its intermediate activations
are kept; only its Tensor inputs are saved. A PyLayer node stands for it in the graph: its
backward re-runs the function with grad mode on, the random generator put back to the state the
forward saw (preserve_rng_state: dropout draws the same masks) and the forward's auto_cast
state, then back-propagates the incoming gradients through that second graph. Parameters the
function uses get their gradients from that inner backward; the inputs' gradients are returned
to the outer one. use_reentrant=False takes the same path (and accepts keyword arguments)."""
import contextlib

from ... import _C
from ...autograd.py_layer import PyLayer

__all__ = ["recompute", "recompute_sequential"]


@contextlib.contextmanager
def _swap_rng_state(state):
    from ...framework import get_rng_state, set_rng_state
    if state is None:
        yield
        return
    current = get_rng_state()
    set_rng_state(state)
    try:
        yield
    finally:
        set_rng_state(current)


@contextlib.contextmanager
def _amp_state(state):
    previous = _C.amp.set_state(*state)
    try:
        yield
    finally:
        _C.amp.set_state(*previous)


class _RecomputeFunction(PyLayer):
    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, kw_names, *args):
        from ...framework import get_rng_state
        ctx.run_function = run_function
        ctx.kw_names = kw_names
        ctx.rng_state = get_rng_state() if preserve_rng_state else None
        ctx.amp_state = _C.amp.state()
        ctx.tensor_positions = [i for i, a in enumerate(args) if isinstance(a, _C.Tensor)]
        ctx.stop_gradients = [args[i].stop_gradient for i in ctx.tensor_positions]
        ctx.args = [None if isinstance(a, _C.Tensor) else a for a in args]
        ctx.save_for_backward(*[args[i] for i in ctx.tensor_positions])
        return _call(run_function, list(args), kw_names)

    @staticmethod
    def backward(ctx, *grads):
        from ... import autograd
        args = list(ctx.args)
        leaves = []
        for i, t, sg in zip(ctx.tensor_positions, ctx.saved_tensor(), ctx.stop_gradients):
            leaf = t.detach()
            leaf.stop_gradient = sg
            args[i] = leaf
            leaves.append(leaf)
        prev = _C.is_grad_enabled()
        _C.set_grad_enabled(True)
        try:
            with _swap_rng_state(ctx.rng_state), _amp_state(ctx.amp_state):
                outputs = _call(ctx.run_function, args, ctx.kw_names)
        finally:
            _C.set_grad_enabled(prev)
        outs = [outputs] if isinstance(outputs, _C.Tensor) else list(outputs)
        pairs = [(o, g) for o, g in zip(outs, grads)
                 if isinstance(o, _C.Tensor) and not o.stop_gradient and g is not None]
        if pairs:
            autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        return tuple(None if leaf.stop_gradient else leaf.grad for leaf in leaves)


def _call(fn, args, kw_names):
    n = len(args) - len(kw_names)
    return fn(*args[:n], **dict(zip(kw_names, args[n:])))


def recompute(function, *args, **kwargs):
    """Runs function(*args, **kwargs) without keeping its activations; backward recomputes
    them. kwargs may hold preserve_rng_state (default True: the recomputation draws the same
    random numbers as the forward) and use_reentrant (default True, which refuses the
    function's own keyword arguments as Paddle does)."""
    preserve = kwargs.pop("preserve_rng_state", True)
    use_reentrant = kwargs.pop("use_reentrant", True)
    if not callable(function):
        raise TypeError(f"recompute: argument 'function' expected a callable, got "
                        f"{type(function).__name__}")
    if use_reentrant and kwargs:
        raise ValueError("Error, if you want to send kwargs(dict parameter) to function, please "
                         "set use_reentrant=False.")
    if not _C.is_grad_enabled():  # nothing to recompute for: run it plainly
        return function(*args, **kwargs)
    names = list(kwargs)
    return _RecomputeFunction.apply(function, bool(preserve), names,
                                    *args, *[kwargs[k] for k in names])


def recompute_sequential(ctx, functions, *args, **kwargs):
    """Recomputes a Sequential (or a list of layers) in ctx['segments'] chunks (default 1);
    ctx['preserve_rng_state'] as recompute's."""
    if not isinstance(ctx, dict):
        raise TypeError(f"recompute_sequential: argument 'ctx' expected a dict, got "
                        f"{type(ctx).__name__}")
    segments = int(ctx.get("segments", 1))
    preserve = ctx.get("preserve_rng_state", True)
    layers = list(functions.children()) if hasattr(functions, "children") else list(functions)
    if segments < 1 or not layers:
        raise ValueError(f"recompute_sequential: need segments >= 1 and at least one layer, got "
                         f"segments={segments} and {len(layers)} layers")
    size = (len(layers) + segments - 1) // segments

    def run(begin, end):
        def fn(*inputs):
            out = inputs[0] if len(inputs) == 1 else inputs
            for layer in layers[begin:end]:
                out = layer(out) if not isinstance(out, tuple) else layer(*out)
            return out
        return fn

    out = args
    for begin in range(0, len(layers), size):
        inputs = out if isinstance(out, tuple) else (out,)
        out = recompute(run(begin, min(begin + size, len(layers))), *inputs,
                        preserve_rng_state=preserve, **kwargs)
    return out
