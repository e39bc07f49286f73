"""paddle.nanmedian (modes, axes, keepdim, indices, gradients) against numpy/torch and Paddle's
documented examples; Tensor.bernoulli_ / paddle.bernoulli_ (float and tensor p, reproducibility,
frequencies); the bad-input messages."""
import warnings

import numpy as np
import pytest
import torch

import skiff as paddle


def test_nanmedian_paddle_examples():
    x = paddle.to_tensor([[float("nan"), 2., 3.], [0., 1., 2.]])
    assert x.nanmedian().numpy() == 2.0
    np.testing.assert_array_equal(x.nanmedian(0).numpy(), [0., 1.5, 2.5])
    np.testing.assert_array_equal(x.nanmedian(0, keepdim=True).numpy(), [[0., 1.5, 2.5]])
    assert x.nanmedian((0, 1)).numpy() == 2.0
    assert x.nanmedian(mode="min").numpy() == 2.0
    v, i = x.nanmedian(0, mode="min")
    np.testing.assert_array_equal(v.numpy(), [0., 1., 2.])
    np.testing.assert_array_equal(i.numpy(), [1, 1, 1])
    v, i = x.nanmedian(1, mode="min")
    np.testing.assert_array_equal(v.numpy(), [2., 1.])
    np.testing.assert_array_equal(i.numpy(), [1, 1])
    assert x.nanmedian((0, 1), mode="min").numpy() == 2.0
    assert i.dtype == paddle.int64 and v.dtype == paddle.float32


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, [0, 2], (1, 2)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_nanmedian_avg_matches_numpy(dtype, axis, keepdim):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 5, 6)).astype(dtype)
    a[rng.random(a.shape) < 0.3] = np.nan
    a[0, :, 0] = np.nan  # a slice of NaNs only
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy warns on the all-NaN slice
        ref = np.nanmedian(a, axis=np_axis, keepdims=keepdim)
    out = paddle.nanmedian(paddle.to_tensor(a), axis, keepdim)
    assert out.dtype == getattr(paddle, dtype)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_nanmedian_min_matches_torch(axis):
    rng = np.random.default_rng(1)
    a = rng.integers(0, 6, (5, 7)).astype("float64")  # ties
    a[rng.random(a.shape) < 0.25] = np.nan
    v, i = paddle.nanmedian(paddle.to_tensor(a), axis, mode="min")
    tv, _ = torch.nanmedian(torch.tensor(a), axis)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    picked = np.take_along_axis(a, np.expand_dims(i.numpy(), axis), axis).squeeze(axis)
    np.testing.assert_array_equal(picked, v.numpy())  # the index points at the median value


def test_nanmedian_all_nan_and_integers():
    z = paddle.to_tensor([[float("nan")] * 3, [1., 2., 3.]])
    v, i = paddle.nanmedian(z, 1, mode="min")
    assert np.isnan(v.numpy()[0]) and v.numpy()[1] == 2.0
    np.testing.assert_array_equal(i.numpy(), [-1, 1])
    assert np.isnan(paddle.nanmedian(z, 1).numpy()[0])
    y = paddle.to_tensor([[3, 1, 4, 2], [5, -7, -2, 3], [-5, -4, 9, 9]])
    out = paddle.nanmedian(y, 1)
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), [2, 0, 2])  # (a + b) / 2 toward zero, as Paddle
    np.testing.assert_array_equal(paddle.nanmedian(y, 1, mode="min")[0].numpy(), [2, -2, -4])
    y32 = paddle.to_tensor([[1, 2, 3]], dtype="int32")
    assert paddle.nanmedian(y32).dtype == paddle.int32


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mode", ["avg", "min"])
def test_nanmedian_gradient_matches_torch(dtype, mode):
    a = np.array([[1.0, np.nan, 3.0, 7.0, 2.0], [4.0, 5.0, np.nan, np.nan, 0.5],
                  [np.nan] * 5], dtype=dtype)
    x = paddle.to_tensor(a)
    x.stop_gradient = False
    out = paddle.nanmedian(x, 1, mode=mode)
    out = out[0] if mode == "min" else out
    paddle.nansum(out * paddle.to_tensor(np.array([1.0, 2.0, 3.0], dtype=dtype))).backward()
    g = x.grad.numpy()
    if mode == "avg":  # row 0: 2 and 3 share the gradient; row 1: 4 (odd count) takes it
        expected = np.array([[0, 0, 0.5, 0, 0.5], [2.0, 0, 0, 0, 0], [0] * 5], dtype=dtype)
    else:
        tx = torch.tensor(a, requires_grad=True)
        tv, _ = torch.nanmedian(tx, 1)
        (torch.nan_to_num(tv) * torch.tensor([1.0, 2.0, 3.0], dtype=tx.dtype)).sum().backward()
        expected = tx.grad.numpy()
    np.testing.assert_allclose(g, expected)


def test_nanmedian_bad_inputs():
    x = paddle.ones([2, 3])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) nanmedian: argument 'mode' expected 'avg' or 'min'"):
        paddle.nanmedian(x, mode="max")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) nanmedian: argument 'axis' expected a non-empty list"):
        paddle.nanmedian(x, [])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) nanmedian: argument 'axis' expected an int in \[-2, 2\)"):
        paddle.nanmedian(x, 2)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) nanmedian: argument 'axis' expected distinct axes"):
        paddle.nanmedian(x, [0, -2])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) nanmedian: argument 'x' expected a non-empty tensor"):
        paddle.nanmedian(paddle.ones([0, 3]))
    with pytest.raises(TypeError, match=r"\(InvalidType\) nanmedian: argument 'x' expected a Tensor"):
        paddle.nanmedian(np.ones(3))
    with pytest.raises(TypeError, match=r"\(InvalidType\) nanmedian: argument 'x' expected float16"):
        paddle.nanmedian(paddle.ones([3], dtype="bool"))
    with pytest.raises(TypeError, match=r"\(InvalidType\) nanmedian: argument 'axis' expected an int"):
        paddle.nanmedian(x, 1.5)


def test_median_min_mode_paddle_examples():
    x = paddle.arange(12).reshape([3, 4])
    y5 = paddle.median(x, mode="min")
    assert y5.dtype == paddle.int64 and int(y5) == 5
    v, i = paddle.median(x, axis=1, mode="min")
    np.testing.assert_array_equal(v.numpy(), [1, 5, 9])
    np.testing.assert_array_equal(i.numpy(), [1, 1, 1])


def test_bernoulli_inplace_paddle_example_shapes():
    paddle.seed(200)
    x = paddle.randn([3, 4])
    out = x.bernoulli_()
    assert out is x and x.shape == [3, 4] and x.dtype == paddle.float32
    assert set(np.unique(x.numpy())) <= {0.0, 1.0}
    x = paddle.randn([3, 4])
    p = paddle.to_tensor([[-0.5], [2.0], [0.5]])  # out-of-range p: all zeros / all ones
    x.bernoulli_(p)
    np.testing.assert_array_equal(x.numpy()[:2], [[0.0] * 4, [1.0] * 4])


def test_bernoulli_inplace_frequencies_and_seed():
    x = paddle.zeros([200000], dtype="float64")
    paddle.seed(7)
    paddle.bernoulli_(x, 0.3)
    first = x.numpy().copy()
    assert abs(first.mean() - 0.3) < 0.005  # success probability p, as documented
    paddle.seed(7)
    paddle.bernoulli_(x, 0.3)
    np.testing.assert_array_equal(x.numpy(), first)
    p = paddle.to_tensor(np.array([0.1, 0.9], dtype="float32"))
    y = paddle.zeros([100000, 2], dtype="int64")
    y.bernoulli_(p)
    assert y.dtype == paddle.int64
    np.testing.assert_allclose(y.numpy().mean(0), [0.1, 0.9], atol=0.01)


def test_bernoulli_inplace_bad_inputs():
    x = paddle.zeros([2, 3])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) bernoulli_: argument 'p' expected a shape that broadcasts"):
        x.bernoulli_(paddle.ones([3, 3]))
    with pytest.raises(TypeError, match=r"\(InvalidType\) bernoulli_: argument 'p' expected a floating point tensor"):
        x.bernoulli_(paddle.ones([3], dtype="int64"))
    with pytest.raises(TypeError, match=r"\(InvalidType\) bernoulli_: argument 'p' expected a float or a Tensor"):
        x.bernoulli_("0.5")
    with pytest.raises(TypeError, match=r"\(InvalidType\) bernoulli_: argument 'x' expected a Tensor"):
        paddle.bernoulli_(np.zeros(3))
