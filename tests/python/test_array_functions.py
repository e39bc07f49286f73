"""add_n, reverse, scatter_nd, shard_index, crop, index_put(_), unfold, pdist and the attribute
helpers (is_empty, is_integer, is_floating_point, tolist, finfo, iinfo) against numpy/torch,
gradients, Paddle's documented examples and the bad-input messages."""
import numpy as np
import pytest
import torch

import skiff as paddle

RNG = np.random.default_rng(1)


def _leaf(a):
    return paddle.to_tensor(a, stop_gradient=False)


def test_add_n_sum_and_gradient():
    a = [RNG.standard_normal((2, 3)).astype("float32") for _ in range(3)]
    xs = [_leaf(v) for v in a]
    out = paddle.add_n(xs)
    np.testing.assert_allclose(out.numpy(), a[0] + a[1] + a[2], rtol=1e-6)
    (out * out).sum().backward()
    for x in xs:
        np.testing.assert_allclose(x.grad.numpy(), 2 * (a[0] + a[1] + a[2]), rtol=1e-5)
    one = paddle.to_tensor(a[0])
    assert paddle.add_n(one) is one
    with pytest.raises(ValueError, match=r"add_n: argument 'inputs\[1\]' expected shape \[2, 3\] "
                                         r"and dtype float32"):
        paddle.add_n([one, paddle.ones([3])])


def test_reverse():
    a = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(paddle.reverse(paddle.to_tensor(a), 0).numpy(), a[::-1])
    np.testing.assert_array_equal(paddle.to_tensor(a).reverse([0, 1]).numpy(), a[::-1, ::-1])


def test_scatter_nd_paddle_example_and_gradient():
    index = paddle.to_tensor([[1, 1], [0, 1], [1, 3]], dtype="int64")
    u = RNG.standard_normal((3, 9, 10)).astype("float32")
    updates = _leaf(u)
    out = paddle.scatter_nd(index, updates, [3, 5, 9, 10])
    want = torch.zeros(3, 5, 9, 10).index_put_((torch.tensor([1, 0, 1]), torch.tensor([1, 1, 3])),
                                              torch.from_numpy(u), accumulate=True)
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=1e-6)
    out.sum().backward()
    np.testing.assert_array_equal(updates.grad.numpy(), np.ones_like(u))
    dup = paddle.scatter_nd(paddle.to_tensor([[0], [0]]), paddle.to_tensor([1.0, 2.0]), [2])
    np.testing.assert_array_equal(dup.numpy(), [3.0, 0.0])  # repeated indices accumulate


def test_shard_index_paddle_example_and_errors():
    label = paddle.to_tensor([[16], [1]], "int64")
    np.testing.assert_array_equal(paddle.shard_index(label, 20, 2, 0).numpy(), [[-1], [1]])
    np.testing.assert_array_equal(paddle.shard_index(label, 20, 2, 1, ignore_value=99).numpy(),
                                  [[6], [99]])
    with pytest.raises(ValueError, match=r"shard_index: argument 'shard_id' expected a value in "
                                         r"\[0, 2\), got 2"):
        paddle.shard_index(label, 20, 2, 2)
    with pytest.raises(ValueError, match=r"shard_index: argument 'input' expected values in "
                                         r"\[0, 10\), got 16"):
        paddle.shard_index(label, 10, 2, 0)
    with pytest.raises(ValueError, match="expected a last dim of 1"):
        paddle.shard_index(paddle.to_tensor([1, 2]), 20, 2, 0)
    with pytest.raises(TypeError, match="expected an int32 or int64 tensor, got float32"):
        paddle.shard_index(paddle.to_tensor([[1.0]]), 20, 2, 0)


def test_crop_paddle_examples_and_gradient():
    x = paddle.to_tensor([[0, 1, 2, 0, 0], [0, 3, 4, 0, 0], [0, 0, 0, 0, 0]])
    np.testing.assert_array_equal(paddle.crop(x, [2, 2], [0, 1]).numpy(), [[1, 2], [3, 4]])
    a = np.arange(24.0).reshape(2, 3, 4)
    xa = _leaf(a)
    out = paddle.crop(xa, [2, 2, -1], [0, 0, 1])
    np.testing.assert_array_equal(out.numpy(), a[:, :2, 1:])
    out.sum().backward()
    g = np.zeros_like(a)
    g[:, :2, 1:] = 1
    np.testing.assert_array_equal(xa.grad.numpy(), g)
    np.testing.assert_array_equal(paddle.crop(x).numpy(), x.numpy())
    with pytest.raises(ValueError, match=r"crop: dim 1 expected 0 <= offset and offset \+ size <= "
                                         r"5"):
        paddle.crop(x, [2, 4], [0, 2])
    with pytest.raises(ValueError, match="crop: argument 'shape' expected 2 values"):
        paddle.crop(x, [2])


@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_index_put_against_torch(accumulate, dtype):
    a = RNG.standard_normal((4, 3, 2)).astype(dtype)
    v = RNG.standard_normal((3, 2)).astype(dtype)
    i0 = np.array([0, 2, 2] if accumulate else [0, 2, 3])
    x, val = _leaf(a), _leaf(v)
    out = paddle.index_put(x, (paddle.to_tensor(i0),), val, accumulate)
    tx, tv = torch.tensor(a, requires_grad=True), torch.tensor(v, requires_grad=True)
    tout = torch.index_put(tx, (torch.from_numpy(i0),), tv, accumulate)
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-6)
    w = RNG.standard_normal(a.shape).astype(dtype)
    (out * paddle.to_tensor(w)).sum().backward()
    (tout * torch.from_numpy(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(val.grad.numpy(), tv.grad.numpy(), rtol=1e-6)


def test_index_put_two_indices_bool_mask_and_inplace():
    a = np.zeros((3, 3), "float32")
    x = paddle.to_tensor(a)
    out = paddle.index_put(x, (paddle.to_tensor([0, 1]), paddle.to_tensor([2, 0])),
                           paddle.to_tensor(5.0))
    want = a.copy()
    want[[0, 1], [2, 0]] = 5
    np.testing.assert_array_equal(out.numpy(), want)
    mask = paddle.to_tensor([True, False, True])
    y = paddle.to_tensor(a)
    assert y.index_put_((mask,), paddle.to_tensor([1.0, 2.0, 3.0])) is y
    np.testing.assert_array_equal(y.numpy(), [[1, 2, 3], [0, 0, 0], [1, 2, 3]])
    assert y._inplace_version() == 1
    with pytest.raises(TypeError, match=r"index_put: argument 'indices\[0\]' expected an int32, "
                                        r"int64 or bool tensor, got float32"):
        paddle.index_put(x, (paddle.to_tensor([0.0]),), paddle.to_tensor(1.0))
    with pytest.raises(ValueError, match=r"index_put: argument 'value' expected a shape "
                                         r"broadcastable to \[2\]"):
        paddle.index_put(x, (paddle.to_tensor([0, 1]), paddle.to_tensor([2, 0])),
                         paddle.to_tensor([1.0, 2.0, 3.0]))
    leaf = _leaf(a)
    with pytest.raises(RuntimeError, match=r"index_put_: argument 'x' expected a tensor that is "
                                           r"not a leaf requiring grad"):
        leaf.index_put_((mask,), paddle.to_tensor(1.0))


@pytest.mark.parametrize("shape,axis,size,step", [((10,), 0, 3, 2), ((4, 7), 1, 2, 3),
                                                  ((4, 7), 0, 4, 1), ((3, 5, 2), -2, 5, 1)])
def test_unfold_is_torch_unfold(shape, axis, size, step):
    a = RNG.standard_normal(shape).astype("float32")
    x = _leaf(a)
    out = x.unfold(axis, size, step)
    tx = torch.tensor(a, requires_grad=True)
    tout = tx.unfold(axis, size, step)
    np.testing.assert_array_equal(out.numpy(), tout.detach().numpy())
    w = RNG.standard_normal(tout.shape).astype("float32")
    (out * paddle.to_tensor(w)).sum().backward()
    (tout * torch.from_numpy(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    assert paddle.unfold(paddle.to_tensor(a), axis, size, step).shape == list(tout.shape)


def test_unfold_errors():
    x = paddle.ones([4, 5])
    with pytest.raises(ValueError, match=r"unfold: argument 'size' expected a value in \[0, 5\]"):
        x.unfold(1, 6, 1)
    with pytest.raises(ValueError, match="unfold: argument 'step' expected > 0, got 0"):
        x.unfold(0, 2, 0)
    with pytest.raises(ValueError, match=r"unfold: argument 'axis' expected a value in \[-2, 2\)"):
        x.unfold(2, 2, 1)


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, float("inf")])
def test_pdist_against_torch(p):
    a = RNG.standard_normal((5, 3)).astype("float64")
    x = _leaf(a)
    out = paddle.pdist(x, p)
    tx = torch.tensor(a, requires_grad=True)
    tout = torch.nn.functional.pdist(tx, p)
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-10)
    out.sum().backward()
    tout.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-8, atol=1e-12)
    assert paddle.pdist(paddle.ones([1, 3])).shape == [0]
    with pytest.raises(ValueError, match=r"pdist: argument 'x' expected a 2-D tensor, got shape "
                                         r"\[3\]"):
        paddle.pdist(paddle.ones([3]))


def test_attribute_predicates():
    assert bool(paddle.is_empty(paddle.ones([2, 0]))) and not bool(paddle.is_empty(paddle.ones([1])))
    assert paddle.is_empty(paddle.ones([2])).dtype == paddle.bool
    assert paddle.is_integer(paddle.to_tensor([1], "int16"))
    assert not paddle.is_integer(paddle.to_tensor([True]))
    assert not paddle.to_tensor([1.0]).is_integer()
    assert paddle.to_tensor([1.0]).is_floating_point()
    assert paddle.to_tensor([1.0]).is_tensor() and not paddle.is_tensor([1.0])
    assert paddle.tolist(paddle.to_tensor([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert paddle.to_tensor(2).rank().item() == 0
    with pytest.raises(TypeError, match="is_integer: expected Tensor, but received type of x: list"):
        paddle.is_integer([1])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_finfo_is_torch_finfo(dtype):
    f, t = paddle.finfo(getattr(paddle, dtype)), torch.finfo(getattr(torch, dtype))
    for field in ("bits", "eps", "min", "max", "tiny", "smallest_normal", "resolution"):
        assert getattr(f, field) == getattr(t, field), field
    assert f.dtype == dtype and paddle.finfo(dtype).eps == f.eps


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_is_torch_iinfo(dtype):
    i, t = paddle.iinfo(getattr(paddle, dtype)), torch.iinfo(getattr(torch, dtype))
    assert (i.bits, i.min, i.max, i.dtype) == (t.bits, t.min, t.max, dtype)


def test_finfo_iinfo_errors():
    with pytest.raises(ValueError, match="finfo: argument 'dtype' expected a floating point "
                                         "dtype, got int32"):
        paddle.finfo(paddle.int32)
    with pytest.raises(ValueError, match="iinfo: argument 'dtype' expected an integer dtype"):
        paddle.iinfo("float32")
    with pytest.raises(TypeError, match="finfo: argument 'dtype' expected a paddle dtype"):
        paddle.finfo("float99")
