"""The autograd API: backward, grad (create_graph, allow_unused), no_grad & co, hooks."""
import numpy as np
import pytest

import skiff


def _leaf(values):
    t = skiff.to_tensor(values, dtype="float64")
    t.stop_gradient = False
    return t


def test_backward_accumulates_and_clear_grad():
    x = _leaf([1.0, 2.0, 3.0])
    (x * x).sum().backward()
    assert x.grad.numpy().tolist() == [2.0, 4.0, 6.0]
    (x * 3).sum().backward()
    assert x.grad.numpy().tolist() == [5.0, 7.0, 9.0]
    np.testing.assert_array_equal(x.gradient(), [5.0, 7.0, 9.0])
    x.clear_grad()  # Paddle: zeroed in place
    assert x.grad.numpy().tolist() == [0.0, 0.0, 0.0]
    x.clear_gradient(False)
    assert x.grad is None and x.gradient() is None


def test_zeroed_gradient_then_backward_is_the_new_gradient():
    # clear_grad zeroes in place; the next backward starts from those zeros (Skiff then takes
    # the incoming gradient without adding it to zeros), twice in one backward still adds.
    x = _leaf([1.0, 2.0, 3.0])
    (x * x).sum().backward()
    held = x.grad
    x.clear_grad()
    assert held.numpy().tolist() == [0.0, 0.0, 0.0]  # the same tensor, zeroed in place
    (x * 3).sum().backward()
    assert x.grad.numpy().tolist() == [3.0, 3.0, 3.0]
    x.clear_grad()
    (x * 3 + x * x).sum().backward()  # two contributions to the zeroed gradient
    assert x.grad.numpy().tolist() == [5.0, 7.0, 9.0]


def test_write_into_zeroed_gradient_is_kept():
    x = _leaf([1.0, 2.0])
    (x * x).sum().backward()
    x.clear_grad()
    x.grad.add_(skiff.to_tensor([10.0, 20.0], dtype="float64"))
    (x * 3).sum().backward()
    assert x.grad.numpy().tolist() == [13.0, 23.0]


def test_clear_grad_of_a_shared_gradient_leaves_the_other_alone():
    # add's gradient reaches both leaves as one tensor; zeroing one must not zero the other.
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    g = skiff.to_tensor([5.0, 6.0], dtype="float64")
    (a + b).backward(g)
    a.clear_grad()
    assert a.grad.numpy().tolist() == [0.0, 0.0]
    assert b.grad.numpy().tolist() == [5.0, 6.0]
    assert g.numpy().tolist() == [5.0, 6.0]


def test_backward_with_grad_tensor_and_retain_graph():
    x = _leaf([1.0, 2.0])
    y = x * x
    y.backward(skiff.to_tensor([1.0, 10.0], dtype="float64"), retain_graph=True)
    assert x.grad.numpy().tolist() == [2.0, 40.0]
    y.backward(skiff.to_tensor([1.0, 1.0], dtype="float64"))
    assert x.grad.numpy().tolist() == [4.0, 44.0]
    with pytest.raises(RuntimeError, match="retain_graph"):
        y.backward(skiff.to_tensor([1.0, 1.0], dtype="float64"))


def test_autograd_backward_several_tensors():
    x = _leaf([1.0, 2.0])
    skiff.autograd.backward([(x * 2).sum(), (x * x).sum()])
    assert x.grad.numpy().tolist() == [4.0, 6.0]
    with pytest.raises(ValueError, match="one per tensor"):
        skiff.autograd.backward([x.sum()], [None, None])


def test_grad_create_graph_higher_order():
    x = _leaf([0.5, 1.5])
    y = (x ** 3).sum()
    (g,) = skiff.grad(y, x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), 3 * x.numpy() ** 2)
    (g2,) = skiff.grad(g.sum(), x, create_graph=True)
    np.testing.assert_allclose(g2.numpy(), 6 * x.numpy())
    (g3,) = skiff.grad(g2.sum(), x)
    np.testing.assert_allclose(g3.numpy(), [6.0, 6.0])
    assert x.grad is None  # grad does not touch .grad


def test_grad_allow_unused_and_grad_outputs():
    x, z = _leaf([1.0]), _leaf([2.0])
    y = x * 4
    gx, gz = skiff.grad([y], [x, z], grad_outputs=[skiff.to_tensor([0.5], dtype="float64")],
                        allow_unused=True)
    assert gx.numpy().tolist() == [2.0] and gz is None
    with pytest.raises(Exception, match="unused|allow_unused|not reachable|does not depend"):
        skiff.grad([x * 4], [x, z])


def test_no_grad_context_and_decorators():
    x = _leaf([1.0])
    with skiff.no_grad():
        assert not skiff.is_grad_enabled()
        y = x * 2
        with skiff.enable_grad():
            z = x * 2
    assert skiff.is_grad_enabled()
    assert y.stop_gradient and not z.stop_gradient

    @skiff.no_grad()
    def f(t):
        return t * 2

    @skiff.no_grad
    def g(t):
        return t * 2

    assert f(x).stop_gradient and g(x).stop_gradient and skiff.is_grad_enabled()
    with skiff.set_grad_enabled(False):
        assert (x * 2).stop_gradient
    assert skiff.is_grad_enabled()
    skiff.set_grad_enabled(False)
    assert not skiff.is_grad_enabled()
    skiff.set_grad_enabled(True)
    assert skiff.is_grad_enabled()


def test_hooks_and_retain_grads():
    x = _leaf([1.0, 2.0])
    y = x * 3
    y.retain_grads()
    seen = []
    h = y.register_hook(lambda g: seen.append(g.numpy().tolist()))
    x.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert seen == [[1.0, 1.0]]
    assert y.grad.numpy().tolist() == [1.0, 1.0]
    assert x.grad.numpy().tolist() == [30.0, 30.0]
    h.remove()
    (x * 3).sum().backward()
    with pytest.raises(RuntimeError, match="stop_gradient"):
        skiff.to_tensor([1.0]).register_hook(lambda g: g)


def test_stop_gradient_semantics():
    x = skiff.to_tensor([1.0])
    assert x.stop_gradient
    y = x * 2
    assert y.stop_gradient and y.is_leaf
    i = skiff.to_tensor([1])
    i.stop_gradient = False  # Paddle allows it; no gradient flows (test_paddle_conventions.py)
    assert not i.stop_gradient and (i * 2).stop_gradient
    w = skiff.to_tensor([1.0], stop_gradient=False)
    assert not w.stop_gradient and not (w * 2).is_leaf


def test_cross_entropy_gradient_with_and_without_the_softmax_output():
    """The softmax output's gradient reaches the rule undefined when unused (the record's
    undefined_grads): the gradient is softmax - onehot; using the softmax adds its term."""
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((4, 6))
    label = np.array([[1], [0], [5], [2]])
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    onehot = np.eye(6)[label[:, 0]]
    x = _leaf(logits)
    softmax, loss = skiff._C.ops.cross_entropy_with_softmax(x, skiff.to_tensor(label))
    (g,) = skiff.grad(loss.sum(), x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), p - onehot, rtol=1e-10)
    # Second order through the same rule: d/dx sum(g * w) = softmax Jacobian applied to w.
    w = rng.standard_normal((4, 6))
    (h,) = skiff.grad((g * skiff.to_tensor(w)).sum(), x)
    np.testing.assert_allclose(h.numpy(), p * (w - (p * w).sum(1, keepdims=True)), rtol=1e-9)
    # With the softmax output used too, its gradient term joins.
    v = rng.standard_normal((4, 6))
    softmax, loss = skiff._C.ops.cross_entropy_with_softmax(x, skiff.to_tensor(label))
    (g2,) = skiff.grad(loss.sum() + (softmax * skiff.to_tensor(v)).sum(), x)
    np.testing.assert_allclose(g2.numpy(),
                               p - onehot + p * (v - (p * v).sum(1, keepdims=True)), rtol=1e-9)


def test_grad_no_grad_vars_are_constants():
    """Paddle's no_grad_vars: no gradient flows through them (as if they were detached)."""
    x = _leaf([1.0, 2.0])
    y = x * x  # dy/dx = 2x
    z = y * x  # dz/dx = 3x^2 in full; with y held constant: y = x^2
    (full,) = skiff.grad(z.sum(), x, retain_graph=True)
    np.testing.assert_allclose(full.numpy(), [3.0, 12.0])
    (partial,) = skiff.grad(z.sum(), x, no_grad_vars=[y], retain_graph=True)
    np.testing.assert_allclose(partial.numpy(), [1.0, 4.0])
    # An input that only reaches the outputs through a no_grad_var gets no gradient.
    (none,) = skiff.grad(z.sum(), y, no_grad_vars=y, allow_unused=True)
    assert none is None
    with pytest.raises(ValueError, match="grad: argument 'inputs\\[0\\]' expected an input the"):
        skiff.grad(y.sum(), x, no_grad_vars=[y])


def test_leaf_hook_survives_later_graphs_and_backward_callback():
    # A parameter's hook must fire in every later backward, not only in the graph alive when
    # it was registered; a queued callback runs after every leaf has accumulated.
    import skiff as paddle
    from skiff import _C
    lin = paddle.nn.Linear(2, 2)
    calls = []
    lin.weight.register_hook(lambda g: calls.append("hook"))

    def on_bias(g):
        calls.append("bias")
        _C._queue_backward_callback(lambda: calls.append(("cb", lin.weight.grad is not None)))

    lin.bias.register_hook(on_bias)
    for _ in range(2):
        lin(paddle.ones([1, 2])).sum().backward()
    assert calls.count("hook") == 2 and calls.count("bias") == 2
    assert calls.count(("cb", True)) == 2
