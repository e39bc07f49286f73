"""paddle.autograd.saved_tensors_hooks: every tensor saved for the gradient goes through the
pack hook, comes back through the unpack hook, and the gradients equal those without hooks."""
import inspect

import numpy as np
import pytest

import skiff as paddle
from skiff.autograd import PyLayer, saved_tensors_hooks


def test_signature():
    assert isinstance(saved_tensors_hooks, type)
    assert list(inspect.signature(saved_tensors_hooks).parameters) == ["pack_hook", "unpack_hook"]
    assert paddle.autograd.saved_tensors_hooks is saved_tensors_hooks


def test_pack_to_numpy_and_back_as_paddles_example():
    packed, unpacked = [], []

    def pack_hook(x):
        packed.append(x.shape)
        return x.numpy()

    def unpack_hook(x):
        unpacked.append(x.shape)
        return paddle.to_tensor(x)

    a = paddle.ones([3, 3])
    b = paddle.ones([3, 3]) * 2
    a.stop_gradient = False
    b.stop_gradient = False
    with saved_tensors_hooks(pack_hook, unpack_hook):
        y = paddle.multiply(a, b)
    assert len(packed) == 2  # multiply saves both inputs
    assert not unpacked
    y.sum().backward()
    assert len(unpacked) == 2
    np.testing.assert_allclose(a.grad.numpy(), np.full([3, 3], 2.0))
    np.testing.assert_allclose(b.grad.numpy(), np.ones([3, 3]))


def test_gradients_equal_a_run_without_hooks():
    rng = np.random.default_rng(0)
    xs = rng.standard_normal([4, 5]).astype(np.float32)
    ws = rng.standard_normal([5, 3]).astype(np.float32)

    def run(hooks):
        x = paddle.to_tensor(xs, stop_gradient=False)
        w = paddle.to_tensor(ws, stop_gradient=False)
        if hooks:
            with saved_tensors_hooks(lambda t: t.numpy().copy(), paddle.to_tensor):
                loss = paddle.tanh(paddle.matmul(x, w)).exp().mean()  # tanh, exp save outputs
        else:
            loss = paddle.tanh(paddle.matmul(x, w)).exp().mean()
        loss.backward()
        return x.grad.numpy(), w.grad.numpy()

    for got, want in zip(run(True), run(False)):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_unpacked_value_is_used():
    # the unpack hook's tensor is what the gradient reads: scaling it scales the gradient
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    c = paddle.to_tensor([4.0, 5.0, 6.0])
    with saved_tensors_hooks(lambda t: t, lambda t: t * 10.0):
        y = (x * c).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [40.0, 50.0, 60.0])


def test_pylayer_save_for_backward_goes_through_the_hooks():
    calls = []

    class CusMultiply(PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return paddle.multiply(a, b)

        @staticmethod
        def backward(ctx, dy):
            a, b = ctx.saved_tensor()
            return dy * b, dy * a

    a = paddle.ones([2, 2])
    b = paddle.ones([2, 2]) * 3
    a.stop_gradient = False
    b.stop_gradient = False
    with saved_tensors_hooks(lambda t: calls.append("pack") or t.numpy(),
                             lambda t: calls.append("unpack") or paddle.to_tensor(t)):
        y = CusMultiply.apply(a, b)
    y.sum().backward()
    assert calls.count("pack") == 2 and calls.count("unpack") == 2
    np.testing.assert_allclose(a.grad.numpy(), np.full([2, 2], 3.0))


def test_nesting_and_scope():
    seen = []
    x = paddle.to_tensor([2.0], stop_gradient=False)
    with saved_tensors_hooks(lambda t: seen.append("outer") or t, lambda t: t):
        with saved_tensors_hooks(lambda t: seen.append("inner") or t, lambda t: t):
            y = x * x
        z = x * x
    w = x * x  # outside: no hooks
    assert seen == ["inner", "inner", "outer", "outer"]
    (y + z + w).backward()
    np.testing.assert_allclose(x.grad.numpy(), [12.0])


def test_bad_hooks():
    with pytest.raises(TypeError, match=r"\(InvalidType\) saved_tensors_hooks: argument "
                                        r"'pack_hook' expected a callable, got int"):
        saved_tensors_hooks(1, lambda t: t)
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with saved_tensors_hooks(lambda t: t, lambda t: paddle.zeros([5])):
        y = (x * x).sum()
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) saved_tensors_hooks: argument "
                                         r"'unpack_hook' expected a tensor of the saved tensor's "
                                         r"shape \[2\]"):
        y.backward()

    def failing_pack(t):
        raise KeyError("no room")

    with saved_tensors_hooks(failing_pack, lambda t: t):
        with pytest.raises(KeyError, match="no room"):
            x * x
    # a double backward through a packed input is refused, not silently wrong
    with saved_tensors_hooks(lambda t: t.numpy(), paddle.to_tensor):
        y = (x * x * x).sum()
    with pytest.raises(NotImplementedError, match=r"\(Unimplemented\)"):
        paddle.grad([y], [x], create_graph=True)
