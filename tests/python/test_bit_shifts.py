"""paddle.bitwise_left_shift / bitwise_right_shift against numpy per integer dtype (arithmetic
and logical, shifts outside [0, width) as Paddle's functors define them), Paddle's documented
examples, `out`, the in-place forms and the refusal of float inputs."""
import numpy as np
import pytest

import skiff as paddle

DTYPES = ["uint8", "int8", "int16", "int32", "int64"]


def _np_right(x, y, arithmetic):
    bits = x.dtype.itemsize * 8
    ok = (y >= 0) & (y < bits)
    ys = np.where(ok, y, 0)
    if arithmetic and x.dtype.kind == "i":
        return np.where(ok, x >> ys, np.where(x < 0, -1, 0)).astype(x.dtype)
    u = x.view(f"uint{bits}") if x.dtype.kind == "i" else x
    return np.where(ok, u >> ys.astype(u.dtype), 0).astype(u.dtype).view(x.dtype)


def _np_left(x, y):
    bits = x.dtype.itemsize * 8
    ok = (y >= 0) & (y < bits)
    u = x.view(f"uint{bits}") if x.dtype.kind == "i" else x
    return np.where(ok, u << np.where(ok, y, 0).astype(u.dtype), 0).astype(u.dtype).view(x.dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("arithmetic", [True, False])
def test_shifts_against_numpy(dtype, arithmetic):
    rng = np.random.default_rng(3)
    info = np.iinfo(dtype)
    bits = info.bits
    x = rng.integers(info.min, info.max, (6, 40), endpoint=True).astype(dtype)
    lo = 0 if dtype == "uint8" else -3
    y = rng.integers(lo, bits + 3, (40,)).astype(dtype)
    px, py = paddle.to_tensor(x), paddle.to_tensor(y)
    left = paddle.bitwise_left_shift(px, py, arithmetic)
    assert left.dtype == getattr(paddle, dtype)
    np.testing.assert_array_equal(left.numpy(), _np_left(x, y))
    right = paddle.bitwise_right_shift(px, py, is_arithmetic=arithmetic)
    np.testing.assert_array_equal(right.numpy(), _np_right(x, y, arithmetic))
    np.testing.assert_array_equal(px.bitwise_right_shift(py, arithmetic).numpy(), right.numpy())


def test_paddle_examples():
    x = paddle.to_tensor([[1, 2, 4, 8], [16, 17, 32, 65]])
    y = paddle.to_tensor([[1, 2, 3, 4], [2, 3, 2, 1]])
    np.testing.assert_array_equal(paddle.bitwise_left_shift(x, y).numpy(),
                                  [[2, 8, 32, 128], [64, 136, 128, 130]])
    x = paddle.to_tensor([[10, 20, 40, 80], [16, 17, 32, 65]])
    np.testing.assert_array_equal(paddle.bitwise_right_shift(x, y).numpy(),
                                  [[5, 5, 5, 5], [4, 2, 8, 32]])
    neg = paddle.to_tensor([-16], dtype="int8")
    two = paddle.to_tensor([2], dtype="int8")
    assert paddle.bitwise_right_shift(neg, two).item() == -4
    assert paddle.bitwise_right_shift(neg, two, is_arithmetic=False).item() == 60


def test_out_and_inplace():
    x, y = paddle.to_tensor([1, 2, 3]), paddle.to_tensor([1, 1, 1])
    out = paddle.zeros([3], "int64")
    assert paddle.bitwise_left_shift(x, y, out=out) is out
    np.testing.assert_array_equal(out.numpy(), [2, 4, 6])
    assert x.bitwise_left_shift_(y) is x and x._inplace_version() == 1
    np.testing.assert_array_equal(x.numpy(), [2, 4, 6])
    assert paddle.bitwise_right_shift_(x, y) is x
    np.testing.assert_array_equal(x.numpy(), [1, 2, 3])
    with pytest.raises(TypeError, match="bitwise_left_shift: argument 'out' expected a Tensor"):
        paddle.bitwise_left_shift(x, y, out=[0, 0, 0])


def test_float_input_is_refused():
    with pytest.raises(RuntimeError, match=r"\(NotFound\) bitwise_left_shift: argument 'kernel'"):
        paddle.bitwise_left_shift(paddle.to_tensor([1.0]), paddle.to_tensor([1.0]))
