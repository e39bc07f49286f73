"""Tensor indexing against numpy: reads (views where numpy has them), writes, gradients."""
import numpy as np
import pytest

import skiff

A = np.arange(60, dtype=np.float64).reshape(3, 4, 5)

READS = [
    1, -1, (0, 2), (slice(None), 1), slice(1, None), slice(None, None, 2), slice(None, None, -1),
    (Ellipsis, 1), (Ellipsis, slice(1, 4, 2)), (None, 1), (1, None, slice(None), None),
    (slice(-2, None), Ellipsis, slice(None, 1)), (slice(3, 0, -2), 0),
    [0, 2], (slice(None), [3, 0, 1]), (np.array([[0, 1], [2, 2]]),),
    ([0, 2], [1, 3]), ([0, 2], slice(None), [1, 3]), (slice(None), [0, 1], [2, 3]),
    (1, [0, -1]), (A[:, :, 0] > 20,), (A > 30,), (slice(None), A[0, :, 0] > 6),
    (), Ellipsis,
]


def _key(index):
    def conv(i):
        if isinstance(i, np.ndarray):
            return skiff.to_tensor(i)
        return i
    return tuple(conv(i) for i in index) if isinstance(index, tuple) else conv(index)


@pytest.mark.parametrize("index", READS, ids=[repr(i)[:40] for i in READS])
def test_getitem_matches_numpy(index):
    x = skiff.to_tensor(A)
    np.testing.assert_array_equal(x[_key(index)].numpy(), A[index])


def test_basic_indexing_returns_views():
    x = skiff.to_tensor(A)
    for index in [1, (slice(None), 1), (Ellipsis, slice(1, 4, 2)), (None, 0, slice(2))]:
        assert x[index]._share_memory_with(x), index


def test_getitem_errors():
    x = skiff.to_tensor(A)
    with pytest.raises(IndexError, match="out of range"):
        x[3]
    with pytest.raises(IndexError, match="out of range"):
        x[0, -6]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError, match="expected ints"):
        x["a"]


def test_getitem_gradients():
    rng = np.random.default_rng(0)
    for index in [(1, slice(1, 3)), (slice(None, None, -2),), ([0, 0, 2],), (A > 20,),
                  ([0, 2], slice(None), [1, 1])]:
        x = skiff.to_tensor(A)
        x.stop_gradient = False
        y = x[_key(index)]
        w = rng.standard_normal(y.shape)
        (y * skiff.to_tensor(w)).sum().backward()
        want = np.zeros_like(A)
        np.add.at(want, index, w)
        np.testing.assert_allclose(x.grad.numpy(), want, err_msg=repr(index))


WRITES = [
    (1, 7.0), ((0, slice(1, 3)), np.arange(10.0).reshape(2, 5)), ((Ellipsis, 0), -1.0),
    (slice(None, None, -1), 2.0), ([0, 2], 5.0), ((slice(None), [1, 3]), np.ones((3, 2, 5))),
    (A > 40, 0.0), (([0, 1], [2, 3]), np.array([9.0, 8.0])[:, None]),
]


@pytest.mark.parametrize("index,value", WRITES, ids=[repr(w[0])[:40] for w in WRITES])
def test_setitem_matches_numpy(index, value):
    x = skiff.to_tensor(A)
    want = A.copy()
    want[index] = value
    x[_key(index)] = value if np.isscalar(value) else skiff.to_tensor(value)
    np.testing.assert_array_equal(x.numpy(), want)


def test_setitem_writes_in_place_and_bumps_version():
    x = skiff.zeros([3, 4])
    view = x[1]
    v0 = x._inplace_version()
    x[1, 2:] = 5.0
    assert view.numpy().tolist() == [0.0, 0.0, 5.0, 5.0]
    assert x._inplace_version() > v0
    x[0] = skiff.to_tensor([1.0, 2.0, 3.0, 4.0], dtype="float64")  # cast to x's dtype
    assert x.numpy()[0].tolist() == [1.0, 2.0, 3.0, 4.0]
    with pytest.raises(ValueError, match="broadcastable"):
        x[0] = skiff.ones([3])


def test_setitem_with_autograd():
    w = skiff.to_tensor([1.0, 2.0, 3.0])
    w.stop_gradient = False
    v = skiff.to_tensor([10.0])
    v.stop_gradient = False
    y = w * 2
    y[1] = v * 3  # y takes the history of the write
    y.sum().backward()
    assert y.numpy().tolist() == [2.0, 30.0, 6.0]
    assert w.grad.numpy().tolist() == [2.0, 0.0, 2.0]
    assert v.grad.numpy().tolist() == [3.0]
    with pytest.raises(RuntimeError, match="leaf tensor that requires grad"):
        w[0] = 1.0
    with skiff.no_grad():
        w[0] = 5.0  # allowed without autograd (what initializers do)
    assert w.numpy().tolist() == [5.0, 2.0, 3.0]


def test_saved_tensor_modified_is_caught():
    a = skiff.to_tensor([1.0, 2.0])
    a.stop_gradient = False
    b = a * 1.0
    c = b * b  # saves b
    with skiff.no_grad():
        b[0] = 3.0  # a raw write into the saved data
    with pytest.raises(RuntimeError, match="modified"):
        c.sum().backward()
    d = a * 1.0
    e = d * d
    d[0] = 3.0  # a differentiable write: d becomes a new tensor, e's saved d is intact
    e.sum().backward()
    assert a.grad.numpy().tolist() == [2.0, 4.0]


def test_indexing_a_dynamic_dim_in_a_saved_program(tmp_path):
    """Ints and slices on a dim known only at run time (InputSpec None): the program keeps the
    raw bounds and the slice op resolves them per run, so every length gives numpy's answer."""
    import skiff as paddle
    import skiff.inference as paddle_infer
    from skiff.static import InputSpec

    class Pick(paddle.nn.Layer):
        def forward(self, x):
            return x[-1], x[1:], x[::2], x[:-1, 2], x[-3:]

    prefix = str(tmp_path / "pick")
    paddle.jit.save(Pick(), prefix, input_spec=[InputSpec([None, 4], "float32", "x")])
    predictor = paddle_infer.create_predictor(
        paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams"))
    for n in (1, 2, 5):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
        h = predictor.get_input_handle("x")
        h.reshape([n, 4])
        h.copy_from_cpu(x)
        predictor.run()
        got = [predictor.get_output_handle(o).copy_to_cpu() for o in predictor.get_output_names()]
        for g, w in zip(got, (x[-1], x[1:], x[::2], x[:-1, 2], x[-3:])):
            np.testing.assert_array_equal(g, w)
