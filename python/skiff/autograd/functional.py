"""Jacobians and Hessians by reverse mode, evaluated lazily by rows (Paddle 3.0's
`paddle.autograd.jacobian/hessian` and `paddle.incubate.autograd.{Jacobian, Hessian, vjp, jvp}`).

A Jacobian object holds the flattened outputs ys ([M] or [B, M]) and the inputs xs. Indexing
it like a Tensor (`J[:]`, `J[i]`, `J[:, i, j]`) evaluates only the rows the index touches: row
i is the gradient of ys[i] (or ys[:, i]) with respect to xs, taken with create_graph=True so
the result is itself differentiable (a Hessian is the Jacobian of a Jacobian row). Rows are
cached, so slicing again costs nothing.
"""
from collections.abc import Sequence

from .. import _C


def _paddle():
    import skiff  # the package imports this module while it initializes
    return skiff


def _is_tensor(x):
    return isinstance(x, _paddle().Tensor)


def _tensors(xs):
    return tuple(xs) if isinstance(xs, Sequence) and not _is_tensor(xs) else xs


def _grad_or_zeros(ys, xs, v=None):
    """d(ys . v)/dxs with the graph kept (higher orders); an unused input gets zeros."""
    paddle = _paddle()
    single = _is_tensor(xs)
    inputs = [xs] if single else list(xs)
    outputs = [ys] if _is_tensor(ys) else list(ys)
    if v is not None:
        v = [v] if _is_tensor(v) else list(v)
    grads = paddle.grad(outputs, inputs, v, create_graph=True, allow_unused=True)
    out = []
    for g, x in zip(grads, inputs):
        if g is None:
            g = paddle.zeros_like(x)
            g.stop_gradient = x.stop_gradient
        out.append(g)
    return out[0] if single else tuple(out)


def _normalize_index(index, shape):
    """A basic index as a full tuple of ints and slices with positive bounds."""
    index = index if isinstance(index, tuple) else (index,)
    if any(i is Ellipsis for i in index):
        raise IndexError("(InvalidArgument) Jacobian indexing does not support Ellipsis, "
                         f"got {index}.")
    if len(index) > len(shape):
        raise IndexError(f"(OutOfRange) too many indices for a Jacobian of shape {shape}: "
                         f"got {len(index)}.")
    index = index + (slice(None),) * (len(shape) - len(index))
    out = []
    for i, size in zip(index, shape):
        if isinstance(i, slice):
            out.append(slice(*i.indices(size)))
        elif isinstance(i, int) and not isinstance(i, bool):
            if not -size <= i < size:
                raise IndexError(f"(OutOfRange) index {i} is out of range for a Jacobian "
                                 f"axis of size {size}.")
            out.append(i % size)
        else:
            raise TypeError(f"(InvalidType) Jacobian index must be int or slice, got "
                            f"{type(i).__name__}.")
    return tuple(out)


class _LazyJacobian:
    """Rows of d(flat ys)/d(flat xs), evaluated on demand and cached.

    Unbatched: ys flattens to [M], xs to [N], the matrix is [M, N]. Batched (first axis): ys
    [B, M], xs [B, N], the matrix [B, M, N]; row i is taken from the sum over the batch of
    ys[:, i], exact when batch items do not mix (the batched contract).
    """

    def __init__(self, ys, xs, is_batched):
        self.is_batched = is_batched
        self._xs = xs
        self._flat_ys = self._flatten(ys)
        self._flat_xs = self._flatten(xs)
        self._rows = {}
        if is_batched:
            self.inner_shape = [self._flat_xs.shape[0], self._flat_ys.shape[1],
                                self._flat_xs.shape[1]]
        else:
            self.inner_shape = [self._flat_ys.shape[0], self._flat_xs.shape[0]]

    @property
    def _row_axis(self):
        return 1 if self.is_batched else 0

    def _flatten(self, xs):
        paddle = _paddle()
        parts = [xs] if _is_tensor(xs) else list(xs)
        if self.is_batched:
            return paddle.concat([p.reshape([p.shape[0], -1]) for p in parts], axis=1)
        return paddle.concat([p.reshape([-1]) for p in parts], axis=0)

    def row(self, i):
        r = self._rows.get(i)
        if r is None:
            y = self._flat_ys[:, i] if self.is_batched else self._flat_ys[i]
            r = self._flatten(_grad_or_zeros(y, self._xs))
            self._rows[i] = r
        return r

    def __getitem__(self, index):
        paddle = _paddle()
        index = _normalize_index(index, self.inner_shape)
        axis = self._row_axis
        rows = index[axis]
        rest = index[:axis] + index[axis + 1:]
        if isinstance(rows, int):
            return self.row(rows)[rest]
        ids = list(range(rows.start, rows.stop, rows.step))
        if not ids:
            shape = list(self.inner_shape)
            shape[axis] = 0
            return paddle.zeros(shape, dtype=self._flat_ys.dtype)[rest[:axis] + (slice(None),)
                                                                  + rest[axis:]]
        block = paddle.stack([self.row(i) for i in ids], axis=axis)
        return block[index[:axis] + (slice(None),) + index[axis + 1:]]


class Jacobian:
    """The Jacobian of ys with respect to xs (paddle.autograd.jacobian's result).

    `shape` is [M, N] (unbatched; a 0-D side drops its axis) or [B, M, N] (batched). Index it
    like a Tensor; arithmetic and Tensor attributes act on the whole matrix.
    """

    def __init__(self, ys, xs, is_batched=False):
        if not is_batched:
            for name, t in (("xs", xs), ("ys", ys)):
                if not 0 <= len(t.shape) <= 1:
                    raise ValueError(f"(InvalidArgument) jacobian: {name}.ndim should be 0 or 1 "
                                     f"when batch_axis is None, but got {len(t.shape)}.")
        else:
            for name, t in (("xs", xs), ("ys", ys)):
                if not 1 <= len(t.shape) <= 2:
                    raise ValueError(f"(InvalidArgument) jacobian: {name}.ndim should be 1 or 2 "
                                     f"when batch_axis=0, but got {len(t.shape)}.")
        self._ys_shape, self._xs_shape = list(ys.shape), list(xs.shape)
        if is_batched and len(ys.shape) == 1:
            ys = ys.reshape([-1, 1])
        self._jac = _LazyJacobian(ys, xs, is_batched)
        if is_batched:
            self.shape = [self._jac.inner_shape[0]] + self._ys_shape[1:2] + self._xs_shape[1:2]
        else:
            self.shape = self._ys_shape[0:1] + self._xs_shape[0:1]

    def _full_index(self, index):
        """Maps an index on `shape` (where a 0-D/1-D side has no axis) to the inner matrix."""
        index = index if isinstance(index, tuple) else (index,)
        if self._jac.is_batched:
            if len(self.shape) == 3:
                return index
            if len(self.shape) == 1:  # both sides 1-D: [B] -> [B, 1, 1]
                return (index[0], 0, 0) if index else (slice(None), 0, 0)
            b, rest = (index[0], index[1:]) if index else (slice(None), ())
            other = rest[0] if rest else slice(None)
            return (b, 0, other) if len(self._ys_shape) == 1 else (b, other, 0)
        if len(self.shape) == 2:
            return index
        if len(self.shape) == 0:
            return (0, 0)
        i = index[0] if index else slice(None)
        return (0, i) if len(self._ys_shape) == 0 else (i, 0)

    def __getitem__(self, index):
        if len(self.shape) == 0 and index not in (slice(None), ()):
            raise IndexError("(InvalidArgument) a Jacobian of two 0-D tensors is 0-D; "
                             "read it with J[:].")
        return self._jac[self._full_index(index)]

    def _evaluate_all(self):
        return self[:]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)

    def _binary(op):
        def method(self, other):
            rhs = other._evaluate_all() if isinstance(other, Jacobian) else other
            return op(self._evaluate_all(), rhs)
        return method

    import operator as _op
    __add__ = _binary(_op.add)
    __sub__ = _binary(_op.sub)
    __mul__ = _binary(_op.mul)
    __truediv__ = _binary(_op.truediv)
    __floordiv__ = _binary(_op.floordiv)
    __mod__ = _binary(_op.mod)
    __pow__ = _binary(_op.pow)
    __matmul__ = _binary(_op.matmul)
    __eq__ = _binary(_op.eq)
    __ne__ = _binary(_op.ne)
    __lt__ = _binary(_op.lt)
    __le__ = _binary(_op.le)
    __gt__ = _binary(_op.gt)
    __ge__ = _binary(_op.ge)
    __hash__ = object.__hash__
    del _binary, _op


class Hessian(Jacobian):
    """The Hessian of a one-element ys (paddle.autograd.hessian's result)."""


def _check_batch_axis(batch_axis):
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"(InvalidArgument) batch_axis should be None or 0, but got "
                         f"{batch_axis}.")
    return batch_axis is not None


def jacobian(ys, xs, batch_axis=None):
    """paddle.autograd.jacobian: a lazily evaluated Jacobian (tuples of them for tuples)."""
    batched = _check_batch_axis(batch_axis)
    ys_many = not _is_tensor(ys) and isinstance(ys, Sequence)
    xs_many = not _is_tensor(xs) and isinstance(xs, Sequence)
    if ys_many and xs_many:
        return tuple(tuple(Jacobian(y, x, batched) for x in xs) for y in ys)
    if ys_many:
        return tuple(Jacobian(y, xs, batched) for y in ys)
    if xs_many:
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def hessian(ys, xs, batch_axis=None):
    """paddle.autograd.hessian: the Jacobian of jacobian(ys, xs) for a one-element ys
    ([B] or [B, 1] with batch_axis=0)."""
    batched = _check_batch_axis(batch_axis)
    if not _is_tensor(ys):
        raise TypeError(f"(InvalidType) hessian: ys must be a Tensor, got {type(ys).__name__}.")
    if not batched:
        if ys.numel() != 1:
            raise ValueError(f"(InvalidArgument) hessian: ys must hold one element when "
                             f"batch_axis is None, got shape {list(ys.shape)}.")
        ys = ys.reshape([])
    else:
        if len(ys.shape) == 0 or ys[0].numel() != 1:
            raise ValueError(f"(InvalidArgument) hessian: ys must be [B] or [B, 1] with "
                             f"batch_axis=0, got shape {list(ys.shape)}.")
        ys = ys.reshape([-1])

    def second(first, wrt):
        h = Jacobian(first[:], wrt, batched)
        h.__class__ = Hessian
        return h

    if _is_tensor(xs):
        return second(Jacobian(ys, xs, batched), xs)
    firsts = [Jacobian(ys, x, batched) for x in xs]
    return tuple(tuple(second(f, x) for x in xs) for f in firsts)


# ---------------------------------------------------------------- paddle.incubate.autograd

def _separate(xs):
    """Fresh leaves equal to xs (requiring grad), so func's graph starts at them."""
    if xs is None:
        return None
    if _is_tensor(xs):
        out = xs.detach()
        out.stop_gradient = False
        return out
    return tuple(_separate(x) for x in xs)


def _check_func_inputs(op, func, xs, v):
    if not callable(func):
        raise TypeError(f"(InvalidType) {op}: func must be callable, got {type(func).__name__}.")
    for name, value in (("xs", xs), ("v", v)):
        if value is None and name == "v":
            continue
        items = [value] if _is_tensor(value) else value
        if not isinstance(items, Sequence) or not all(_is_tensor(t) for t in items):
            raise TypeError(f"(InvalidType) {op}: {name} must be a Tensor or a sequence of "
                            f"Tensors, got {type(value).__name__}.")


def _check_like(op, v, like, what):
    if v is None:
        return
    vs = [v] if _is_tensor(v) else list(v)
    ls = [like] if _is_tensor(like) else list(like)
    if len(vs) != len(ls) or any(list(a.shape) != list(b.shape) for a, b in zip(vs, ls)):
        raise ValueError(f"(InvalidArgument) {op}: v must match the shapes of {what} "
                         f"{[list(t.shape) for t in ls]}, got {[list(t.shape) for t in vs]}.")


def _call(func, xs):
    return func(*xs) if not _is_tensor(xs) else func(xs)


def vjp(func, xs, v=None):
    """Vector-Jacobian product: (func(xs), v^T J); v defaults to ones like the output."""
    _check_func_inputs("vjp", func, xs, v)
    xs, v = _separate(xs), _separate(v)
    ys = _call(func, xs)
    _check_like("vjp", v, ys, "func's output")
    return ys, _grad_or_zeros(ys, xs, v)


def jvp(func, xs, v=None):
    """Jacobian-vector product: (func(xs), J v) by the double-backward trick (the vjp is linear
    in its cotangent u, so differentiating it with respect to u gives J v)."""
    _check_func_inputs("jvp", func, xs, v)
    xs, v = _separate(xs), _separate(v)
    ys = _call(func, xs)
    _check_like("jvp", v, xs, "xs")
    paddle = _paddle()
    ys_list = [ys] if _is_tensor(ys) else list(ys)
    u = []
    for y in ys_list:
        t = paddle.zeros_like(y)
        t.stop_gradient = False
        u.append(t)
    xs_grad = _grad_or_zeros(ys_list, xs, u)
    jv = _grad_or_zeros(list(xs_grad) if not _is_tensor(xs_grad) else xs_grad, u, v)
    return ys, (jv[0] if _is_tensor(ys) else tuple(jv))


class _FunctionJacobian:
    """Shared part of incubate.autograd.Jacobian/Hessian: all inputs and outputs flattened
    and concatenated (batch axis kept), shape [M, N] or [B, M, N]."""

    def __init__(self, func, xs, is_batched):
        self._xs = _separate(xs)
        ys = _call(func, self._xs)
        self._jac = _LazyJacobian(ys, self._xs, is_batched)

    @property
    def shape(self):
        return list(self._jac.inner_shape)

    def __getitem__(self, index):
        return self._jac[index]


class IncubateJacobian(_FunctionJacobian):
    """paddle.incubate.autograd.Jacobian(func, xs, is_batched=False)."""

    def __init__(self, func, xs, is_batched=False):
        _check_func_inputs("Jacobian", func, xs, None)
        super().__init__(func, xs, is_batched)


class IncubateHessian(_FunctionJacobian):
    """paddle.incubate.autograd.Hessian(func, xs, is_batched=False): func returns one element
    ([1] or [B, 1] batched)."""

    def __init__(self, func, xs, is_batched=False):
        _check_func_inputs("Hessian", func, xs, None)

        def gradient_row(*inner):
            jac = _FunctionJacobianOf(func, inner, is_batched)
            rows = jac.shape[1] if is_batched else jac.shape[0]
            if rows != 1:
                raise RuntimeError("(InvalidArgument) Hessian: func must return a single "
                                   f"element (batched: [B, 1]), got {rows} outputs.")
            return jac[:, 0, :] if is_batched else jac[0, :]

        super().__init__(gradient_row, xs, is_batched)


class _FunctionJacobianOf(_FunctionJacobian):
    """A Jacobian of func at xs as they are (no separation: the outer Hessian's leaves)."""

    def __init__(self, func, xs, is_batched):
        xs = xs[0] if len(xs) == 1 else tuple(xs)
        self._xs = xs
        self._jac = _LazyJacobian(_call(func, xs), xs, is_batched)


del _C
