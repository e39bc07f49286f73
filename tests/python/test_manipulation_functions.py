"""atleast_1d/2d/3d, hstack, vstack, dstack, column_stack, row_stack, hsplit, vsplit, dsplit,
unflatten, view_as, unstack, slice_scatter, select_scatter, diagonal_scatter, index_sample,
multiplex, and stanh, ldexp(_), frexp, reduce_as against numpy/torch (forward and gradients),
Paddle's documented examples, and the bad-input messages."""
import numpy as np
import pytest
import torch

import skiff as paddle


def _pt(a, grad=False):
    t = paddle.to_tensor(a)
    t.stop_gradient = not grad
    return t


def test_atleast_and_stacks_match_numpy():
    arrays = [np.array(1.0), np.arange(3.0), np.arange(6.0).reshape(2, 3)]
    for fn, ref in ((paddle.atleast_1d, np.atleast_1d), (paddle.atleast_2d, np.atleast_2d),
                    (paddle.atleast_3d, np.atleast_3d)):
        outs = fn(*[paddle.to_tensor(a) for a in arrays])
        for o, r in zip(outs, ref(*arrays)):
            np.testing.assert_array_equal(o.numpy(), r)
        assert isinstance(fn(paddle.to_tensor(arrays[0])), paddle.Tensor)
    rng = np.random.default_rng(0)
    for fn, ref, shapes in ((paddle.hstack, np.hstack, [(2, 3), (2, 1)]),
                            (paddle.hstack, np.hstack, [(3,), (2,)]),
                            (paddle.vstack, np.vstack, [(3,), (2, 3)]),
                            (paddle.row_stack, np.vstack, [(2, 3), (1, 3)]),
                            (paddle.dstack, np.dstack, [(2, 3), (2, 3, 2)]),
                            (paddle.column_stack, np.column_stack, [(3,), (3, 2)])):
        arrs = [rng.standard_normal(s) for s in shapes]
        ts = [_pt(a, True) for a in arrs]
        out = fn(ts)
        np.testing.assert_array_equal(out.numpy(), ref(arrs))
        out.sum().backward()
        for t, a in zip(ts, arrs):
            np.testing.assert_array_equal(t.grad.numpy(), np.ones_like(a))


def test_splits_unflatten_view_as_unstack():
    a = np.arange(24.0).reshape(2, 6, 2)
    x = paddle.to_tensor(a)
    for fn, ref, arg in ((paddle.hsplit, np.hsplit, 3), (paddle.hsplit, np.hsplit, [1, 4]),
                         (paddle.vsplit, np.vsplit, 2), (paddle.dsplit, np.dsplit, [1])):
        for o, r in zip(fn(x, arg), ref(a, arg)):
            np.testing.assert_array_equal(o.numpy(), r)
    for o, r in zip(paddle.hsplit(paddle.arange(6), 2), np.hsplit(np.arange(6), 2)):
        np.testing.assert_array_equal(o.numpy(), r)
    assert paddle.unflatten(x, 1, [2, -1]).shape == [2, 2, 3, 2]
    assert x.unflatten(-1, (1, 2)).shape == [2, 6, 1, 2]
    assert paddle.view_as(x, paddle.ones([4, 6])).shape == [4, 6]
    parts = paddle.unstack(x, 1)
    assert len(parts) == 6 and parts[0].shape == [2, 2]
    np.testing.assert_array_equal(parts[3].numpy(), a[:, 3])


def test_scatters_paddle_example_and_torch():
    x = paddle.zeros((3, 9))
    res = paddle.slice_scatter(x, paddle.ones((3, 2)), axes=[1], starts=[2], ends=[6], strides=[2])
    expected = np.zeros((3, 9))
    expected[:, 2:6:2] = 1
    np.testing.assert_array_equal(res.numpy(), expected)
    res = paddle.slice_scatter(x, paddle.ones((3, 1)), axes=[1], starts=[2], ends=[6], strides=[2])
    np.testing.assert_array_equal(res.numpy(), expected)
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 5))
    src = rng.standard_normal((2, 5))
    ref = torch.slice_scatter(torch.tensor(a), torch.tensor(src), 0, 1, 4, 2).numpy()
    np.testing.assert_array_equal(paddle.slice_scatter(paddle.to_tensor(a), paddle.to_tensor(src),
                                                       [0], [1], [4], [2]).numpy(), ref)
    v = rng.standard_normal(4)
    ref = torch.select_scatter(torch.tensor(a), torch.tensor(v), 1, 2).numpy()
    np.testing.assert_array_equal(paddle.select_scatter(paddle.to_tensor(a), paddle.to_tensor(v),
                                                        1, 2).numpy(), ref)
    d = rng.standard_normal(4)
    ref = torch.diagonal_scatter(torch.tensor(a), torch.tensor(d), 1).numpy()
    np.testing.assert_array_equal(paddle.diagonal_scatter(paddle.to_tensor(a), paddle.to_tensor(d),
                                                          1).numpy(), ref)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_scatter_gradients_match_torch(dtype):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 4)).astype(dtype)
    g = rng.standard_normal((3, 4)).astype(dtype)
    cases = [
        (lambda x, v: paddle.select_scatter(x, v, 0, 1), lambda x, v: torch.select_scatter(x, v, 0, 1),
         (4,)),
        (lambda x, v: paddle.diagonal_scatter(x, v, -1), lambda x, v: torch.diagonal_scatter(x, v, -1),
         (2,)),
        (lambda x, v: paddle.slice_scatter(x, v, [1], [0], [4], [3]),
         lambda x, v: torch.slice_scatter(x, v, 1, 0, 4, 3), (3, 2)),
    ]
    for ours, theirs, vshape in cases:
        v = rng.standard_normal(vshape).astype(dtype)
        px, pv = _pt(a, True), _pt(v, True)
        (ours(px, pv) * paddle.to_tensor(g)).sum().backward()
        tx, tv = torch.tensor(a, requires_grad=True), torch.tensor(v, requires_grad=True)
        (theirs(tx, tv) * torch.tensor(g)).sum().backward()
        np.testing.assert_allclose(px.grad.numpy(), tx.grad.numpy())
        np.testing.assert_allclose(pv.grad.numpy(), tv.grad.numpy())


def test_index_sample_and_multiplex():
    x = paddle.to_tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])
    index = paddle.to_tensor([[0, 1, 2], [1, 2, 3], [0, 0, 0]], dtype="int32")
    np.testing.assert_array_equal(paddle.index_sample(x, index).numpy(),
                                  [[1, 2, 3], [6, 7, 8], [9, 9, 9]])
    x.stop_gradient = False
    paddle.index_sample(x, index).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1, 1, 1, 0], [0, 1, 1, 1], [3, 0, 0, 0]])
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    b = paddle.to_tensor([[5.0, 6.0], [7.0, 8.0]])
    a.stop_gradient = b.stop_gradient = False
    out = paddle.multiplex([a, b], paddle.to_tensor([[1], [0]], dtype="int32"))
    np.testing.assert_array_equal(out.numpy(), [[5.0, 6.0], [3.0, 4.0]])
    out.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [[0, 0], [1, 1]])
    np.testing.assert_array_equal(b.grad.numpy(), [[1, 1], [0, 0]])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_stanh_ldexp_frexp_reduce_as(dtype):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4)).astype(dtype)
    x = _pt(a, True)
    out = paddle.stanh(x, 0.5, 2.0)
    np.testing.assert_allclose(out.numpy(), 2.0 * np.tanh(0.5 * a), rtol=1e-6)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), (1 - np.tanh(0.5 * a) ** 2), rtol=1e-5)
    e = rng.integers(-4, 5, (3, 4))
    np.testing.assert_allclose(paddle.ldexp(paddle.to_tensor(a), paddle.to_tensor(e)).numpy(),
                               np.ldexp(a, e), rtol=1e-6)
    vals = np.concatenate([a.ravel() * 1e3, [0.0, 8.0, -0.5, 2.0 ** -30]]).astype(dtype)
    m, ex = paddle.frexp(paddle.to_tensor(vals))
    rm, rex = np.frexp(vals)
    np.testing.assert_array_equal(m.numpy(), rm)
    np.testing.assert_array_equal(ex.numpy(), rex)
    assert m.dtype == ex.dtype == getattr(paddle, dtype)
    y = paddle.to_tensor(a)
    assert y.ldexp_(paddle.to_tensor(np.ones((3, 4), "int64"))) is y
    np.testing.assert_allclose(y.numpy(), 2 * a, rtol=1e-6)
    r = paddle.reduce_as(paddle.to_tensor(np.ones((2, 3, 4), dtype)), paddle.ones([3, 1], dtype))
    np.testing.assert_array_equal(r.numpy(), np.full((3, 1), 8.0))


def test_bad_inputs():
    x = paddle.ones([2, 6])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) hsplit: argument 'num_or_indices' expected a positive divisor of 6"):
        paddle.hsplit(x, 4)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) dsplit: argument 'x' expected a tensor of rank >= 3"):
        paddle.dsplit(x, 2)
    with pytest.raises(TypeError, match=r"\(InvalidType\) vsplit: argument 'num_or_indices' expected an int, a list"):
        paddle.vsplit(x, 1.5)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) unflatten: argument 'shape' expected sizes whose product is 6"):
        paddle.unflatten(x, 1, [4, -1])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) view_as: argument 'other' expected 12 elements"):
        paddle.view_as(x, paddle.ones([5]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) unstack: argument 'num' expected 2"):
        paddle.unstack(x, 0, 3)
    with pytest.raises(TypeError, match=r"\(InvalidType\) hstack: argument 'x' expected a non-empty list"):
        paddle.hstack(x)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) slice_scatter: argument 'value' expected a shape that broadcasts to \[2, 2\]"):
        paddle.slice_scatter(x, paddle.ones([3, 2]), [1], [0], [4], [2])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) slice_scatter: argument 'starts' expected as many entries"):
        paddle.slice_scatter(x, paddle.ones([1]), [1], [0, 1], [4], [2])
    with pytest.raises(IndexError, match=r"\(OutOfRange\) select_scatter: argument 'index' expected an int in \[-2, 2\)"):
        paddle.select_scatter(x, paddle.ones([6]), 0, 2)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) select_scatter: argument 'values' expected shape \[6\]"):
        paddle.select_scatter(x, paddle.ones([5]), 0, 1)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) diagonal_scatter: argument 'y' expected shape \[2\]"):
        paddle.diagonal_scatter(x, paddle.ones([3]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) diagonal_scatter: argument 'axis2' expected an axis other than axis1"):
        paddle.diagonal_scatter(x, paddle.ones([2]), 0, 1, -1)
    with pytest.raises(IndexError, match=r"\(OutOfRange\) index_sample: argument 'index' expected values in \[0, 6\)"):
        paddle.index_sample(x, paddle.to_tensor([[6], [0]]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) index_sample: argument 'index' expected a 2-D tensor"):
        paddle.index_sample(x, paddle.to_tensor([0, 1]))
    with pytest.raises(IndexError, match=r"\(OutOfRange\) multiplex: argument 'index' expected values in \[0, 2\)"):
        paddle.multiplex([x, x], paddle.to_tensor([[2], [0]]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) multiplex: argument 'inputs\[1\]' expected shape \[2, 6\]"):
        paddle.multiplex([x, paddle.ones([2, 5])], paddle.to_tensor([[1], [0]]))
    with pytest.raises(TypeError, match=r"\(InvalidType\) ldexp: argument 'y' expected an integer tensor"):
        paddle.ldexp(x, x)
    with pytest.raises(TypeError, match=r"\(InvalidType\) frexp: argument 'x' expected a floating point tensor"):
        paddle.frexp(paddle.ones([2], dtype="int64"))
