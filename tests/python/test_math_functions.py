"""Paddle 3.0's diag, diagflat, diag_embed, mv, kron, cross, trace, tensordot, einsum, cdist,
rot90, diff, renorm (compositions in skiff/tensor/math_functions.py) and frac, logit, heaviside,
gcd, lcm, as_strided (records of skiff/ops/yaml/math_functions.yaml): forward against numpy and torch in
float32 and float64 (integers where Paddle takes them), gradients against torch autograd of a
weighted sum, Paddle's documented examples, signatures, Tensor methods, and bad input raising
Paddle's error classes with the op and argument named."""
import inspect

import numpy as np
import pytest
import torch

import skiff as paddle

DTYPES = ("float32", "float64")
TOL = {"float32": 2e-5, "float64": 1e-12}


def rand(shape, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape)


def check(fn, tfn, arrays, dtype, tol_scale=1.0, grad=True, grad_tol=1e-10):
    """fn(*tensors) against tfn(*torch tensors): values in `dtype`, then gradients of
    sum(out * w) in float64 against torch's."""
    tol = TOL[dtype] * tol_scale
    xs = [paddle.to_tensor(np.asarray(a).astype(dtype)) for a in arrays]
    out = fn(*xs)
    want = tfn(*[torch.tensor(np.asarray(a).astype(dtype)) for a in arrays])
    assert out.dtype.name == dtype
    assert list(out.shape) == list(want.shape), (out.shape, want.shape)
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=tol, atol=tol)
    if not grad:
        return
    xs = [paddle.to_tensor(np.asarray(a, np.float64), stop_gradient=False) for a in arrays]
    ts = [torch.tensor(np.asarray(a, np.float64), requires_grad=True) for a in arrays]
    tout = tfn(*ts)
    w = rand(list(tout.shape), 99)
    (tout * torch.tensor(w)).sum().backward()
    out = fn(*xs)
    grads = paddle.grad([(out * paddle.to_tensor(w)).sum()], xs, allow_unused=True)
    for g, t in zip(grads, ts):
        want_g = np.zeros(t.shape) if t.grad is None else t.grad.numpy()
        got_g = np.zeros(t.shape) if g is None else g.numpy()
        np.testing.assert_allclose(got_g, want_g, rtol=grad_tol, atol=grad_tol)


def raises(exc, fragment, fn, *args, **kwargs):
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    assert fragment in str(info.value), str(info.value)
    return str(info.value)


# diag, diagflat, diag_embed, trace ------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_diag(dtype):
    for offset in (0, 1, -2, 5):
        check(lambda x: paddle.diag(x, offset), lambda x: torch.diag(x, offset), [rand([4])], dtype)
        check(lambda x: paddle.diag(x, offset), lambda x: torch.diag(x, offset), [rand([3, 5])],
              dtype)
    check(lambda x: paddle.diag(x, 1, 7.5),
          lambda x: torch.diag(x, 1) + 7.5 * (1 - torch.diag(torch.ones(3, dtype=x.dtype), 1)),
          [rand([3])], dtype)
    x = paddle.to_tensor(np.float64(2.0).astype(dtype))
    np.testing.assert_array_equal(paddle.diag(x, 1).numpy(), [[0, 2], [0, 0]])


def test_diag_doc_examples_and_ints():
    x = paddle.to_tensor([1, 2, 3])
    np.testing.assert_array_equal(paddle.diag(x).numpy(), np.diag([1, 2, 3]))
    np.testing.assert_array_equal(paddle.diag(x, offset=1).numpy(), np.diag([1, 2, 3], 1))
    y = paddle.diag(x, padding_value=6)
    np.testing.assert_array_equal(y.numpy(), [[1, 6, 6], [6, 2, 6], [6, 6, 3]])
    assert y.dtype == paddle.int64
    m = paddle.to_tensor([[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(paddle.diag(m).numpy(), [1, 5])
    np.testing.assert_array_equal(paddle.diag(m, offset=1).numpy(), [2, 6])
    np.testing.assert_array_equal(paddle.diag(m, offset=-1).numpy(), [4])
    np.testing.assert_array_equal(m.diag().numpy(), [1, 5])


@pytest.mark.parametrize("dtype", DTYPES)
def test_diagflat(dtype):
    for offset in (0, 2, -1):
        check(lambda x: paddle.diagflat(x, offset), lambda x: torch.diagflat(x, offset),
              [rand([2, 3])], dtype)
        check(lambda x: paddle.diagflat(x, offset), lambda x: torch.diagflat(x, offset),
              [rand([4])], dtype)
    x = paddle.to_tensor([[1, 2], [3, 4]])
    np.testing.assert_array_equal(paddle.diagflat(x).numpy(), np.diagflat([1, 2, 3, 4]))
    np.testing.assert_array_equal(paddle.diagflat(x, offset=1).numpy(),
                                  np.diagflat([1, 2, 3, 4], 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_diag_embed(dtype):
    for offset, d1, d2 in ((0, -2, -1), (1, 0, 2), (-2, 2, 0), (0, 1, 0), (3, -1, -3)):
        check(lambda x: paddle.diag_embed(x, offset, d1, d2),
              lambda x: torch.diag_embed(x, offset, d1, d2), [rand([2, 3])], dtype)
    check(lambda x: x.diag_embed(), lambda x: torch.diag_embed(x), [rand([2, 1, 4])], dtype)


def test_diag_embed_doc_example():
    assert paddle.nn.functional.diag_embed is paddle.diag_embed  # Paddle's F.diag_embed too
    x = paddle.arange(6)
    out = paddle.diag_embed(x)
    assert out.shape == [6, 6] and out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), np.diag(np.arange(6)))
    out = paddle.diag_embed(x, offset=-1, dim1=0, dim2=1)
    np.testing.assert_array_equal(out.numpy(), np.diag(np.arange(6), -1))
    x2 = paddle.reshape(x, [2, 3])
    out = paddle.diag_embed(x2, offset=0, dim1=1, dim2=2)
    np.testing.assert_array_equal(out.numpy(), torch.diag_embed(torch.arange(6).reshape(2, 3)))
    out = paddle.diag_embed(x2, offset=1, dim1=0, dim2=2)
    assert out.shape == [4, 2, 4]
    np.testing.assert_array_equal(out.numpy(),
                                  torch.diag_embed(torch.arange(6).reshape(2, 3), 1, 0, 2))


@pytest.mark.parametrize("dtype", DTYPES)
def test_trace(dtype):
    for offset, a1, a2 in ((0, 0, 1), (1, 0, 1), (-1, 1, 0), (0, -1, 0), (7, 0, 1)):
        check(lambda x: paddle.trace(x, offset, a1, a2),
              lambda x: torch.diagonal(x, offset, a1, a2).sum(-1), [rand([3, 4])], dtype)
    check(lambda x: paddle.trace(x, 1, 2, 0), lambda x: torch.diagonal(x, 1, 2, 0).sum(-1),
          [rand([3, 2, 4])], dtype)
    check(lambda x: x.trace(), lambda x: torch.trace(x), [rand([4, 4])], dtype)


def test_trace_doc_example():
    case1 = paddle.randn([2, 3])
    case2 = paddle.randn([3, 10, 10])
    case3 = paddle.randn([3, 10, 5, 10])
    assert paddle.trace(case1).shape == []
    assert paddle.trace(case2, offset=1, axis1=1, axis2=2).shape == [3]
    assert paddle.trace(case3, offset=-3, axis1=1, axis2=-1).shape == [3, 5]
    np.testing.assert_allclose(paddle.trace(case3, offset=-3, axis1=1, axis2=-1).numpy(),
                               np.trace(case3.numpy(), -3, 1, 3), rtol=1e-5, atol=1e-5)
    assert int(paddle.trace(paddle.to_tensor([[1, 2], [3, 4]]))) == 5


# products -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_mv(dtype):
    check(paddle.mv, torch.mv, [rand([3, 4]), rand([4], 1)], dtype)
    check(lambda x, v: x.mv(v), torch.mv, [rand([1, 5]), rand([5], 1)], dtype)
    x = paddle.to_tensor([[2, 1, 3], [3, 0, 1]]).astype("float64")
    vec = paddle.to_tensor([3, 5, 1]).astype("float64")
    np.testing.assert_array_equal(paddle.mv(x, vec).numpy(), [14.0, 10.0])
    xi = paddle.to_tensor([[2, 1, 3], [3, 0, 1]])
    np.testing.assert_array_equal(paddle.mv(xi, paddle.to_tensor([3, 5, 1])).numpy(), [14, 10])


@pytest.mark.parametrize("dtype", DTYPES)
def test_kron(dtype):
    check(paddle.kron, torch.kron, [rand([2, 3]), rand([4, 2], 1)], dtype)
    check(paddle.kron, torch.kron, [rand([3]), rand([2, 2], 1)], dtype)
    check(paddle.kron, torch.kron, [rand([2, 1, 3]), rand([2], 1)], dtype)
    check(lambda x, y: x.kron(y), torch.kron, [rand([]), rand([3], 1)], dtype)
    x = paddle.to_tensor([[1, 2], [3, 4]], dtype="int64")
    y = paddle.to_tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype="int64")
    np.testing.assert_array_equal(paddle.kron(x, y).numpy(), np.kron(x.numpy(), y.numpy()))


@pytest.mark.parametrize("dtype", DTYPES)
def test_cross(dtype):
    check(paddle.cross, lambda x, y: torch.linalg.cross(x, y, dim=0), [rand([3, 4]), rand([3, 4], 1)],
          dtype)
    check(lambda x, y: paddle.cross(x, y, axis=1), lambda x, y: torch.cross(x, y, dim=1),
          [rand([2, 3, 3]), rand([2, 3, 3], 1)], dtype)
    check(lambda x, y: x.cross(y, -1), lambda x, y: torch.cross(x, y, dim=-1),
          [rand([4, 2, 3]), rand([4, 2, 3], 1)], dtype)


def test_cross_doc_example():
    x = paddle.to_tensor([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0]])
    y = paddle.to_tensor([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    np.testing.assert_array_equal(paddle.cross(x, y, axis=1).numpy(), np.zeros([3, 3]))
    np.testing.assert_array_equal(paddle.cross(x, y).numpy(),
                                  [[-1, -1, -1], [2, 2, 2], [-1, -1, -1]])
    xi = paddle.to_tensor([1, 0, 0])
    np.testing.assert_array_equal(paddle.cross(xi, paddle.to_tensor([0, 1, 0])).numpy(), [0, 0, 1])


@pytest.mark.parametrize("dtype", DTYPES)
def test_tensordot(dtype):
    x, y = rand([2, 3, 4]), rand([3, 4, 5], 1)
    check(paddle.tensordot, lambda a, b: torch.tensordot(a, b, 2), [x, y], dtype)
    check(lambda a, b: paddle.tensordot(a, b, 1), lambda a, b: torch.tensordot(a, b, 1),
          [rand([2, 3]), rand([3, 4], 1)], dtype)
    check(lambda a, b: paddle.tensordot(a, b, 0), lambda a, b: torch.tensordot(a, b, 0),
          [rand([2, 3]), rand([2], 1)], dtype)
    check(lambda a, b: paddle.tensordot(a, b, [[0, 2], [2, 0]]),
          lambda a, b: torch.tensordot(a, b, [[0, 2], [2, 0]]),
          [rand([4, 3, 5]), rand([5, 2, 4], 1)], dtype)
    # one list: the same axes of both; a Tensor of axes; a shorter list extended by the longer
    check(lambda a, b: paddle.tensordot(a, b, [1, 0]),
          lambda a, b: torch.tensordot(a, b, [[1, 0], [1, 0]]), [rand([3, 2, 4]), rand([3, 2], 1)],
          dtype)
    check(lambda a, b: paddle.tensordot(a, b, paddle.to_tensor([[1], [0]])),
          lambda a, b: torch.tensordot(a, b, [[1], [0]]), [rand([4, 3]), rand([3, 2], 1)], dtype)
    check(lambda a, b: paddle.tensordot(a, b, [[0, 1, 2], [1, 0]]),
          lambda a, b: torch.tensordot(a, b, [[0, 1, 2], [1, 0, 2]]),
          [rand([2, 4, 3]), rand([4, 2, 3], 1)], dtype)
    check(lambda a, b: a.tensordot(b, [[0], [1]]), lambda a, b: torch.tensordot(a, b, [[0], [1]]),
          [rand([3, 2]), rand([2, 3], 1)], dtype)


def test_tensordot_broadcast_and_doc_example():
    # a contracted dim of size 1 broadcasts against the other side's
    x, y = rand([2, 1]), rand([3, 4], 1)
    got = paddle.tensordot(paddle.to_tensor(x), paddle.to_tensor(y), [[1], [0]]).numpy()
    np.testing.assert_allclose(got, x @ np.broadcast_to(y.sum(0, keepdims=True), [1, 4]), atol=1e-12)
    data = paddle.arange(4, dtype="float64").reshape([2, 2])
    z = paddle.tensordot(data, data, axes=0)
    np.testing.assert_array_equal(z.numpy(), np.tensordot(data.numpy(), data.numpy(), 0))
    for axes in ([], [[]], [[], []]):
        np.testing.assert_array_equal(paddle.tensordot(data, data, axes=axes).numpy(), z.numpy())
    z = paddle.tensordot(data, data, axes=1)
    np.testing.assert_array_equal(z.numpy(), [[2, 3], [6, 11]])
    x = paddle.arange(24, dtype="float64").reshape([2, 3, 4])
    y = paddle.arange(12, dtype="float64").reshape([3, 4])
    np.testing.assert_array_equal(paddle.tensordot(x, y, axes=[[1, 2], [0, 1]]).numpy(),
                                  np.tensordot(x.numpy(), y.numpy(), [[1, 2], [0, 1]]))
    x = paddle.arange(60, dtype="float64").reshape([3, 4, 5])
    y = paddle.arange(24, dtype="float64").reshape([4, 3, 2])
    z = paddle.tensordot(x, y, axes=([1, 0], [0, 1]))
    np.testing.assert_array_equal(z.numpy(), np.tensordot(x.numpy(), y.numpy(), ([1, 0], [0, 1])))
    xi = paddle.to_tensor([[1, 2], [3, 4]])
    np.testing.assert_array_equal(paddle.tensordot(xi, xi, 1).numpy(), [[7, 10], [15, 22]])


# einsum ---------------------------------------------------------------------------------------
EINSUM_CASES = [
    ("i,i->", [[4], [4]]),
    ("i,i", [[4], [4]]),
    ("i,j->ij", [[3], [4]]),
    ("ij->ji", [[3, 4]]),
    ("ij", [[3, 4]]),
    ("ji", [[3, 4]]),
    ("ij->", [[3, 4]]),
    ("ij->j", [[3, 4]]),
    ("ii->i", [[4, 4]]),
    ("ii", [[4, 4]]),
    ("iji->j", [[3, 2, 3]]),
    ("ij,jk->ik", [[2, 3], [3, 4]]),
    ("ij,jk", [[2, 3], [3, 4]]),
    ("bij,bjk->bik", [[2, 3, 4], [2, 4, 5]]),
    ("bij,bkj->bik", [[2, 3, 4], [2, 5, 4]]),
    ("...ij,...jk->...ik", [[2, 3, 4], [4, 5]]),
    ("...ij,...jk", [[2, 1, 3, 4], [5, 4, 2]]),
    ("i...->...", [[3, 2, 4]]),
    ("...,...", [[2, 3], [3]]),
    ("a...b,b...->...a", [[2, 4, 3], [3, 1]]),
    ("ij,ij->ij", [[2, 1], [1, 4]]),
    ("ij,jk,kl->il", [[2, 3], [3, 4], [4, 5]]),
    ("ab,bc,ca->", [[2, 3], [3, 4], [4, 2]]),
    ("ijk,ikl,ilm->im", [[2, 3, 4], [2, 4, 5], [2, 5, 3]]),
    ("i,j,k->ijk", [[2], [3], [4]]),
    ("bn,anm,bm->ba", [[2, 3], [4, 3, 5], [2, 5]]),
    ("Ab,bA->", [[2, 3], [3, 2]]),
    ("iI,Ij", [[2, 3], [3, 4]]),
    (" i j , j k -> i k ", [[2, 3], [3, 4]]),
    ("ij,kl->", [[2, 3], [4, 5]]),
    ("i,->i", [[3], []]),
    ("->", [[]]),
    ("ii,ij->j", [[3, 3], [3, 4]]),
    ("ijj,jk->ik", [[2, 3, 3], [3, 2]]),
    ("bhqd,bhkd->bhqk", [[2, 2, 3, 4], [2, 2, 5, 4]]),
    # the cheapest pair first: (0, 2) before the outer product of 0 and 1
    ("ab,cd,bc->ad", [[2, 3], [4, 5], [3, 4]]),
    ("ab,cd,bc,da->", [[2, 3], [4, 5], [3, 4], [5, 2]]),
    ("i,jk,ij->k", [[3], [4, 2], [3, 4]]),
    ("...a,b...,ab->...", [[2, 3], [4, 2], [3, 4]]),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("eq,shapes", EINSUM_CASES)
def test_einsum_vs_numpy_and_torch(eq, shapes, dtype):
    arrays = [rand(s, k) for k, s in enumerate(shapes)]
    want = np.einsum(eq, *arrays)
    got = paddle.einsum(eq, *[paddle.to_tensor(a.astype(dtype)) for a in arrays])
    assert list(got.shape) == list(np.shape(want))
    np.testing.assert_allclose(got.numpy(), want, rtol=TOL[dtype] * 10, atol=TOL[dtype] * 10)
    check(lambda *xs: paddle.einsum(eq, *xs), lambda *ts: torch.einsum(eq.replace(" ", ""), *ts),
          arrays, dtype, tol_scale=10)


def test_einsum_list_operands_ints_and_doc_examples():
    x = paddle.to_tensor(rand([4], 1))
    y = paddle.to_tensor(rand([5], 2))
    np.testing.assert_allclose(paddle.einsum("i->", x).numpy(), x.numpy().sum())
    np.testing.assert_allclose(paddle.einsum("i,i->", x, x).numpy(), x.numpy() @ x.numpy())
    np.testing.assert_allclose(paddle.einsum("i,j->ij", x, y).numpy(), np.outer(x, y))
    A = paddle.to_tensor(rand([2, 3, 2], 3))
    B = paddle.to_tensor(rand([2, 2, 3], 4))
    np.testing.assert_allclose(paddle.einsum("ijk->kji", A).numpy(), A.numpy().transpose(2, 1, 0))
    np.testing.assert_allclose(paddle.einsum("ijk, ikl->ijl", A, B).numpy(),
                               np.einsum("ijk,ikl->ijl", A.numpy(), B.numpy()), atol=1e-12)
    np.testing.assert_allclose(paddle.einsum("...jk, ...kl->...jl", A, B).numpy(),
                               A.numpy() @ B.numpy(), atol=1e-12)
    np.testing.assert_allclose(paddle.einsum("mij,jk->ki", A, paddle.to_tensor(rand([2, 4]))).numpy(),
                               np.einsum("mij,jk->ki", A.numpy(), rand([2, 4])), atol=1e-12)
    out = paddle.einsum("ij,jk->ik", [paddle.ones([2, 3]), paddle.ones([3, 4])])
    np.testing.assert_array_equal(out.numpy(), np.full([2, 4], 3.0))
    a = np.arange(6).reshape(2, 3)
    got = paddle.einsum("ij,kj->ik", paddle.to_tensor(a), paddle.to_tensor(a))
    assert got.dtype == paddle.int64
    np.testing.assert_array_equal(got.numpy(), a @ a.T)


def test_einsum_contracts_the_cheapest_pair_first():
    from skiff.tensor import math_functions as mf
    shapes = {"a": 2, "b": 300, "c": 300, "d": 2}
    ops = [(None, ["a", "b"]), (None, ["c", "d"]), (None, ["b", "c"])]
    assert mf._cheapest_pair(ops, ["a", "d"], shapes)[:2] == (0, 2)  # [a, c], not [a, b, c, d]
    chain = [(None, ["i", "j"]), (None, ["j", "k"]), (None, ["k", "l"])]
    assert mf._cheapest_pair(chain, ["i", "l"], dict.fromkeys("ijkl", 3))[:2] == (0, 1)


def test_einsum_second_order():
    x = paddle.to_tensor(rand([3, 3]), stop_gradient=False)
    y = paddle.einsum("ij,jk,ki->", x, x, x)  # trace(x^3): grad 3 (x^2)^T, Hessian-vector exists
    (g,) = paddle.grad([y], [x], create_graph=True)
    np.testing.assert_allclose(g.numpy(), 3 * (x.numpy() @ x.numpy()).T, atol=1e-12)
    (h,) = paddle.grad([g.sum()], [x])
    xt = torch.tensor(x.numpy(), requires_grad=True)
    (gt,) = torch.autograd.grad(torch.einsum("ij,jk,ki->", xt, xt, xt), [xt], create_graph=True)
    (ht,) = torch.autograd.grad(gt.sum(), [xt])
    np.testing.assert_allclose(h.numpy(), ht.numpy(), atol=1e-12)


def test_einsum_errors():
    a, b = paddle.ones([2, 3]), paddle.ones([4, 5])
    raises(ValueError, "(InvalidArgument) einsum: argument 'operands' expected equal sizes (or 1) "
           "for label 'j', got 3 and 4", paddle.einsum, "ij,jk->ik", a, b)
    raises(ValueError, "(InvalidArgument) einsum: argument 'equation' expected one term per operand",
           paddle.einsum, "ij,jk->ik", a)
    raises(ValueError, "expected term 0 ('ijk') to name the 2 dims of operand 0",
           paddle.einsum, "ijk->i", a)
    raises(ValueError, "expected term 0 ('i') to name the 2 dims", paddle.einsum, "i->i", a)
    raises(ValueError, "('k' names none)", paddle.einsum, "ij->k", a)
    raises(ValueError, "('i' repeats)", paddle.einsum, "ij->ii", a)
    raises(ValueError, "expected '...' in the output", paddle.einsum, "...j->j", a)
    raises(ValueError, "expected '->' at most once", paddle.einsum, "ij->j->i", a)
    raises(ValueError, "expected letters", paddle.einsum, "i1->i", a)
    raises(ValueError, "no other '.'", paddle.einsum, "i.j->i", a)
    raises(ValueError, "'...' at most once", paddle.einsum, "......->", a)
    raises(ValueError, "for label 'i', got 2 and 3 in 'ii->i'", paddle.einsum, "ii->i", a)
    raises(ValueError, "expected equal sizes for the repeated label 'i', got 1 and 3",
           paddle.einsum, "ii->i", paddle.ones([1, 3]))
    raises(TypeError, "(InvalidType) einsum: argument 'equation' expected a str", paddle.einsum,
           3, a)
    raises(TypeError, "(InvalidType) einsum: argument 'operands[1]' expected a Tensor",
           paddle.einsum, "i,i", paddle.ones([2]), [1, 2])
    raises(ValueError, "expected at least one Tensor", paddle.einsum, "i")


# cdist, rot90, diff ---------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_cdist(dtype):
    x, y = rand([5, 3]), rand([4, 3], 1)
    for p in (2.0, 1.0, 3.0, 0.5, float("inf")):
        check(lambda a, b: paddle.cdist(a, b, p), lambda a, b: torch.cdist(a, b, p), [x, y], dtype,
              tol_scale=10)
    check(lambda a, b: paddle.cdist(a, b, 0.0), lambda a, b: torch.cdist(a, b, 0.0), [x, y], dtype,
          grad=False)
    # batched and broadcast batch dims; matmul path (more than 25 rows, or forced)
    check(lambda a, b: a.cdist(b), lambda a, b: torch.cdist(a, b), [rand([2, 1, 3, 4]),
                                                                    rand([3, 5, 4], 1)], dtype, tol_scale=10)
    big_x, big_y = rand([30, 4]), rand([27, 4], 1)
    check(paddle.cdist, torch.cdist, [big_x, big_y], dtype, tol_scale=100)
    check(lambda a, b: paddle.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
          lambda a, b: torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist"), [x, y], dtype,
          tol_scale=100)
    check(lambda a, b: paddle.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist"),
          lambda a, b: torch.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist"),
          [big_x, big_y], dtype, tol_scale=10)


def test_cdist_zero_distance_gradient_and_doc_example():
    x = paddle.to_tensor([[0.9041, 0.0196], [-0.3108, -2.4423], [-0.4821, 1.059]])
    y = paddle.to_tensor([[-2.1763, -0.4713], [-0.6986, 1.3702]])
    np.testing.assert_allclose(paddle.cdist(x, y, p=2.0).numpy(),
                               [[3.1193, 2.0959], [2.7138, 3.8322], [2.2830, 0.3791]], atol=1e-4)
    for p in (2.0, 1.0, 3.0):
        a = paddle.to_tensor(rand([3, 2]), stop_gradient=False)
        (g,) = paddle.grad([paddle.cdist(a, a.detach(), p).sum()], [a])
        at = torch.tensor(a.numpy(), requires_grad=True)
        torch.cdist(at, at.detach(), p).sum().backward()
        np.testing.assert_allclose(g.numpy(), at.grad.numpy(), atol=1e-12)
        assert np.isfinite(g.numpy()).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_rot90(dtype):
    for k in (1, 2, 3, 4, 0, -1, 5, -6):
        for axes in ([0, 1], [1, 0], [-1, 0], [2, 1]):
            check(lambda x: paddle.rot90(x, k, axes), lambda x: torch.rot90(x, k, axes),
                  [rand([2, 3, 4])], dtype)
    check(lambda x: x.rot90(), lambda x: torch.rot90(x), [rand([2, 3])], dtype)
    data = paddle.arange(4).reshape([2, 2])
    np.testing.assert_array_equal(paddle.rot90(data, 1, [0, 1]).numpy(), [[1, 3], [0, 2]])
    np.testing.assert_array_equal(paddle.rot90(data, -1, [0, 1]).numpy(), [[2, 0], [3, 1]])
    data = paddle.arange(8).reshape([2, 2, 2])
    np.testing.assert_array_equal(paddle.rot90(data, 1, [1, 2]).numpy(),
                                  np.rot90(np.arange(8).reshape(2, 2, 2), 1, [1, 2]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_diff(dtype):
    for n, axis in ((1, -1), (2, 0), (3, 1), (0, 1), (5, 1)):
        check(lambda x: paddle.diff(x, n, axis), lambda x: torch.diff(x, n, axis),
              [rand([4, 5])], dtype)
    check(lambda x, p, a: paddle.diff(x, 1, 0, p, a),
          lambda x, p, a: torch.diff(x, 1, 0, p, a), [rand([3, 2]), rand([2, 2], 1), rand([1, 2], 2)],
          dtype)
    check(lambda x, a: x.diff(append=a), lambda x, a: torch.diff(x, append=a),
          [rand([3, 2]), rand([3, 4], 1)], dtype)


def test_diff_doc_example_ints_bool():
    x = paddle.to_tensor([1, 4, 5, 2])
    np.testing.assert_array_equal(paddle.diff(x).numpy(), [3, 1, -3])
    y = paddle.to_tensor([7, 9])
    np.testing.assert_array_equal(paddle.diff(x, append=y).numpy(), [3, 1, -3, 5, 2])
    z = paddle.to_tensor([[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(paddle.diff(z, axis=0).numpy(), [[3, 3, 3]])
    np.testing.assert_array_equal(paddle.diff(z, axis=1).numpy(), [[1, 1], [1, 1]])
    b = paddle.to_tensor([True, True, False, True])
    out = paddle.diff(b)
    assert out.dtype == paddle.bool
    np.testing.assert_array_equal(out.numpy(), np.diff(np.array([True, True, False, True])))
    np.testing.assert_array_equal(paddle.diff(x, n=2).numpy(), np.diff([1, 4, 5, 2], 2))


# renorm and the math_functions.yaml records ---------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_renorm(dtype):
    x = rand([3, 4, 5]) * 2
    for p, axis, max_norm in ((2.0, 0, 1.5), (1.0, 1, 2.0), (3.0, -1, 1.0), (float("inf"), 2, 0.5),
                              (2.0, 1, 100.0)):
        check(lambda t: paddle.renorm(t, p, axis, max_norm),
              lambda t: torch.renorm(t, p, axis % 3, max_norm), [x], dtype, tol_scale=1e5,
              grad_tol=1e-6)  # torch divides by norm + 1e-7, Paddle by the norm
    v = rand([4]) * 2  # 1-D (torch refuses it): each element is its own slice
    np.testing.assert_allclose(paddle.to_tensor(v.astype(dtype)).renorm(2.0, 0, 0.5).numpy(),
                               np.clip(v, -0.5, 0.5), rtol=TOL[dtype], atol=TOL[dtype])
    z = np.zeros([2, 3])
    z[1] = rand([3])
    check(lambda t: paddle.renorm(t, 2.0, 0, 0.1), lambda t: torch.renorm(t, 2.0, 0, 0.1), [z],
          dtype, tol_scale=1e5, grad_tol=1e-6)
    # exactly Paddle's formula: x * max_norm / norm where the norm exceeds max_norm
    norms = np.sqrt((x ** 2).sum(axis=(1, 2), keepdims=True))
    want = np.where(norms > 1.5, x * 1.5 / norms, x)
    np.testing.assert_allclose(paddle.renorm(paddle.to_tensor(x), 2.0, 0, 1.5).numpy(), want,
                               rtol=1e-13)


def test_renorm_inplace():
    x = rand([3, 4]) * 2
    t = paddle.to_tensor(x)
    assert paddle.renorm_(t, 2.0, 0, 1.0) is t
    np.testing.assert_allclose(t.numpy(), paddle.renorm(paddle.to_tensor(x), 2.0, 0, 1.0).numpy(),
                               rtol=1e-15)
    # through autograd: the in-place result of a non-leaf differentiates like renorm
    leaf = paddle.to_tensor(x, stop_gradient=False)
    y = leaf * 1.0
    out = y.renorm_(2.0, 1, 1.0)
    assert out is y
    w = rand([3, 4], 7)
    (g,) = paddle.grad([(out * paddle.to_tensor(w)).sum()], [leaf])
    lt = torch.tensor(x, requires_grad=True)
    (torch.renorm(lt * 1.0, 2.0, 1, 1.0) * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(g.numpy(), lt.grad.numpy(), rtol=1e-6, atol=1e-6)
    # a leaf that requires grad is never written in place (Paddle's PreconditionNotMet)
    raises(RuntimeError, "(PreconditionNotMet) multiply_: argument 'x' expected a tensor that is not "
           "a leaf requiring grad", paddle.renorm_, paddle.to_tensor(x, stop_gradient=False), 2.0, 0,
           1.0)


ZERO_SIZE_CASES = [
    ("einsum ij,jk", lambda a, b: paddle.einsum("ij,jk->ik", a, b),
     lambda a, b: torch.einsum("ij,jk->ik", a, b), [[4, 0], [0, 5]]),
    ("einsum bij,bjk", lambda a, b: paddle.einsum("bij,bjk->bik", a, b),
     lambda a, b: torch.einsum("bij,bjk->bik", a, b), [[0, 2, 3], [0, 3, 4]]),
    ("einsum i,i", lambda a, b: paddle.einsum("i,i", a, b), lambda a, b: torch.einsum("i,i", a, b),
     [[0], [0]]),
    ("einsum ij->j", lambda a: paddle.einsum("ij->j", a), lambda a: a.sum(0), [[0, 3]]),
    ("tensordot", lambda a, b: paddle.tensordot(a, b, 1), lambda a, b: torch.tensordot(a, b, 1),
     [[0, 3], [3, 2]]),
    ("kron", paddle.kron, torch.kron, [[0, 3], [2, 2]]),
    ("mv", paddle.mv, torch.mv, [[2, 0], [0]]),
    ("trace", paddle.trace, torch.trace, [[0, 0]]),
    ("diag", paddle.diag, torch.diag, [[0]]),
    ("diagflat", paddle.diagflat, torch.diagflat, [[0, 3]]),
    ("diag_embed", paddle.diag_embed, torch.diag_embed, [[2, 0]]),
    ("cdist", paddle.cdist, torch.cdist, [[0, 3], [2, 3]]),
    ("cdist no columns", paddle.cdist, torch.cdist, [[4, 0], [2, 0]]),
    ("cross", paddle.cross, lambda a, b: torch.cross(a, b, dim=1), [[0, 3], [0, 3]]),
    ("rot90", paddle.rot90, torch.rot90, [[0, 3]]),
    ("diff", paddle.diff, torch.diff, [[0]]),
    ("renorm", lambda a: paddle.renorm(a, 2.0, 0, 1.0), lambda a: torch.renorm(a, 2.0, 0, 1.0),
     [[0, 3]]),
]


@pytest.mark.parametrize("name,fn,tfn,shapes", ZERO_SIZE_CASES, ids=[c[0] for c in ZERO_SIZE_CASES])
def test_zero_size(name, fn, tfn, shapes):
    check(fn, tfn, [np.zeros(s) for s in shapes], "float64")


HALF_CASES = {
    "einsum": lambda a, b: paddle.einsum("ij,jk->ik", a, b.t()),
    "tensordot": lambda a, b: paddle.tensordot(a, b.t(), 1),
    "mv": lambda a, b: paddle.mv(a, b[0]),
    "kron": paddle.kron,
    "cdist": paddle.cdist,
    "cdist_mm": lambda a, b: paddle.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
    "cross": lambda a, b: paddle.cross(a[:, :3], b[:, :3]),
    "trace": lambda a, b: paddle.trace(a),
    "diag_embed": lambda a, b: paddle.diag_embed(a, 1),
    "rot90": lambda a, b: paddle.rot90(a),
    "diff": lambda a, b: paddle.diff(a, 2),
    "renorm": lambda a, b: paddle.renorm(a, 2.0, 0, 0.5),
    "frac": lambda a, b: paddle.frac(a * 3),
    "logit": lambda a, b: paddle.logit(a * 0.4 + 0.5, 0.01),
    "heaviside": lambda a, b: paddle.heaviside(a, b),
    "as_strided": lambda a, b: paddle.as_strided(a, [3, 2], [1, 4], 1),
}


@pytest.mark.parametrize("dtype", ("float16", "bfloat16"))
@pytest.mark.parametrize("name", sorted(HALF_CASES))
def test_half_precision(name, dtype):
    """16-bit inputs: the result keeps the dtype and matches float32 within the 16-bit rounding."""
    a, b = rand([3, 4]), rand([3, 4], 1)
    fn = HALF_CASES[name]
    half = [paddle.to_tensor(v.astype("float32")).astype(dtype) for v in (a, b)]
    out = fn(*half)
    assert out.dtype.name == dtype
    want = fn(*[h.astype("float32") for h in half]).numpy()
    tol = 1e-2 if dtype == "float16" else 6e-2
    np.testing.assert_allclose(out.astype("float32").numpy(), want, rtol=tol, atol=tol)


def test_to_static():
    def f(a, b):
        return (paddle.einsum("ij,jk->ik", a, b).sum() + paddle.cdist(a, b.t()).sum()
                + paddle.trace(paddle.diag_embed(a)).sum() + paddle.tensordot(a, b, 1).sum()
                + paddle.kron(a, b).sum() + paddle.rot90(a).sum() + paddle.diff(a).sum()
                + paddle.renorm(a, 2.0, 0, 1.0).sum() + paddle.logit(a, 0.01).sum()
                + paddle.as_strided(a, [2], [1]).sum() + paddle.frac(a * 3).sum()
                + paddle.cross(a[:, :3], b.t()[:, :3]).sum() + paddle.mv(a, b[:, 0]).sum())
    a, b = paddle.rand([3, 4]), paddle.rand([4, 3])
    np.testing.assert_allclose(float(paddle.jit.to_static(f)(a, b)), float(f(a, b)), rtol=1e-6)


def test_renorm_doc_example():
    x = paddle.to_tensor([[[2.0, 2.0, -2.0], [3.0, 0.3, 3.0]], [[2.0, -8.0, 2.0], [3.1, 3.7, 3.0]]])
    y = paddle.renorm(x, 1.0, 2, 2.05)
    np.testing.assert_allclose(y.numpy(), [[[0.40594056, 0.29285714, -0.41], [0.60891086, 0.04392857, 0.61500001]],
                                           [[0.40594056, -1.17142856, 0.41], [0.62920785, 0.54178572, 0.61500001]]],
                               rtol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
def test_frac(dtype):
    x = rand([3, 4]) * 5
    check(paddle.frac, torch.frac, [x], dtype)
    check(lambda t: t.frac(), torch.frac, [rand([2, 1, 3]) * 3], dtype)
    t = paddle.to_tensor(x.astype(dtype))
    assert t.frac_() is t
    np.testing.assert_allclose(t.numpy(), np.modf(x.astype(dtype))[0], rtol=1e-6, atol=1e-6)
    xi = paddle.to_tensor([3, -2, 0], dtype="int32")
    out = paddle.frac(xi)
    assert out.dtype == paddle.int32
    np.testing.assert_array_equal(out.numpy(), [0, 0, 0])
    # Paddle's example
    x = paddle.to_tensor([[12.22000003, -1.02999997], [-0.54999995, 0.66000003]])
    np.testing.assert_allclose(paddle.frac(x).numpy(), [[0.22000003, -0.02999997], [-0.54999995, 0.66000003]],
                               rtol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
def test_logit(dtype):
    x = np.random.default_rng(3).uniform(0.02, 0.98, [3, 4])
    check(paddle.logit, torch.logit, [x], dtype, tol_scale=10)
    # eps is a float32 attribute (Paddle's record too): clamped values differ from torch's ~1e-8
    check(lambda t: paddle.logit(t, 0.1), lambda t: torch.logit(t, 0.1), [x], dtype, tol_scale=1e5)
    check(lambda t: t.logit(eps=0.3), lambda t: torch.logit(t, 0.3), [x], dtype, tol_scale=1e5)
    out = paddle.logit(paddle.to_tensor(np.array([-0.5, 1.5, 0.0, 1.0], dtype)))
    assert np.isnan(out.numpy()[:2]).all() and out.numpy()[2] == -np.inf and out.numpy()[3] == np.inf
    clamped = paddle.logit(paddle.to_tensor(np.array([-0.5, 1.5], dtype)), 0.2).numpy()
    np.testing.assert_allclose(clamped, [np.log(0.25), np.log(4.0)], rtol=1e-6)
    t = paddle.to_tensor(x.astype(dtype))
    assert paddle.logit_(t, 0.1) is t
    np.testing.assert_allclose(t.numpy(), torch.logit(torch.tensor(x), 0.1).numpy(), rtol=1e-5, atol=1e-5)
    # Paddle's example
    x = paddle.to_tensor([0.2635, 0.0106, 0.2780, 0.2097, 0.8095])
    np.testing.assert_allclose(paddle.logit(x).numpy(), [-1.0277, -4.5365, -0.9544, -1.3269, 1.4468],
                               atol=3e-4)  # the documented values are rounded


def test_logit_second_order():
    x = paddle.to_tensor([0.2, 0.5, 0.7], dtype="float64", stop_gradient=False)
    (g,) = paddle.grad([paddle.logit(x).sum()], [x], create_graph=True)
    np.testing.assert_allclose(g.numpy(), 1 / (x.numpy() * (1 - x.numpy())), rtol=1e-12)
    (h,) = paddle.grad([g.sum()], [x])
    xn = x.numpy()
    np.testing.assert_allclose(h.numpy(), -(1 - 2 * xn) / (xn * (1 - xn)) ** 2, rtol=1e-10)


@pytest.mark.parametrize("dtype", DTYPES + ("int32", "int64"))
def test_heaviside(dtype):
    rng = np.random.default_rng(4)
    x = rng.integers(-2, 3, [3, 4]).astype(dtype)
    y = rng.integers(-3, 4, [4]).astype(dtype)
    out = paddle.heaviside(paddle.to_tensor(x), paddle.to_tensor(y))
    assert out.dtype.name == dtype
    np.testing.assert_array_equal(out.numpy(), np.heaviside(x, y))
    np.testing.assert_array_equal(paddle.to_tensor(x).heaviside(paddle.to_tensor(y)).numpy(),
                                  np.heaviside(x, y))
    if dtype.startswith("float"):
        xt = paddle.to_tensor(x, stop_gradient=False)
        yt = paddle.to_tensor(y, stop_gradient=False)
        w = rand([3, 4], 5).astype(dtype)
        gx, gy = paddle.grad([(paddle.heaviside(xt, yt) * paddle.to_tensor(w)).sum()], [xt, yt])
        np.testing.assert_array_equal(gx.numpy(), np.zeros_like(x))
        np.testing.assert_allclose(gy.numpy(), (w * (x == 0)).sum(0), rtol=1e-6)
    # Paddle's example
    xs = paddle.to_tensor([-0.5, 0.0, 0.5])
    ys = paddle.to_tensor([0.1])
    np.testing.assert_allclose(paddle.heaviside(xs, ys).numpy(), [0.0, 0.1, 1.0])
    xs = paddle.to_tensor([[-0.5, 0.0, 0.5], [-0.5, 0.5, 0.0]])
    ys = paddle.to_tensor([0.1, 0.2, 0.3])
    np.testing.assert_allclose(paddle.heaviside(xs, ys).numpy(), [[0.0, 0.2, 1.0], [0.0, 1.0, 0.3]])


@pytest.mark.parametrize("dtype", ("int8", "int16", "int32", "int64", "uint8"))
def test_gcd_lcm(dtype):
    rng = np.random.default_rng(5)
    lo = 0 if dtype == "uint8" else -10  # every lcm fits int8
    x = rng.integers(lo, 11, [4, 5]).astype(dtype)
    y = rng.integers(lo, 11, [5]).astype(dtype)
    for name, ref in (("gcd", np.gcd), ("lcm", np.lcm)):
        out = getattr(paddle, name)(paddle.to_tensor(x), paddle.to_tensor(y))
        assert out.dtype.name == dtype
        np.testing.assert_array_equal(out.numpy(), ref(x, y))
        np.testing.assert_array_equal(getattr(paddle.to_tensor(x), name)(paddle.to_tensor(y)).numpy(),
                                      ref(x, y))
        t = paddle.to_tensor(np.broadcast_to(x, [4, 5]).copy())
        assert getattr(paddle, name + "_")(t, paddle.to_tensor(y)) is t
        np.testing.assert_array_equal(t.numpy(), ref(x, y))


def test_gcd_lcm_extremes_and_doc_examples():
    big = np.array([np.iinfo(np.int64).min, 0, 0, -6, 2 ** 40], np.int64)
    other = np.array([6, 0, -5, -4, 2 ** 20 * 3], np.int64)
    np.testing.assert_array_equal(paddle.gcd(paddle.to_tensor(big), paddle.to_tensor(other)).numpy(),
                                  np.gcd(big, other))
    np.testing.assert_array_equal(paddle.lcm(paddle.to_tensor(big[1:]), paddle.to_tensor(other[1:])).numpy(),
                                  np.lcm(big[1:], other[1:]))
    x1 = paddle.to_tensor(12)
    x2 = paddle.to_tensor(20)
    assert int(paddle.gcd(x1, x2)) == 4 and int(paddle.lcm(x1, x2)) == 60
    x3 = paddle.arange(6)
    np.testing.assert_array_equal(paddle.gcd(x3, x2).numpy(), [20, 1, 2, 1, 4, 5])
    np.testing.assert_array_equal(paddle.lcm(x3, x2).numpy(), [0, 20, 20, 60, 20, 20])
    x4 = paddle.to_tensor(0)
    np.testing.assert_array_equal(paddle.gcd(x4, x4).numpy(), 0)
    np.testing.assert_array_equal(paddle.lcm(x4, x4).numpy(), 0)
    x5 = paddle.to_tensor(-20)
    assert int(paddle.gcd(x1, x5)) == 4 and int(paddle.lcm(x1, x5)) == 60


@pytest.mark.parametrize("dtype", DTYPES)
def test_as_strided(dtype):
    cases = [([3, 4], [2, 2], [1, 2], 1), ([6], [4, 3], [1, 1], 0), ([2, 3], [], [], 5),
             ([4, 5], [5, 4], [1, 5], 0), ([2, 3, 4], [2, 2, 3], [12, 0, 4], 0), ([2, 3], [0, 3], [1, 1], 0)]
    for xs, shape, stride, offset in cases:
        check(lambda t: paddle.as_strided(t, shape, stride, offset),
              lambda t: t.as_strided(shape, stride, offset), [rand(xs)], dtype)
    check(lambda t: t.as_strided([3], [2], 1), lambda t: t.as_strided([3], [2], 1), [rand([7])], dtype)


def test_as_strided_is_a_view_and_doc_example():
    x = paddle.rand([2, 4, 6], dtype="float32")
    out = paddle.as_strided(x, [8, 6], [6, 1])
    assert out.shape == [8, 6]
    np.testing.assert_array_equal(out.numpy(), x.numpy().reshape(8, 6))
    base = paddle.zeros([6])
    win = paddle.as_strided(base, [2, 2], [2, 1], 1)
    base[1] = 5.0
    np.testing.assert_array_equal(win.numpy(), [[5, 0], [0, 0]])
    t = paddle.to_tensor(np.arange(12.0).reshape(3, 4)).transpose([1, 0])  # not contiguous
    np.testing.assert_array_equal(paddle.as_strided(t, [2, 3], [1, 4]).numpy(),
                                  np.arange(12.0).reshape(3, 4).T.ravel()[np.add.outer([0, 1], [0, 4, 8])])


def test_records_bad_input():
    f = paddle.ones([2, 3])
    raises(ValueError, "(InvalidArgument) as_strided: argument 'x' expected at least 9 elements for "
           "dims [2, 2], stride [1, 3] and offset 4, got 6 elements (shape [2, 3])",
           paddle.as_strided, f, [2, 2], [1, 3], 4)
    raises(ValueError, "(InvalidArgument) as_strided: argument 'stride' expected one stride per dim "
           "(2 dims)", paddle.as_strided, f, [2, 2], [1])
    raises(ValueError, "(InvalidArgument) as_strided: argument 'stride' expected strides >= 0",
           paddle.as_strided, f, [2], [-1])
    raises(ValueError, "(InvalidArgument) as_strided: argument 'offset' expected an offset >= 0",
           paddle.as_strided, f, [2], [1], -1)
    raises(ValueError, "(InvalidArgument) as_strided: argument 'dims' expected sizes >= 0",
           paddle.as_strided, f, [-2], [1])
    raises(RuntimeError, "(NotFound) gcd", paddle.gcd, f, f)
    raises(RuntimeError, "(NotFound) logit", paddle.logit, paddle.to_tensor([1, 2]))
    raises(TypeError, "(InvalidType) frac: argument 'x'", paddle.frac, paddle.to_tensor([True]))
    raises(ValueError, "(InvalidArgument) heaviside", paddle.heaviside, f, paddle.ones([4]))
    raises(ValueError, "(InvalidArgument) renorm: argument 'p' expected a number > 0, got 0",
           paddle.renorm, f, 0, 0, 1.0)
    raises(ValueError, "(InvalidArgument) renorm: argument 'max_norm' expected a number >= 0, got -1",
           paddle.renorm, f, 2, 0, -1)
    raises(ValueError, "(InvalidArgument) renorm: argument 'axis' expected an axis in [-2, 1], got 2",
           paddle.renorm, f, 2, 2, 1.0)


# signatures, methods, errors ------------------------------------------------------------------
SIGNATURES = {
    "diag": "(x, offset=0, padding_value=0, name=None)",
    "diagflat": "(x, offset=0, name=None)",
    "diag_embed": "(input, offset=0, dim1=-2, dim2=-1)",
    "mv": "(x, vec, name=None)",
    "kron": "(x, y, name=None)",
    "cross": "(x, y, axis=9, name=None)",
    "trace": "(x, offset=0, axis1=0, axis2=1, name=None)",
    "tensordot": "(x, y, axes=2, name=None)",
    "einsum": "(equation, *operands)",
    "cdist": "(x, y, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary', name=None)",
    "rot90": "(x, k=1, axes=[0, 1], name=None)",
    "diff": "(x, n=1, axis=-1, prepend=None, append=None, name=None)",
    "renorm": "(x, p, axis, max_norm)",
    "renorm_": "(x, p, axis, max_norm)",
    "frac": "(x, name=None)",
    "logit": "(x, eps=None, name=None)",
    "logit_": "(x, eps=None, name=None)",
    "heaviside": "(x, y, name=None)",
    "gcd": "(x, y, name=None)",
    "lcm": "(x, y, name=None)",
    "as_strided": "(x, shape, stride, offset=0, name=None)",
}


def test_signatures_and_methods():
    for name, sig in SIGNATURES.items():
        fn = getattr(paddle, name)
        assert inspect.isfunction(fn), name
        assert str(inspect.signature(fn)) == sig, name
        if name != "einsum":
            assert getattr(paddle.Tensor, name) is fn, name


def test_bad_input():
    v, m = paddle.ones([3]), paddle.ones([2, 3])
    raises(ValueError, "(InvalidArgument) diag: argument 'x' expected a 0-D, 1-D or 2-D tensor, "
           "got shape [2, 2, 2]", paddle.diag, paddle.ones([2, 2, 2]))
    raises(TypeError, "(InvalidType) diag: argument 'x' expected a Tensor", paddle.diag, [1, 2])
    raises(ValueError, "(InvalidArgument) diag_embed: argument 'input' expected a tensor of rank >= 1",
           paddle.diag_embed, paddle.ones([]))
    raises(ValueError, "(InvalidArgument) diag_embed: argument 'dim2' expected a dim other than dim1",
           paddle.diag_embed, m, 0, 1, -2)
    raises(ValueError, "(InvalidArgument) diag_embed: argument 'dim1' expected an axis in [-3, 2], "
           "got 3", paddle.diag_embed, m, 0, 3, 1)
    raises(ValueError, "(InvalidArgument) trace: argument 'x' expected a tensor of rank >= 2",
           paddle.trace, v)
    raises(ValueError, "(InvalidArgument) trace: argument 'axis2' expected an axis other than axis1",
           paddle.trace, m, 0, 1, -1)
    raises(ValueError, "(InvalidArgument) trace: argument 'axis1' expected an axis in [-2, 1], got 2",
           paddle.trace, m, 0, 2, 0)
    raises(ValueError, "(InvalidArgument) mv: argument 'x' expected a 2-D tensor, got shape [3]",
           paddle.mv, v, v)
    raises(ValueError, "(InvalidArgument) mv: argument 'vec' expected a 1-D tensor", paddle.mv, m, m)
    raises(ValueError, "(InvalidArgument) mv: argument 'vec' expected 3 elements", paddle.mv, m,
           paddle.ones([2]))
    raises(TypeError, "(InvalidType) kron: argument 'y' expected a Tensor", paddle.kron, v, 2)
    raises(ValueError, "(InvalidArgument) cross: argument 'y' expected x's shape [2, 3], got [3]",
           paddle.cross, m, v)
    raises(ValueError, "(InvalidArgument) cross: argument 'x' expected a dim of size 3, got shape "
           "[2, 2]", paddle.cross, paddle.ones([2, 2]), paddle.ones([2, 2]))
    raises(ValueError, "(InvalidArgument) cross: argument 'axis' expected a dim of size 3, got dim 0 "
           "of size 2", paddle.cross, m, m, 0)
    raises(ValueError, "(InvalidArgument) tensordot: argument 'axes' expected contracted dims of "
           "equal size (or 1), got x dim 1 of size 3 and y dim 0 of size 2", paddle.tensordot, m, m, 1)
    raises(ValueError, "(InvalidArgument) tensordot: argument 'axes' expected an int in [0, 2]",
           paddle.tensordot, m, m, 3)
    raises(ValueError, "(InvalidArgument) tensordot: argument 'axes' expected distinct axes",
           paddle.tensordot, m, m, [[0, 0], [0, 1]])
    raises(ValueError, "(InvalidArgument) tensordot: argument 'axes' expected an axis in [-2, 1]",
           paddle.tensordot, m, m, [[5], [0]])
    raises(TypeError, "(InvalidType) tensordot: argument 'axes' expected an int, a list/tuple or a "
           "Tensor", paddle.tensordot, m, m, 1.5)
    raises(ValueError, "(InvalidArgument) cdist: argument 'x' expected a tensor of rank >= 2",
           paddle.cdist, v, m)
    raises(ValueError, "(InvalidArgument) cdist: argument 'y' expected 3 columns", paddle.cdist, m,
           paddle.ones([2, 2]))
    raises(ValueError, "(InvalidArgument) cdist: argument 'p' expected a number >= 0, got -1",
           paddle.cdist, m, m, -1)
    raises(ValueError, "(InvalidArgument) cdist: argument 'compute_mode' expected one of",
           paddle.cdist, m, m, 2.0, "mm")
    raises(ValueError, "(InvalidArgument) rot90: argument 'axes' expected 2 axes, got [0]",
           paddle.rot90, m, 1, [0])
    raises(ValueError, "(InvalidArgument) rot90: argument 'x' expected a tensor of rank >= 2",
           paddle.rot90, v)
    raises(ValueError, "(InvalidArgument) rot90: argument 'axes' expected two different axes",
           paddle.rot90, m, 1, [1, -1])
    raises(ValueError, "(InvalidArgument) rot90: argument 'axes' expected an axis in [-2, 1], got 2",
           paddle.rot90, m, 1, [0, 2])
    raises(ValueError, "(InvalidArgument) diff: argument 'x' expected a tensor of rank >= 1",
           paddle.diff, paddle.ones([]))
    raises(ValueError, "(InvalidArgument) diff: argument 'n' expected an int >= 0, got -1",
           paddle.diff, v, -1)
    raises(ValueError, "(InvalidArgument) diff: argument 'prepend' expected x's rank 2, got shape [3]",
           paddle.diff, m, 1, -1, v)
    raises(ValueError, "(InvalidArgument) diff: argument 'axis' expected an axis in [-1, 0], got 1",
           paddle.diff, v, 1, 1)
