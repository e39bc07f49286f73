"""put_along_axis's 'mean', 'amax' and 'amin' reductions (Paddle 3.0), with and without
include_self, against torch.scatter_reduce: values, ties, integer means, and gradients."""
import numpy as np
import pytest
import torch

import skiff as paddle

TORCH_NAME = {"mean": "mean", "amax": "amax", "amin": "amin", "add": "sum", "mul": "prod"}


@pytest.mark.parametrize("reduce", ["mean", "amax", "amin", "add", "mul"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matches_torch_scatter_reduce(reduce, include_self, dtype):
    rng = np.random.default_rng(0)
    arr = rng.standard_normal((3, 5)).astype(dtype)
    idx = rng.integers(0, 5, (3, 4))  # repeated targets
    vals = rng.standard_normal((3, 4)).astype(dtype)
    vals[0, 1] = vals[0, 0]  # a tie between two values
    idx[0, 1] = idx[0, 0]
    x, v = paddle.to_tensor(arr), paddle.to_tensor(vals)
    x.stop_gradient = v.stop_gradient = False
    out = paddle.put_along_axis(x, paddle.to_tensor(idx), v, 1, reduce, include_self)
    tx, tv = torch.tensor(arr, requires_grad=True), torch.tensor(vals, requires_grad=True)
    ref = tx.scatter_reduce(1, torch.tensor(idx), tv, TORCH_NAME[reduce], include_self=include_self)
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=1e-6, atol=1e-6)
    g = rng.standard_normal((3, 5)).astype(dtype)
    (out * paddle.to_tensor(g)).sum().backward()
    (ref * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(v.grad.numpy(), tv.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_integer_mean_and_extremes():
    arr = paddle.to_tensor([[10, 20, 30]])
    idx = paddle.to_tensor([[0, 0, 2]])
    vals = paddle.to_tensor([[1, 4, 7]])
    np.testing.assert_array_equal(paddle.put_along_axis(arr, idx, vals, 1, "mean").numpy(),
                                  [[5, 20, 18]])  # (10 + 1 + 4) / 3, (30 + 7) / 2, truncated
    np.testing.assert_array_equal(
        paddle.put_along_axis(arr, idx, vals, 1, "mean", include_self=False).numpy(), [[2, 20, 7]])
    np.testing.assert_array_equal(paddle.put_along_axis(arr, idx, vals, 1, "amax").numpy(),
                                  [[10, 20, 30]])
    np.testing.assert_array_equal(
        paddle.put_along_axis(arr, idx, vals, 1, "amin", include_self=False).numpy(), [[1, 20, 7]])
    y = paddle.to_tensor([[1.0, 2.0, 3.0]])
    y.put_along_axis_(paddle.to_tensor([[1]]), paddle.to_tensor([[9.0]]), 1, "amax")
    np.testing.assert_array_equal(y.numpy(), [[1.0, 9.0, 3.0]])


def test_paddle_example_and_bad_reduce():
    x = paddle.to_tensor([[10, 30, 20], [60, 40, 50]])
    index = paddle.to_tensor([[0]])
    value = 99
    result = paddle.put_along_axis(x, index, value, 0)
    np.testing.assert_array_equal(result.numpy(), [[99, 99, 99], [60, 40, 50]])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) put_along_axis: argument 'reduce' "
                                         r"expected one of assign, add, mul, multiply, mean, amax, amin, got max"):
        paddle.put_along_axis(x, index, paddle.to_tensor([[1]]), 0, "max")
