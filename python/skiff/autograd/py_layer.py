"""paddle.autograd.PyLayer: a function with a hand-written backward.

    class Cube(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3
        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensor()
            return grad * 3 * x ** 2
    y = Cube.apply(x)

forward runs under no_grad; its Tensor arguments are the inputs (in order, keyword arguments
after positional ones). backward gets one gradient per Tensor output (zeros where none arrived)
and returns one per Tensor input (None: no gradient). backward runs with grad mode on when the
graph is being built (create_graph=True), so double backward works when it uses differentiable
ops on the saved tensors.
"""
from .. import _C


class PyLayerContext:
    def __init__(self):
        self._to_save = ()
        self._node = None
        self._non_differentiable = []
        self.needs_input_grad = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors):
        """Tensors backward needs; checked for in-place changes when backward reads them."""
        self._to_save = tensors

    def saved_tensor(self):
        if self._node is None:
            return list(self._to_save)
        return self._node.saved_tensors()

    def mark_non_differentiable(self, *tensors):
        """Outputs that get no gradient (indices, masks)."""
        self._non_differentiable.extend(tensors)

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class PyLayer:
    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("PyLayer subclasses define a static forward(ctx, ...)")

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("PyLayer subclasses define a static backward(ctx, *grads)")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = PyLayerContext()
        inputs = [a for a in list(args) + list(kwargs.values()) if isinstance(a, _C.Tensor)]
        ctx.needs_input_grad = tuple(not t.stop_gradient for t in inputs)
        prev = _C.is_grad_enabled()
        _C.set_grad_enabled(False)
        try:
            result = cls.forward(ctx, *args, **kwargs)
        finally:
            _C.set_grad_enabled(prev)
        single = isinstance(result, _C.Tensor)
        items = [result] if single else list(result)
        positions = [i for i, o in enumerate(items) if isinstance(o, _C.Tensor)]
        outputs = [items[i] for i in positions]
        if not outputs:
            raise TypeError(f"{cls.__name__}.forward: expected to return a Tensor or a "
                            f"tuple/list with Tensors, got {type(result).__name__}")
        non_diff = [any(o._is_same(n) for n in ctx._non_differentiable) for o in outputs]
        n_inputs = len(inputs)

        def backward(*grads):
            r = cls.backward(ctx, *grads)
            got = [r] if r is None or isinstance(r, _C.Tensor) else list(r)
            if len(got) != n_inputs:
                raise ValueError(f"{cls.__name__}.backward: expected {n_inputs} gradients (one "
                                 f"per Tensor input of forward), got {len(got)}")
            return got

        new_outputs, node = _C._apply_py_layer(inputs, outputs, backward, cls.__name__,
                                               non_diff, list(ctx._to_save))
        ctx._node = node
        if node is not None:
            ctx._to_save = ()  # the node holds them now (outputs without a reference cycle)
        for i, o in zip(positions, new_outputs):
            items[i] = o
        if single:
            return items[0]
        return tuple(items) if isinstance(result, tuple) else items
