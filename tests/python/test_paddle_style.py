"""Paddle 2.x dynamic-graph code, written against `paddle`, running unchanged on skiff."""
import numpy as np

import skiff as paddle


def test_linear_regression_with_manual_updates():
    paddle.seed(0)
    x = paddle.rand([64, 3])
    true_w = paddle.to_tensor([[1.0], [-2.0], [3.0]])
    y = paddle.matmul(x, true_w) + 0.5
    w = paddle.zeros([3, 1])
    w.stop_gradient = False
    b = paddle.zeros([1])
    b.stop_gradient = False
    for _ in range(400):
        loss = paddle.mean((paddle.matmul(x, w) + b - y) ** 2)
        loss.backward()
        with paddle.no_grad():
            w -= 0.5 * w.grad
            b -= 0.5 * b.grad
        w.clear_grad()
        b.clear_grad()
    assert float(loss) < 1e-3
    np.testing.assert_allclose(w.numpy().ravel(), [1.0, -2.0, 3.0], atol=0.05)
    assert isinstance(loss.item(), float)


def test_typical_tensor_code():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    assert x.dtype == paddle.float32 and str(x.dtype) == "paddle.float32"
    rows = paddle.split(x, 3, axis=0)
    y = paddle.concat(rows[::-1], axis=0)
    assert y[0].tolist() == [8.0, 9.0, 10.0, 11.0]
    m = paddle.where(x > 5, x, paddle.zeros_like(x))
    assert int(paddle.sum(m > 0)) == 6
    idx = paddle.argmax(x, axis=-1)
    assert idx.numpy().tolist() == [3, 3, 3]
    z = paddle.unsqueeze(x, axis=[0, 2])
    assert z.shape == [1, 3, 1, 4]
    assert paddle.is_tensor(z) and not paddle.is_tensor(np.zeros(1))
    assert paddle.in_dynamic_mode()
    paddle.set_device("cpu")
    assert paddle.get_device() == "cpu"
    assert paddle.__version__ == paddle.version.full_version
