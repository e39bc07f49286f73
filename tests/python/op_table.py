"""The table of every bound op for the Python tests: sample inputs, a numpy reference and, where
one exists, the PyTorch equivalent. test_ops.py checks every entry forward (numpy, torch) and
backward (float64 finite differences, torch autograd); EXCLUDED names the ops tested elsewhere.
"""
import numpy as np

try:
    import torch
    import torch.nn.functional as TF
except ImportError:  # the torch comparisons are skipped
    torch = None
    TF = None


class In:
    """A sample input: shape and kind (float, pos, unit, prob, int, bool, idx:<n>, sorted)."""

    def __init__(self, shape, kind="float", dtype=None):
        self.shape, self.kind, self.dtype = tuple(shape), kind, dtype

    def make(self, rng):
        k = self.kind
        if k == "float":
            return rng.standard_normal(self.shape)
        if k == "pos":
            return rng.uniform(0.5, 2.0, self.shape)
        if k == "unit":
            return rng.uniform(-0.8, 0.8, self.shape)
        if k == "prob":  # inside (0, 1)
            return rng.uniform(0.05, 0.95, self.shape)
        if k == "int":
            return rng.integers(-5, 6, self.shape).astype(self.dtype or np.int64)
        if k == "nonzero_int":
            v = rng.integers(1, 6, self.shape) * rng.choice([-1, 1], self.shape)
            return v.astype(np.int64)
        if k == "bool":
            return rng.random(self.shape) > 0.5
        if k.startswith("idx:"):
            return rng.integers(0, int(k[4:]), self.shape).astype(np.int64)
        if k.startswith("perm:"):  # distinct indices < n
            n = int(k[5:])
            return rng.permutation(n)[: int(np.prod(self.shape))].reshape(self.shape).astype(np.int64)
        if k == "distinct":  # well separated floats (sort/topk/max grads are well defined)
            n = int(np.prod(self.shape))
            return (rng.permutation(n) * 0.37 + 0.1).reshape(self.shape)
        raise ValueError(k)


def F(*shape):
    return In(shape)


class Case:
    def __init__(self, op, inputs, np_fn=None, torch_fn=None, call=None, grad=True, atol=1e-6,
                 fd=True):
        self.op, self.inputs, self.np_fn, self.torch_fn = op, inputs, np_fn, torch_fn
        self.call = call  # (ops, *tensors) -> result; default ops.<op>(*tensors)
        self.grad, self.atol, self.fd = grad, atol, fd

    def __repr__(self):
        return self.op


def _t(f):
    """A torch reference, or None when torch is missing."""
    return f if torch is not None else None


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _erf(x):
    from math import erf
    return np.vectorize(erf)(x)


def _gelu(x):
    return 0.5 * x * (1 + _erf(x / np.sqrt(2)))


def _rope_angles():
    """[1, seq 3, 1, head_dim 4] angles s * 100^(-2 (j mod 2) / 4) of fused_rope's case."""
    return (np.arange(3)[:, None] * 100.0 ** (-(np.arange(4) % 2) / 2.0))[None, :, None, :]


def _rope_half(x):
    return np.concatenate([-x[..., 2:], x[..., :2]], -1)


def _np_put_along(a, i, v, axis):
    out = a.copy()
    np.put_along_axis(out, i, v, axis)
    return out


def _np_shift_left(x, y):
    """Paddle's left shift: 0 for shifts outside [0, bit width)."""
    bits = x.dtype.itemsize * 8
    ok = (y >= 0) & (y < bits)
    return np.where(ok, np.left_shift(x, np.where(ok, y, 0)), 0).astype(x.dtype)


def _np_shift_right(x, y):
    """Paddle's arithmetic right shift: the sign fill for shifts outside [0, bit width)."""
    bits = x.dtype.itemsize * 8
    ok = (y >= 0) & (y < bits)
    return np.where(ok, np.right_shift(x, np.where(ok, y, 0)), np.where(x < 0, -1, 0)).astype(x.dtype)


def _np_scatter(x, idx, upd):
    out = x.copy()
    out[idx] = upd
    return out


def _np_index_add(x, idx, v):
    out = x.copy()
    np.add.at(out, idx, v)
    return out


def _np_scatter_nd_add(x, idx, upd):
    out = x.copy()
    for k in range(idx.shape[0]):
        out[tuple(idx[k])] += upd[k]
    return out


U = lambda name, np_fn, th, kind="float": Case(name, [In((3, 4), kind)], np_fn, _t(th))  # noqa: E731
B = lambda name, np_fn, th: Case(name, [F(3, 4), F(4)], np_fn, _t(th))  # noqa: E731

CASES = [
    # unary math
    U("abs", np.abs, lambda x: x.abs()),
    U("neg", np.negative, lambda x: -x),
    U("sign", np.sign, lambda x: x.sign()),
    U("square", np.square, lambda x: x * x),
    U("exp", np.exp, lambda x: x.exp()),
    U("expm1", np.expm1, lambda x: x.expm1()),
    U("log", np.log, lambda x: x.log(), "pos"),
    U("log1p", np.log1p, lambda x: x.log1p(), "pos"),
    U("log2", np.log2, lambda x: x.log2(), "pos"),
    U("sqrt", np.sqrt, lambda x: x.sqrt(), "pos"),
    U("rsqrt", lambda x: 1 / np.sqrt(x), lambda x: x.rsqrt(), "pos"),
    U("reciprocal", lambda x: 1 / x, lambda x: x.reciprocal(), "pos"),
    U("sin", np.sin, lambda x: x.sin()),
    U("cos", np.cos, lambda x: x.cos()),
    U("tan", np.tan, lambda x: x.tan(), "unit"),
    U("tanh", np.tanh, lambda x: x.tanh()),
    U("asin", np.arcsin, lambda x: x.asin(), "unit"),
    U("acos", np.arccos, lambda x: x.acos(), "unit"),
    U("atan", np.arctan, lambda x: x.atan()),
    U("sinh", np.sinh, lambda x: x.sinh()),
    U("cosh", np.cosh, lambda x: x.cosh()),
    U("erf", _erf, lambda x: x.erf()),
    U("floor", np.floor, lambda x: x.floor()),
    U("ceil", np.ceil, lambda x: x.ceil()),
    U("trunc", np.trunc, lambda x: x.trunc()),
    Case("round", [F(3, 4)], np.round, _t(lambda x: x.round())),
    Case("isnan", [F(3, 4)], np.isnan, _t(torch.isnan) if torch else None),
    Case("isinf", [F(3, 4)], np.isinf, _t(torch.isinf) if torch else None),
    Case("isfinite", [F(3, 4)], np.isfinite, _t(torch.isfinite) if torch else None),
    Case("logical_not", [In((3, 4), "bool")], np.logical_not, _t(lambda x: ~x)),
    Case("bitwise_not", [In((3, 4), "int")], np.invert, _t(lambda x: ~x)),
    # activations
    U("relu", lambda x: np.maximum(x, 0), lambda x: x.relu()),
    U("relu6", lambda x: np.clip(x, 0, 6), lambda x: TF.relu6(x)),
    U("leaky_relu", lambda x: np.where(x > 0, x, 0.01 * x), lambda x: TF.leaky_relu(x, 0.01)),
    U("elu", lambda x: np.where(x > 0, x, np.expm1(x)), lambda x: TF.elu(x)),
    U("gelu", _gelu, lambda x: TF.gelu(x)),
    U("silu", lambda x: x / (1 + np.exp(-x)), lambda x: TF.silu(x)),
    U("sigmoid", lambda x: 1 / (1 + np.exp(-x)), lambda x: x.sigmoid()),
    U("softplus", lambda x: np.log1p(np.exp(x)), lambda x: TF.softplus(x)),
    U("hardswish", lambda x: x * np.clip(x + 3, 0, 6) / 6, lambda x: TF.hardswish(x)),
    U("hardsigmoid", lambda x: np.clip(x * 0.1666667 + 0.5, 0, 1), None),
    U("mish", lambda x: x * np.tanh(np.log1p(np.exp(x))), lambda x: TF.mish(x)),
    U("tanhshrink", lambda x: x - np.tanh(x), lambda x: TF.tanhshrink(x)),
    # binary
    B("add", np.add, torch.add if torch else None),
    B("subtract", np.subtract, torch.sub if torch else None),
    B("multiply", np.multiply, torch.mul if torch else None),
    Case("divide", [F(3, 4), In((4,), "pos")], np.divide, _t(lambda x, y: x / y)),
    Case("floor_divide", [In((3, 4), "int"), In((4,), "nonzero_int")], np.floor_divide,
         _t(lambda x, y: torch.div(x, y, rounding_mode="floor"))),
    Case("remainder", [In((3, 4), "int"), In((4,), "nonzero_int")], np.remainder,
         _t(torch.remainder) if torch else None),
    Case("pow", [In((3, 4), "pos")], lambda x: x ** 2.5, _t(lambda x: x ** 2.5),
         call=lambda o, x: o.pow(x, 2.5)),
    Case("elementwise_pow", [In((3, 4), "pos"), F(4)], np.power, _t(torch.pow) if torch else None),
    Case("maximum", [In((3, 4), "distinct"), F(4)], np.maximum, _t(torch.maximum) if torch else None),
    Case("minimum", [In((3, 4), "distinct"), F(4)], np.minimum, _t(torch.minimum) if torch else None),
    B("equal", np.equal, torch.eq if torch else None),
    B("not_equal", np.not_equal, torch.ne if torch else None),
    B("less_than", np.less, torch.lt if torch else None),
    B("less_equal", np.less_equal, torch.le if torch else None),
    B("greater_than", np.greater, torch.gt if torch else None),
    B("greater_equal", np.greater_equal, torch.ge if torch else None),
    Case("logical_and", [In((3, 4), "bool"), In((4,), "bool")], np.logical_and, None),
    Case("logical_or", [In((3, 4), "bool"), In((4,), "bool")], np.logical_or, None),
    Case("logical_xor", [In((3, 4), "bool"), In((4,), "bool")], np.logical_xor, None),
    Case("bitwise_and", [In((3, 4), "int"), In((4,), "int")], np.bitwise_and, None),
    Case("bitwise_or", [In((3, 4), "int"), In((4,), "int")], np.bitwise_or, None),
    Case("bitwise_xor", [In((3, 4), "int"), In((4,), "int")], np.bitwise_xor, None),
    Case("where", [In((3, 4), "bool"), F(3, 4), F(4)], np.where, _t(torch.where) if torch else None),
    Case("clip", [F(3, 4)], lambda x: np.clip(x, -0.5, 0.7), _t(lambda x: x.clamp(-0.5, 0.7)),
         call=lambda o, x: o.clip(x, -0.5, 0.7)),
    Case("lerp", [F(3, 4), F(3, 4), In((4,), "unit")], lambda x, y, w: x + w * (y - x),
         _t(torch.lerp) if torch else None),
    Case("assign", [F(3, 4)], lambda x: x.copy(), _t(lambda x: x.clone())),
    Case("scale", [F(3, 4)], lambda x: 2.0 * x + 0.5, _t(lambda x: 2.0 * x + 0.5),
         call=lambda o, x: o.scale(x, 2.0, 0.5)),
    Case("cast", [F(3, 4)], lambda x: x.astype(np.float32).astype(np.float64),
         _t(lambda x: x.float().double()), call=lambda o, x: o.cast(o.cast(x, "float32"), "float64"),
         fd=False, atol=1e-7),
    # reductions
    Case("sum", [F(3, 4)], lambda x: x.sum(1), _t(lambda x: x.sum(1)), call=lambda o, x: o.sum(x, 1)),
    Case("mean", [F(3, 4)], lambda x: x.mean(0, keepdims=True), _t(lambda x: x.mean(0, keepdim=True)),
         call=lambda o, x: o.mean(x, [0], True)),
    Case("prod", [In((3, 4), "pos")], lambda x: x.prod(1), _t(lambda x: x.prod(1)),
         call=lambda o, x: o.prod(x, 1)),
    Case("max", [In((3, 4), "distinct")], lambda x: x.max(1), _t(lambda x: x.max(1)[0]),
         call=lambda o, x: o.max(x, 1)),
    Case("min", [In((3, 4), "distinct")], lambda x: x.min(), _t(lambda x: x.min()),
         call=lambda o, x: o.min(x)),
    Case("amax", [In((3, 4), "distinct")], lambda x: x.max(0), _t(lambda x: x.amax(0)),
         call=lambda o, x: o.amax(x, 0)),
    Case("amin", [In((3, 4), "distinct")], lambda x: x.min(0), _t(lambda x: x.amin(0)),
         call=lambda o, x: o.amin(x, 0)),
    Case("all", [In((3, 4), "bool")], lambda x: x.all(1), None, call=lambda o, x: o.all(x, 1)),
    Case("any", [In((3, 4), "bool")], lambda x: x.any(0), None, call=lambda o, x: o.any(x, 0)),
    Case("logsumexp", [F(3, 4)], lambda x: np.log(np.exp(x).sum(1)),
         _t(lambda x: x.logsumexp(1)), call=lambda o, x: o.logsumexp(x, 1)),
    Case("var", [F(3, 4)], lambda x: x.var(1, ddof=1), _t(lambda x: x.var(1)),
         call=lambda o, x: o.var(x, 1)),
    Case("std", [F(3, 4)], lambda x: x.std(0, ddof=0), _t(lambda x: x.std(0, unbiased=False)),
         call=lambda o, x: o.std(x, 0, False)),
    Case("p_norm", [F(3, 4)], lambda x: np.linalg.norm(x, 2, axis=1),
         _t(lambda x: x.norm(2, 1)), call=lambda o, x: o.p_norm(x, 2.0, 1)),
    Case("argmax", [In((3, 4), "distinct")], lambda x: x.argmax(1), _t(lambda x: x.argmax(1)),
         call=lambda o, x: o.argmax(x, 1)),
    Case("argmin", [In((3, 4), "distinct")], lambda x: x.argmin(0), _t(lambda x: x.argmin(0)),
         call=lambda o, x: o.argmin(x, 0)),
    Case("cumsum", [F(3, 4)], lambda x: x.cumsum(1), _t(lambda x: x.cumsum(1)),
         call=lambda o, x: o.cumsum(x, 1)),
    Case("cumprod", [In((3, 4), "pos")], lambda x: x.cumprod(0), _t(lambda x: x.cumprod(0)),
         call=lambda o, x: o.cumprod(x, 0)),
    Case("reduce_as", [F(3, 4), F(1, 4)], lambda x, t: x.sum(0, keepdims=True), None),
    # linear algebra
    Case("matmul", [F(3, 4), F(4, 5)], np.matmul, _t(torch.matmul) if torch else None),
    Case("bmm", [F(2, 3, 4), F(2, 4, 5)], np.matmul, _t(torch.bmm) if torch else None),
    Case("dot", [F(4), F(4)], np.dot, _t(torch.dot) if torch else None),
    Case("outer", [F(3), F(4)], np.outer, _t(torch.outer) if torch else None),
    Case("addmm", [F(3, 5), F(3, 4), F(4, 5)], lambda i, x, y: 0.5 * i + 2.0 * x @ y,
         _t(lambda i, x, y: torch.addmm(i, x, y, beta=0.5, alpha=2.0)),
         call=lambda o, i, x, y: o.addmm(i, x, y, 0.5, 2.0)),
    Case("linear", [F(3, 4), F(4, 5), F(5)], lambda x, w, b: x @ w + b,
         _t(lambda x, w, b: TF.linear(x, w.t(), b))),
    # shapes and views
    Case("reshape", [F(3, 4)], lambda x: x.reshape(2, 6), _t(lambda x: x.reshape(2, 6)),
         call=lambda o, x: o.reshape(x, [2, -1])),
    Case("flatten", [F(2, 3, 4)], lambda x: x.reshape(2, 12), _t(lambda x: x.flatten(1)),
         call=lambda o, x: o.flatten(x, 1)),
    Case("transpose", [F(2, 3, 4)], lambda x: x.transpose(2, 0, 1),
         _t(lambda x: x.permute(2, 0, 1)), call=lambda o, x: o.transpose(x, [2, 0, 1])),
    Case("squeeze", [F(3, 1, 4)], lambda x: x.squeeze(1), _t(lambda x: x.squeeze(1)),
         call=lambda o, x: o.squeeze(x, 1)),
    Case("unsqueeze", [F(3, 4)], lambda x: x[:, None], _t(lambda x: x.unsqueeze(1)),
         call=lambda o, x: o.unsqueeze(x, 1)),
    Case("expand", [F(3, 1)], lambda x: np.broadcast_to(x, (2, 3, 4)),
         _t(lambda x: x.expand(2, 3, 4)), call=lambda o, x: o.expand(x, [2, 3, 4])),
    Case("broadcast_to", [F(1, 4)], lambda x: np.broadcast_to(x, (3, 4)),
         _t(lambda x: x.expand(3, 4)), call=lambda o, x: o.broadcast_to(x, [3, 4])),
    Case("slice", [F(4, 5)], lambda x: x[1:3, 2], None,
         call=lambda o, x: o.slice(x, [0, 1], [1, 2], [3, 3], [1])),
    Case("strided_slice", [F(5, 6)], lambda x: x[4:0:-2, 1::2], None,
         call=lambda o, x: o.strided_slice(x, [0, 1], [4, 1], [0, 6], [-2, 2])),
    Case("diagonal", [F(3, 4)], lambda x: np.diagonal(x, 1), _t(lambda x: x.diagonal(1)),
         call=lambda o, x: o.diagonal(x, 1)),
    Case("split", [F(5, 3)], lambda x: np.split(x, [2]), _t(lambda x: x.split([2, 3])),
         call=lambda o, x: o.split(x, [2, 3])),
    Case("split_with_num", [F(6, 3)], lambda x: np.split(x, 3), _t(lambda x: x.chunk(3)),
         call=lambda o, x: o.split_with_num(x, 3)),
    Case("chunk", [F(3, 4)], lambda x: np.split(x, 2, 1), _t(lambda x: x.chunk(2, 1)),
         call=lambda o, x: o.chunk(x, 2, 1)),
    Case("unbind", [F(3, 4)], lambda x: list(x), _t(lambda x: x.unbind(0))),
    Case("concat", [F(2, 4), F(3, 4)], lambda a, b: np.concatenate([a, b]),
         _t(lambda a, b: torch.cat([a, b])), call=lambda o, a, b: o.concat([a, b])),
    Case("stack", [F(3, 4), F(3, 4)], lambda a, b: np.stack([a, b], 1),
         _t(lambda a, b: torch.stack([a, b], 1)), call=lambda o, a, b: o.stack([a, b], 1)),
    Case("tile", [F(2, 3)], lambda x: np.tile(x, (2, 1)), _t(lambda x: x.repeat(2, 1)),
         call=lambda o, x: o.tile(x, [2, 1])),
    Case("flip", [F(3, 4)], lambda x: x[::-1, ::-1], _t(lambda x: x.flip([0, 1])),
         call=lambda o, x: o.flip(x, [0, 1])),
    Case("roll", [F(3, 4)], lambda x: np.roll(x, 1, 1), _t(lambda x: x.roll(1, 1)),
         call=lambda o, x: o.roll(x, [1], [1])),
    Case("pad", [F(2, 3)], lambda x: np.pad(x, ((1, 0), (0, 2))), None,
         call=lambda o, x: o.pad(x, [1, 0, 0, 2])),
    Case("tril", [F(3, 4)], np.tril, _t(torch.tril) if torch else None),
    Case("triu", [F(3, 4)], lambda x: np.triu(x, 1), _t(lambda x: x.triu(1)),
         call=lambda o, x: o.triu(x, 1)),
    Case("repeat_interleave", [F(2, 3)], lambda x: np.repeat(x, 2, 1),
         _t(lambda x: x.repeat_interleave(2, 1)), call=lambda o, x: o.repeat_interleave(x, 2, 1)),
    Case("repeat_interleave_with_tensor_index", [F(3, 2)],
         lambda x: np.repeat(x, [1, 0, 2], 0), None,
         call=lambda o, x: o.repeat_interleave_with_tensor_index(
             x, o.cast(o.concat([o.full([1], 1, "int64"), o.full([1], 0, "int64"),
                                 o.full([1], 2, "int64")]), "int64"), 0)),
    # indexing
    Case("gather", [F(4, 3), In((5,), "idx:4")], lambda x, i: x[i], None),
    Case("gather_nd", [F(4, 3), In((2, 2), "idx:3")], lambda x, i: x[i[:, 0], i[:, 1]], None),
    Case("index_select", [F(3, 4), In((5,), "idx:4")], lambda x, i: x[:, i],
         _t(lambda x, i: x.index_select(1, i)), call=lambda o, x, i: o.index_select(x, i, 1)),
    Case("take_along_axis", [F(3, 4), In((3, 2), "idx:4")],
         lambda a, i: np.take_along_axis(a, i, 1), _t(lambda a, i: a.gather(1, i)),
         call=lambda o, a, i: o.take_along_axis(a, i, 1)),
    Case("scatter", [F(4, 3), In((2,), "perm:4"), F(2, 3)], _np_scatter, None),
    Case("scatter_nd_add", [F(4, 3), In((3, 1), "idx:4"), F(3, 3)], _np_scatter_nd_add, None),
    Case("index_add", [F(4, 3), In((5,), "idx:4"), F(5, 3)], _np_index_add, None,
         call=lambda o, x, i, v: o.index_add(x, i, 0, v)),
    Case("put_along_axis", [F(3, 4), In((3, 1), "perm:4"), F(3, 1)], lambda a, i, v: _np_put_along(a, i, v, 1),
         None, call=lambda o, a, i, v: o.put_along_axis(a, i, v, 1)),
    Case("masked_fill", [F(3, 4), In((3, 4), "bool")], lambda x, m: np.where(m, 0.5, x),
         _t(lambda x, m: x.masked_fill(m, 0.5)), call=lambda o, x, m: o.masked_fill(x, m, 0.5)),
    Case("masked_select", [F(3, 4), In((3, 4), "bool")], lambda x, m: x[m],
         _t(torch.masked_select) if torch else None),
    Case("nonzero", [In((3, 4), "bool")], lambda x: np.argwhere(x), _t(torch.nonzero) if torch else None),
    Case("topk", [In((3, 5), "distinct")],
         lambda x: (-np.sort(-x, 1)[:, :2], np.argsort(-x, 1)[:, :2]),
         _t(lambda x: tuple(x.topk(2, 1))), call=lambda o, x: o.topk(x, 2, 1)),
    Case("sort", [In((3, 5), "distinct")], lambda x: np.sort(x, 1), _t(lambda x: x.sort(1)[0]),
         call=lambda o, x: o.sort(x, 1)),
    Case("argsort", [In((3, 5), "distinct")], lambda x: (np.sort(x, 1), np.argsort(x, 1)),
         _t(lambda x: tuple(x.sort(1))), call=lambda o, x: o.argsort(x, 1)),
    Case("unique", [In((8,), "idx:4")], lambda x: tuple(np.unique(x, True, True, True)), None,
         call=lambda o, x: o.unique(x, True, True, True)),
    # nn
    Case("softmax", [F(3, 4)], _softmax, _t(lambda x: x.softmax(-1))),
    Case("log_softmax", [F(3, 4)], lambda x: np.log(_softmax(x)), _t(lambda x: x.log_softmax(-1))),
    Case("layer_norm", [F(3, 4), F(4), F(4)],
         lambda x, w, b: (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5) * w + b,
         _t(lambda x, w, b: TF.layer_norm(x, [4], w, b, 1e-5)),
         call=lambda o, x, w, b: o.layer_norm(x, w, b)[0]),
    Case("rms_norm", [F(3, 4), F(4)],
         lambda x, w: x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * w, None,
         call=lambda o, x, w: o.rms_norm(x, w)[0]),
    # Rotate-half with the angles computed from base 100 (tables and both styles:
    # test_fused_rope.py).
    Case("fused_rope", [F(2, 3, 2, 4)],
         lambda x: x * np.cos(_rope_angles()) + _rope_half(x) * np.sin(_rope_angles()),
         _t(lambda x: x * torch.cos(torch.tensor(_rope_angles(), dtype=x.dtype))
            + torch.cat([-x[..., 2:], x[..., :2]], -1)
            * torch.sin(torch.tensor(_rope_angles(), dtype=x.dtype))),
         call=lambda o, x: o.fused_rope(x, None, None, None, False, False, 100.0, False)),
    Case("batch_norm", [F(4, 3, 2), F(3), In((3,), "pos"), F(3), F(3)],
         lambda x, m, v, w, b: ((x - x.mean((0, 2), keepdims=True))
                                / np.sqrt(x.var((0, 2), keepdims=True) + 1e-5)
                                * w[:, None] + b[:, None]),
         _t(lambda x, m, v, w, b: TF.batch_norm(x, m.detach().clone(), v.detach().clone(), w, b,
                                                True, 0.1, 1e-5)),
         call=lambda o, x, m, v, w, b: o.batch_norm(x, m, v, w, b)[0]),
    Case("batch_norm", [F(4, 2, 3), F(3), In((3,), "pos"), F(3), F(3)],  # eval, NLC
         lambda x, m, v, w, b: (x - m) / np.sqrt(v + 1e-5) * w + b,
         _t(lambda x, m, v, w, b: TF.batch_norm(x.transpose(1, 2), m.detach(), v.detach(), w, b,
                                                False, 0.1, 1e-5).transpose(1, 2)),
         call=lambda o, x, m, v, w, b: o.batch_norm(x, m, v, w, b, True, 0.9, 1e-5, "NLC")[0]),
    Case("embedding", [In((2, 3), "idx:5"), F(5, 4)], lambda i, w: w[i],
         _t(TF.embedding) if TF else None),
    Case("one_hot", [In((2, 3), "idx:5")], lambda i: np.eye(5)[i].astype(np.float32), None,
         call=lambda o, i: o.one_hot(i, 5)),
    Case("cross_entropy_with_softmax", [F(3, 5), In((3, 1), "idx:5")],
         lambda x, y: -np.log(_softmax(x))[np.arange(3), y[:, 0]][:, None], None,
         call=lambda o, x, y: o.cross_entropy_with_softmax(x, y)[1]),
    Case("dropout", [F(3, 4)], lambda x: x, None,
         call=lambda o, x: o.dropout(x, 0.5, True)[0]),
    Case("conv2d", [F(1, 2, 5, 5), F(3, 2, 3, 3)], None,
         _t(lambda x, w: TF.conv2d(x, w, padding=1)),
         call=lambda o, x, w: o.conv2d(x, w, [1, 1], [1, 1])),
    Case("pool2d", [F(1, 2, 4, 4)], lambda x: x.reshape(1, 2, 2, 2, 2, 2).max((3, 5)),
         _t(lambda x: TF.max_pool2d(x, 2)), call=lambda o, x: o.pool2d(x, [2, 2], [2, 2])),
    # In-place initializers: the out-of-place form is the reference of the in-place one; an
    # explicit seed makes both draw the same numbers.
    Case("fill", [F(3, 4)], lambda x: np.full_like(x, 2.5), call=lambda o, x: o.fill(x, 2.5),
         grad=False),
    Case("uniform_inplace", [F(3, 4)], None, call=lambda o, x: o.uniform_inplace(x, -2.0, 3.0, 7),
         grad=False),
    Case("gaussian_inplace", [F(3, 4)], None,
         call=lambda o, x: o.gaussian_inplace(x, 1.0, 2.0, 7), grad=False),
    # math_functions.yaml (more in test_math_functions.py)
    U("frac", lambda x: x - np.trunc(x), lambda x: x.frac()),
    Case("logit", [In((3, 4), "prob")], lambda x: np.log(x / (1 - x)), _t(lambda x: x.logit())),
    Case("heaviside", [F(3, 4), F(4)], np.heaviside, None),
    Case("gcd", [In((3, 4), "int"), In((4,), "int")], np.gcd, _t(lambda x, y: x.gcd(y)),
         grad=False),
    Case("lcm", [In((3, 4), "int"), In((4,), "int")], np.lcm, _t(lambda x, y: x.lcm(y)),
         grad=False),
    Case("as_strided", [F(3, 4)], lambda x: x.ravel()[[[1, 3], [2, 4]]],
         _t(lambda x: x.as_strided((2, 2), (1, 2), 1)),
         call=lambda o, x: o.as_strided(x, [2, 2], [1, 2], 1)),
    Case("bitwise_left_shift", [In((3, 4), "int"), In((4,), "int")], _np_shift_left, None,
         grad=False),
    Case("bitwise_right_shift", [In((3, 4), "int"), In((4,), "int")], _np_shift_right, None,
         grad=False),
    # special.yaml (negative arguments, tails and Paddle's checks in test_special_functions.py)
    U("lgamma", None, lambda x: x.lgamma(), "pos"),
    U("digamma", None, lambda x: x.digamma(), "pos"),
    Case("polygamma", [In((3, 4), "pos")], None, _t(lambda x: torch.polygamma(2, x)),
         call=lambda o, x: o.polygamma(x, 2)),
    U("erfinv", None, lambda x: x.erfinv(), "unit"),
    U("i0", None, lambda x: torch.special.i0(x)),
    U("i0e", None, lambda x: torch.special.i0e(x)),
    U("i1", None, lambda x: torch.special.i1(x)),
    U("i1e", None, lambda x: torch.special.i1e(x)),
    Case("gammaincc", [In((3, 4), "pos"), In((4,), "pos")], None,
         _t(lambda x, y: torch.special.gammaincc(x.detach(), y))),  # no gradient in x (Paddle)
    Case("nextafter", [F(3, 4), F(4)], np.nextafter, _t(lambda x, y: torch.nextafter(x, y)),
         grad=False),
]

# Ops covered by dedicated tests: creation and random ops (test_creation.py); the fused
# optimizer updates (optimizer.yaml) by the optimizer tests against numpy formulas.
EXCLUDED = {
    "full", "full_like", "zeros", "ones", "zeros_like", "ones_like", "arange", "linspace", "eye",
    "uniform", "gaussian", "randint", "randperm",
    "fused_sgd_", "fused_momentum_", "fused_adam_", "fused_adamw_",
    # Backward ops: the C++ consistency and gradient checks, and conv2d/pool2d's backward here.
    "conv2d_grad", "pool2d_grad", "batch_norm_grad", "relu_grad",
    # Detection ops (boxes, per-image counts): test_vision_ops.py, and the C++ op database.
    "roi_align", "roi_align_grad", "roi_pool", "roi_pool_grad", "nms", "box_coder",
    # Fused attention: test_flash_attention.py, and the C++ op database.
    "flash_attn", "flash_attn_grad",
    # LAPACK ops (they need well-posed inputs: invertible, positive definite, symmetric):
    # test_linalg_lapack.py (numpy forward, torch gradients), and the C++ op database.
    "inverse", "det", "slogdet", "solve", "triangular_solve", "cholesky", "cholesky_solve", "lu",
    "qr", "svd", "eigh", "eig", "lstsq", "householder_product", "ormqr",
    # Statistics ops (running extremes, mode, search, poisson): test_stat_functions.py (numpy and
    # torch forward, torch gradients, seeded statistics), and the C++ op database.
    "cummax", "cummin", "logcumsumexp", "mode", "searchsorted", "poisson",
    # Weight-only and LLM.int8 quantization (int8 layouts): test_quant.py, test_llm_int8.py and
    # the C++ op database.
    "weight_quantize", "weight_dequantize", "weight_only_linear", "weight_only_linear_grad",
    "llm_int8_linear",
    # Complex inputs or results (this table's cases are real): test_complex.py and test_fft.py
    # (numpy forward, torch gradients), and the C++ op database.
    "real", "imag", "conj", "complex", "as_complex", "as_real", "angle", "fft_c2c", "fft_r2c",
    "fft_c2r",
}


def make_inputs(case, seed=0):
    """The case's sample inputs as numpy arrays."""
    rng = np.random.default_rng(seed)
    return [i.make(rng) for i in case.inputs]


def run_case(ops, case, tensors):
    """The case's op (or its call) on `tensors`."""
    return case.call(ops, *tensors) if case.call else getattr(ops, case.op)(*tensors)


def flat(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]
