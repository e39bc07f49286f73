"""Creation and random functions: shapes, dtypes (default dtype), values, seeding."""
import numpy as np
import pytest

import skiff


def test_constant_creation():
    assert skiff.zeros([2, 3]).numpy().tolist() == [[0.0] * 3] * 2
    assert skiff.ones((2,), dtype="int32").dtype == skiff.int32
    assert skiff.full([2], 3.5).numpy().tolist() == [3.5, 3.5]
    assert skiff.full([1], True).dtype == skiff.bool
    assert skiff.zeros(skiff.to_tensor([2, 2])).shape == [2, 2]  # shape as a tensor
    assert skiff.zeros([skiff.to_tensor(3), 1]).shape == [3, 1]  # elements as tensors
    assert skiff.empty([2]).shape == [2]
    x = skiff.to_tensor([[1, 2]])
    assert skiff.zeros_like(x).dtype == skiff.int64
    assert skiff.ones_like(x, dtype="float32").numpy().tolist() == [[1.0, 1.0]]
    assert skiff.full_like(x, 7).numpy().tolist() == [[7, 7]]
    assert skiff.empty_like(x).shape == [1, 2]


def test_ranges_and_eye():
    assert skiff.arange(5).numpy().tolist() == [0, 1, 2, 3, 4]
    assert skiff.arange(5).dtype == skiff.int64
    np.testing.assert_allclose(skiff.arange(0, 1, 0.25).numpy(), [0, 0.25, 0.5, 0.75])
    assert skiff.arange(0, 1, 0.25).dtype == skiff.float32
    np.testing.assert_allclose(skiff.linspace(0, 1, 5).numpy(), np.linspace(0, 1, 5))
    np.testing.assert_array_equal(skiff.eye(2, 3).numpy(), np.eye(2, 3))
    np.testing.assert_array_equal(skiff.eye(3).numpy(), np.eye(3))
    g = skiff.meshgrid(skiff.arange(2), skiff.arange(3))
    np.testing.assert_array_equal(g[1].numpy(), np.meshgrid(np.arange(2), np.arange(3), indexing="ij")[1])


def test_random_creation_and_seed():
    skiff.seed(123)
    a = skiff.rand([1000])
    skiff.seed(123)
    b = skiff.rand([1000])
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert 0.0 <= a.numpy().min() and a.numpy().max() < 1.0
    n = skiff.randn([20000])
    assert abs(float(n.mean())) < 0.05 and abs(float(n.std()) - 1) < 0.05
    u = skiff.uniform([1000], min=2.0, max=3.0)
    assert 2.0 <= u.numpy().min() and u.numpy().max() < 3.0
    r = skiff.randint(3, 7, [1000])
    assert r.dtype == skiff.int64 and set(r.numpy().tolist()) == {3, 4, 5, 6}
    assert skiff.randint(5).shape == [1]
    p = skiff.randperm(6)
    assert sorted(p.numpy().tolist()) == list(range(6))
    nm = skiff.normal(1.0, 0.0, [3])
    assert nm.numpy().tolist() == [1.0, 1.0, 1.0]
    m = skiff.normal(skiff.zeros([2, 2]), skiff.ones([2, 2]))
    assert m.shape == [2, 2]
    assert skiff.standard_normal([2]).dtype == skiff.float32
    with pytest.raises(TypeError, match="seed"):
        skiff.seed(1.5)


def test_assign_clone_to_tensor_of_tensor():
    x = skiff.to_tensor([1.0, 2.0])
    y = skiff.assign(x)
    assert not y._share_memory_with(x)
    out = skiff.zeros([2])
    assert skiff.assign(np.array([5.0, 6.0], np.float32), output=out) is out
    assert out.numpy().tolist() == [5.0, 6.0]
    z = skiff.to_tensor(x)  # copies
    assert not z._share_memory_with(x)
    assert skiff.to_tensor([x, x]).shape == [2, 2]


def test_rng_state_roundtrip():
    skiff.seed(7)
    skiff.rand([3])
    state = skiff.get_rng_state()
    a = skiff.rand([5]).numpy()
    skiff.rand([5])
    skiff.set_rng_state(state)
    np.testing.assert_array_equal(skiff.rand([5]).numpy(), a)
