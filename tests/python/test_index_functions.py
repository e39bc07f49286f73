"""paddle.take, index_fill(_), masked_scatter(_), vander and combinations against numpy/torch,
forward and gradients, Paddle's documented examples, and the bad-input messages."""
import itertools

import numpy as np
import pytest
import torch

import skiff as paddle


def test_take_paddle_examples():
    x_int = paddle.arange(0, 12).reshape([3, 4])
    x_float = x_int.astype(paddle.float64)
    idx_pos = paddle.arange(4, 10).reshape([2, 3])
    idx_neg = paddle.arange(-2, 4).reshape([2, 3])
    idx_err = paddle.arange(-2, 13).reshape([3, 5])
    np.testing.assert_array_equal(paddle.take(x_int, idx_pos).numpy(), [[4, 5, 6], [7, 8, 9]])
    np.testing.assert_array_equal(paddle.take(x_int, idx_neg).numpy(), [[10, 11, 0], [1, 2, 3]])
    np.testing.assert_array_equal(paddle.take(x_float, idx_pos).numpy(), [[4., 5., 6.], [7., 8., 9.]])
    np.testing.assert_array_equal(x_int.take(idx_pos).numpy(), [[4, 5, 6], [7, 8, 9]])
    np.testing.assert_array_equal(paddle.take(x_int, idx_err, mode="wrap").numpy(),
                                  [[10, 11, 0, 1, 2], [3, 4, 5, 6, 7], [8, 9, 10, 11, 0]])
    np.testing.assert_array_equal(paddle.take(x_int, idx_err, mode="clip").numpy(),
                                  [[0, 0, 0, 1, 2], [3, 4, 5, 6, 7], [8, 9, 10, 11, 11]])


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_take_matches_numpy_and_gradient(mode, dtype):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4)).astype(dtype)
    idx = rng.integers(-12, 12, (5, 2)) if mode == "raise" else rng.integers(-30, 30, (5, 2))
    x = paddle.to_tensor(a)
    x.stop_gradient = False
    out = paddle.take(x, paddle.to_tensor(idx, dtype="int32"), mode)
    np.testing.assert_array_equal(out.numpy(), np.take(a, idx, mode=mode))
    out.sum().backward()
    expected = np.zeros(12, dtype)
    np.add.at(expected, np.ravel_multi_index(np.unravel_index(
        np.take(np.arange(12), idx, mode=mode).ravel(), (12,)), (12,)), 1.0)
    np.testing.assert_array_equal(x.grad.numpy(), expected.reshape(3, 4))


def test_take_bad_inputs():
    x = paddle.arange(6)
    with pytest.raises(IndexError, match=r"\(OutOfRange\) take: argument 'index' expected values in \[-6, 6\)"):
        paddle.take(x, paddle.to_tensor([6]))
    with pytest.raises(IndexError, match=r"\(OutOfRange\) take: argument 'index' expected values in \[-6, 6\).*got -7"):
        paddle.take(x, paddle.to_tensor([-7]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) take: argument 'mode' expected one of"):
        paddle.take(x, paddle.to_tensor([0]), mode="nearest")
    with pytest.raises(TypeError, match=r"\(InvalidType\) take: argument 'index' expected an int32 or int64"):
        paddle.take(x, paddle.to_tensor([0.0]))
    with pytest.raises(TypeError, match=r"\(InvalidType\) take: argument 'x' expected a Tensor"):
        paddle.take([1, 2], paddle.to_tensor([0]))


def test_index_fill_paddle_example():
    x = paddle.to_tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype="int64")
    index = paddle.to_tensor([0, 2], dtype="int32")
    np.testing.assert_array_equal(paddle.index_fill(x, index, 0, -1).numpy(),
                                  [[-1, -1, -1], [4, 5, 6], [-1, -1, -1]])
    np.testing.assert_array_equal(paddle.index_fill(x, index, 1, -1).numpy(),
                                  [[-1, 2, -1], [-1, 5, -1], [-1, 8, -1]])
    np.testing.assert_array_equal(x.numpy(), [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    out = x.index_fill_(index, 1, 7)
    assert out is x
    np.testing.assert_array_equal(x.numpy(), [[7, 2, 7], [7, 5, 7], [7, 8, 7]])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_index_fill_matches_torch_with_gradients(dtype, axis):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 4, 5)).astype(dtype)
    idx = np.array([1, -1, 1])
    x = paddle.to_tensor(a)
    x.stop_gradient = False
    v = paddle.to_tensor(np.array(2.5, dtype=dtype))
    v.stop_gradient = False
    out = paddle.index_fill(x, paddle.to_tensor(idx), axis, v)
    n = a.shape[axis]
    ref = torch.tensor(a).index_fill(axis, torch.tensor(idx % n), 2.5)
    np.testing.assert_array_equal(out.numpy(), ref.numpy())
    g = rng.standard_normal(a.shape).astype(dtype)
    (out * paddle.to_tensor(g)).sum().backward()
    filled = ref.numpy() == 2.5
    np.testing.assert_allclose(x.grad.numpy(), np.where(filled, 0, g))
    np.testing.assert_allclose(v.grad.numpy(), g[filled].sum(), rtol=1e-5)


def test_index_fill_bad_inputs():
    x = paddle.ones([2, 3])
    with pytest.raises(IndexError, match=r"\(OutOfRange\) index_fill: argument 'index' expected values in \[-3, 3\)"):
        paddle.index_fill(x, paddle.to_tensor([3]), 1, 0.0)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) index_fill: argument 'axis' expected an int in \[-2, 2\)"):
        paddle.index_fill(x, paddle.to_tensor([0]), 2, 0.0)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) index_fill: argument 'value' expected a number or a 0-D"):
        paddle.index_fill(x, paddle.to_tensor([0]), 0, paddle.ones([2]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) index_fill: argument 'index' expected a 0-D or 1-D"):
        paddle.index_fill(x, paddle.to_tensor([[0]]), 0, 1.0)
    with pytest.raises(TypeError, match=r"\(InvalidType\) index_fill: argument 'index' expected an int32 or int64"):
        paddle.index_fill(x, paddle.to_tensor([0.0]), 0, 1.0)
    w = paddle.ones([2, 3])
    w.stop_gradient = False
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) index_fill_: argument 'x' expected a tensor that does not require grad"):
        w.index_fill_(paddle.to_tensor([0]), 0, 1.0)
    with paddle.no_grad():
        w.index_fill_(paddle.to_tensor([0]), 0, 5.0)
    np.testing.assert_array_equal(w.numpy()[0], [5.0] * 3)


def test_masked_scatter_paddle_example_and_torch():
    x = paddle.to_tensor([[0.1, 0.2], [0.3, 0.4]])
    mask = paddle.to_tensor([[True, True], [False, False]])
    value = paddle.to_tensor([1, 2, 3, 4, 5], dtype="float32")
    np.testing.assert_allclose(paddle.masked_scatter(x, mask, value).numpy(), [[1, 2], [0.3, 0.4]])
    rng = np.random.default_rng(2)
    for mshape in [(3, 4), (1, 4), (3, 1), (4,)]:
        a = rng.standard_normal((3, 4))
        m = rng.random(mshape) < 0.5
        v = rng.standard_normal(20)
        ref = torch.tensor(a).masked_scatter(torch.tensor(m), torch.tensor(v)).numpy()
        out = paddle.masked_scatter(paddle.to_tensor(a), paddle.to_tensor(m), paddle.to_tensor(v))
        np.testing.assert_array_equal(out.numpy(), ref)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_masked_scatter_gradients_match_torch(dtype):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4)).astype(dtype)
    m = rng.random((3, 4)) < 0.5
    v = rng.standard_normal(14).astype(dtype)
    g = rng.standard_normal((3, 4)).astype(dtype)
    x, val = paddle.to_tensor(a), paddle.to_tensor(v)
    x.stop_gradient = val.stop_gradient = False
    (paddle.masked_scatter(x, paddle.to_tensor(m), val) * paddle.to_tensor(g)).sum().backward()
    tx, tv = torch.tensor(a, requires_grad=True), torch.tensor(v, requires_grad=True)
    (tx.masked_scatter(torch.tensor(m), tv) * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())
    np.testing.assert_allclose(val.grad.numpy(), tv.grad.numpy())


def test_masked_scatter_inplace_and_bad_inputs():
    x = paddle.zeros([2, 2])
    out = x.masked_scatter_(paddle.to_tensor([True, False]), paddle.to_tensor([7.0, 8.0]))
    assert out is x
    np.testing.assert_array_equal(x.numpy(), [[7.0, 0.0], [8.0, 0.0]])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) masked_scatter: argument 'value' expected at least 2 elements"):
        paddle.masked_scatter(x, paddle.to_tensor([True, False]), paddle.to_tensor([1.0]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) masked_scatter: argument 'mask' expected a shape that broadcasts"):
        paddle.masked_scatter(x, paddle.to_tensor([True, False, True]), paddle.ones([4]))
    with pytest.raises(TypeError, match=r"\(InvalidType\) masked_scatter: argument 'mask' expected a bool tensor"):
        paddle.masked_scatter(x, paddle.ones([2, 2]), paddle.ones([4]))
    with pytest.raises(TypeError, match=r"\(InvalidType\) masked_scatter: argument 'value' expected dtype"):
        paddle.masked_scatter(x, paddle.to_tensor([True, False]), paddle.ones([4], dtype="float64"))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n,increasing", [(None, False), (4, True), (1, False), (0, True), (2, False)])
def test_vander_matches_numpy_and_torch(dtype, n, increasing):
    a = np.array([1.5, -2.0, 3.0], dtype=dtype)
    x = paddle.to_tensor(a)
    x.stop_gradient = False
    out = paddle.vander(x, n, increasing)
    np.testing.assert_allclose(out.numpy(), np.vander(a, n, increasing), rtol=1e-6)
    if n is None or n > 1:  # n <= 1 does not depend on x
        out.sum().backward()
        tx = torch.tensor(a, requires_grad=True)
        torch.linalg.vander(tx, N=3 if n is None else n).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5)
    ints = paddle.vander(paddle.to_tensor([2, 3]), 3)
    np.testing.assert_array_equal(ints.numpy(), [[4, 2, 1], [9, 3, 1]])


def test_vander_bad_inputs():
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) vander: argument 'x' expected a 1-D tensor"):
        paddle.vander(paddle.ones([2, 2]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) vander: argument 'n' expected a non-negative int"):
        paddle.vander(paddle.ones([2]), -1)


@pytest.mark.parametrize("r", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("with_replacement", [False, True])
def test_combinations_match_torch(r, with_replacement):
    a = np.array([1.0, 2.0, 3.0, 4.0])
    out = paddle.combinations(paddle.to_tensor(a), r, with_replacement)
    ref = torch.combinations(torch.tensor(a), r, with_replacement).numpy()
    assert list(out.shape) == list(ref.shape)
    np.testing.assert_array_equal(out.numpy(), ref)


def test_combinations_gradient_and_bad_inputs():
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    x.stop_gradient = False
    paddle.combinations(x, 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 2.0])
    assert len(list(itertools.combinations(range(3), 2))) == 3
    with pytest.raises(TypeError, match=r"\(InvalidType\) combinations: argument 'x' expected a 1-D tensor"):
        paddle.combinations(paddle.ones([2, 2]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) combinations: argument 'r' expected a non-negative int"):
        paddle.combinations(x, -1)
