"""skiff.autograd.PyLayer: custom forward/backward, saved tensors, non-differentiable outputs,
double backward, and the errors for bad backward results."""
import numpy as np
import pytest

import skiff
from skiff.autograd import PyLayer


class Cube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensor()
        return grad * 3 * x * x


def _leaf(v):
    t = skiff.to_tensor(v, dtype="float64")
    t.stop_gradient = False
    return t


def test_forward_backward():
    x = _leaf([1.0, 2.0])
    y = Cube.apply(x)
    assert not y.stop_gradient and y.numpy().tolist() == [1.0, 8.0]
    y.sum().backward()
    assert x.grad.numpy().tolist() == [3.0, 12.0]


def test_double_backward():
    x = _leaf([1.0, 2.0])
    (g,) = skiff.grad(Cube.apply(x).sum(), x, create_graph=True)
    (g2,) = skiff.grad(g.sum(), x)
    np.testing.assert_allclose(g2.numpy(), 6 * x.numpy())


class SaveOutput(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = skiff.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensor()
        return grad * y


def test_saved_output():
    x = _leaf([0.0, 1.0])
    SaveOutput.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]))


class TwoInOut(PyLayer):
    @staticmethod
    def forward(ctx, a, b, scale=2.0):
        ctx.scale = scale
        idx = skiff.argmax(a)
        ctx.mark_non_differentiable(idx)
        return a * scale + b, idx

    @staticmethod
    def backward(ctx, g, g_idx):
        assert ctx.needs_input_grad == (True, False)
        return g * ctx.scale, None


def test_multiple_inputs_outputs_and_needs_input_grad():
    a = _leaf([1.0, 3.0])
    b = skiff.to_tensor([1.0, 1.0], dtype="float64")
    y, idx = TwoInOut.apply(a, b, scale=4.0)
    assert idx.stop_gradient and int(idx) == 1
    y.sum().backward()
    assert a.grad.numpy().tolist() == [4.0, 4.0]


def test_no_grad_inputs_record_nothing():
    x = skiff.to_tensor([1.0])
    assert Cube.apply(x).stop_gradient
    with skiff.no_grad():
        assert Cube.apply(_leaf([1.0])).stop_gradient


class WrongCount(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


class WrongShape(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return skiff.ones([3], dtype="float64")


def test_bad_backward_results():
    with pytest.raises(ValueError, match="WrongCount.backward: expected 1 gradients"):
        WrongCount.apply(_leaf([1.0, 2.0])).sum().backward()
    with pytest.raises(ValueError, match="WrongShape"):
        WrongShape.apply(_leaf([1.0, 2.0])).sum().backward()


def test_retain_graph_and_release():
    x = _leaf([2.0])
    y = Cube.apply(x)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.numpy().tolist() == [24.0]
    with pytest.raises(RuntimeError, match="retain_graph"):
        y.backward()
