"""The composite top-level functions (Paddle signatures over several ops) against numpy, and
the Paddle-style argument handling of the direct ones (axis=None, ints for lists, name=)."""
import numpy as np
import pytest

import skiff

R = np.random.default_rng(0)
A = R.standard_normal((3, 4))
X = skiff.to_tensor(A)


def close(t, want):
    got = [u.numpy() for u in t] if isinstance(t, (list, tuple)) else t.numpy()
    if isinstance(got, list):
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-9)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9)


CASES = [
    ("argmax None", lambda: skiff.argmax(X), A.argmax()),
    ("argmax keepdim", lambda: skiff.argmax(X, axis=1, keepdim=True), A.argmax(1)[:, None]),
    ("argmin", lambda: skiff.argmin(X, axis=0), A.argmin(0)),
    ("argsort desc", lambda: skiff.argsort(X, axis=1, descending=True), np.argsort(-A, 1)),
    ("cumsum None", lambda: skiff.cumsum(X), A.cumsum()),
    ("cumsum dtype", lambda: skiff.cumsum(skiff.to_tensor([1, 2]), dtype="float64"), [1.0, 3.0]),
    ("cumprod", lambda: skiff.cumprod(X, dim=1), A.cumprod(1)),
    ("sum axis list", lambda: skiff.sum(X, axis=[0, 1]), A.sum()),
    ("sum axis tuple keepdim", lambda: skiff.sum(X, axis=(1,), keepdim=True), A.sum(1, keepdims=True)),
    ("mean name", lambda: skiff.mean(X, name="m"), A.mean()),
    ("max axis", lambda: skiff.max(X, axis=-1), A.max(-1)),
    ("split -1", lambda: skiff.split(X, [1, -1], axis=1), np.split(A, [1], 1)),
    ("split num", lambda: skiff.split(X, 2, axis=1), np.split(A, 2, 1)),
    ("tensor_split", lambda: skiff.tensor_split(X, [1, 3], axis=1), np.split(A, [1, 3], 1)),
    ("where 1-arg", lambda: skiff.where(X > 0), np.nonzero(A > 0)),
    ("where scalar", lambda: skiff.where(X > 0, X, 0.0), np.where(A > 0, A, 0.0)),
    ("nonzero tuple", lambda: skiff.nonzero(X > 0, as_tuple=True), np.nonzero(A > 0)),
    ("clip", lambda: skiff.clip(X, -0.5, 0.5), np.clip(A, -0.5, 0.5)),
    ("clip min only", lambda: skiff.clip(X, min=0.1), np.maximum(A, 0.1)),
    ("pow scalar", lambda: skiff.pow(skiff.abs(X), 1.5), np.abs(A) ** 1.5),
    ("pow tensor", lambda: skiff.pow(skiff.abs(X), skiff.to_tensor(2.0, "float64")), np.abs(A) ** 2),
    ("scale act", lambda: skiff.scale(X, 2.0, 1.0, act="relu"), np.maximum(2 * A + 1, 0)),
    ("log10", lambda: skiff.log10(skiff.abs(X)), np.log10(np.abs(A))),
    ("isclose", lambda: skiff.isclose(X, X + 1e-9), np.ones((3, 4), bool)),
    ("allclose", lambda: skiff.allclose(X, X * 2), False),
    ("equal_all", lambda: skiff.equal_all(X, X), True),
    ("count_nonzero", lambda: skiff.count_nonzero(X > 0, axis=1), (A > 0).sum(1)),
    ("t", lambda: skiff.t(X), A.T),
    ("mm", lambda: skiff.mm(X, skiff.t(X)), A @ A.T),
    ("moveaxis", lambda: skiff.moveaxis(skiff.to_tensor(np.zeros((2, 3, 4))), 0, -1).shape, [3, 4, 2]),
    ("expand_as", lambda: skiff.expand_as(skiff.to_tensor(A[:1]), X), np.broadcast_to(A[:1], (3, 4))),
    ("broadcast_tensors", lambda: skiff.broadcast_tensors([X, skiff.to_tensor(A[0])]),
     [A, np.broadcast_to(A[0], (3, 4))]),
    ("broadcast_shape", lambda: skiff.broadcast_shape([3, 1], [4]), [3, 4]),
    ("take_along_axis bcast", lambda: skiff.take_along_axis(X, skiff.to_tensor([[0], [1], [2]]), 1),
     np.take_along_axis(A, np.array([[0], [1], [2]]), 1)),
    ("put_along_axis scalar", lambda: skiff.put_along_axis(X, skiff.to_tensor([[0], [1], [2]]), 9.0, 1),
     (lambda o: (np.put_along_axis(o, np.array([[0], [1], [2]]), 9.0, 1), o)[1])(A.copy())),
    ("repeat_interleave None", lambda: skiff.repeat_interleave(X, 2), np.repeat(A, 2)),
    ("repeat_interleave tensor", lambda: skiff.repeat_interleave(X, skiff.to_tensor([1, 2, 0]), 0),
     np.repeat(A, [1, 2, 0], 0)),
    ("unique flags", lambda: skiff.unique(skiff.to_tensor([3, 1, 3, 2]), return_counts=True),
     (np.array([1, 2, 3]), np.array([1, 1, 2]))),
    ("unique plain", lambda: skiff.unique(skiff.to_tensor([3, 1, 3])), np.array([1, 3])),
    ("topk axis None", lambda: skiff.topk(X, 2)[0], -np.sort(-A, -1)[:, :2]),
    ("gather axis None", lambda: skiff.gather(X, skiff.to_tensor([2, 0])), A[[2, 0]]),
    ("concat tuple", lambda: skiff.concat((X, X), axis=1), np.concatenate([A, A], 1)),
    ("reshape tensor shape", lambda: skiff.reshape(X, skiff.to_tensor([4, 3])), A.reshape(4, 3)),
    ("squeeze None", lambda: skiff.squeeze(skiff.to_tensor(A[None, :, None])), A),
    ("numel", lambda: skiff.numel(X), 12),
    ("shape", lambda: skiff.shape(X), np.array([3, 4], np.int32)),
    ("linalg.norm fro", lambda: skiff.linalg.norm(X), np.linalg.norm(A)),
    ("linalg.norm p=2 axis", lambda: skiff.linalg.norm(X, p=2, axis=1), np.linalg.norm(A, 2, 1)),
    ("linalg.norm inf", lambda: skiff.linalg.norm(X, p=float("inf")), np.abs(A).max()),
    ("linalg.norm inf matrix", lambda: skiff.linalg.norm(X, p=float("inf"), axis=[0, 1]),
     np.linalg.norm(A, np.inf)),
    ("linalg.vector_norm", lambda: skiff.linalg.vector_norm(X, p=3), (np.abs(A) ** 3).sum() ** (1 / 3)),
    ("linalg.matrix_norm fro", lambda: skiff.linalg.matrix_norm(X), np.linalg.norm(A, "fro")),
    ("linalg.matrix_norm 1", lambda: skiff.linalg.matrix_norm(X, p=1), np.linalg.norm(A, 1)),
    ("linalg.multi_dot", lambda: skiff.linalg.multi_dot([X, skiff.t(X), X]), A @ A.T @ A),
    ("dist", lambda: skiff.dist(X, X * 0), np.linalg.norm(A)),
    ("increment", lambda: skiff.increment(skiff.to_tensor([1.0])), [2.0]),
]


@pytest.mark.parametrize("name,fn,want", CASES, ids=[c[0] for c in CASES])
def test_function(name, fn, want):
    got = fn()
    if isinstance(got, list) and got and not isinstance(got[0], skiff.Tensor):
        assert got == want
        return
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            close(g, np.asarray(w).reshape(g.shape) if np.asarray(w).size == g.size else w)
        return
    close(got, want)


def test_function_errors():
    with pytest.raises(ValueError, match="where: arguments 'x' and 'y'"):
        skiff.where(X > 0, X)
    with pytest.raises(ValueError, match="multi_dot"):
        skiff.linalg.multi_dot([X])
    with pytest.raises(ValueError, match="norm: argument 'p'"):
        skiff.linalg.norm(X, p="nuc")
    with pytest.raises(ValueError, match="t: argument 'input'"):
        skiff.t(skiff.zeros([2, 2, 2]))
