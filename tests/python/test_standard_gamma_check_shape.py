"""paddle.standard_gamma (its samples' empirical CDF against the regularized incomplete gamma
P(a, x), moments, seeding, no gradient, bad inputs) and paddle.check_shape (static-mode type
and dtype checks with Paddle's messages; nothing checked in dynamic mode)."""
import numpy as np
import pytest

import skiff as paddle


@pytest.mark.parametrize("alpha", [0.3, 1.0, 2.5, 20.0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_follows_gamma(alpha, dtype):
    paddle.seed(7)
    n = 100000
    s = paddle.standard_gamma(paddle.full([n], alpha, dtype))
    assert s.dtype == getattr(paddle, dtype) and s.shape == [n] and s.stop_gradient
    a = np.sort(s.numpy().astype("float64"))
    assert a[0] > 0
    cdf = paddle.gammainc(paddle.full([n], alpha, "float64"), paddle.to_tensor(a)).numpy()
    ks = np.max(np.abs(cdf - np.arange(1, n + 1) / n))
    assert ks < 1.63 / np.sqrt(n)  # Kolmogorov-Smirnov at the 1% level
    assert abs(a.mean() - alpha) < 5 * np.sqrt(alpha / n)


def test_standard_gamma_per_element_alpha_and_seed():
    alpha = paddle.to_tensor([[0.5, 4.0], [9.0, 1.5]], "float64")
    paddle.seed(1)
    first = paddle.standard_gamma(alpha).numpy()
    paddle.seed(1)
    np.testing.assert_array_equal(paddle.standard_gamma(alpha).numpy(), first)
    big = paddle.standard_gamma(paddle.expand(alpha, [20000, 2, 2])).numpy()
    np.testing.assert_allclose(big.mean(0), alpha.numpy(), rtol=0.05)
    x = paddle.to_tensor([2.0], stop_gradient=False)
    assert paddle.standard_gamma(x).stop_gradient


def test_standard_gamma_errors():
    with pytest.raises(ValueError, match="standard_gamma: argument 'x' expected positive shape "
                                         "parameters"):
        paddle.standard_gamma(paddle.to_tensor([1.0, 0.0]))
    with pytest.raises(TypeError, match="standard_gamma: argument 'x' expected a float32 or "
                                        "float64 tensor, got int64"):
        paddle.standard_gamma(paddle.to_tensor([1, 2]))


def test_check_shape():
    assert paddle.check_shape(3.5, "fill") is None  # dynamic mode: nothing to check
    paddle.enable_static()
    try:
        paddle.check_shape([2, 3], "fill")
        paddle.check_shape(paddle.static.data("shape_i32", [2], "int32"), "fill")
        with pytest.raises(TypeError, match=r"The type of 'shape' in fill must be \(list, tuple, "
                                            r"Tensor\), but received float."):
            paddle.check_shape(3.5, "fill")
        with pytest.raises(TypeError, match="The type of 'element of shape' in fill must be"):
            paddle.check_shape([2, 1.5], "fill")
        with pytest.raises(TypeError, match=r"The data type of 'shape' in fill must be "
                                            r"\['int32', 'int64'\], but received float32."):
            paddle.check_shape(paddle.static.data("shape_f32", [2], "float32"), "fill")
        paddle.check_shape(paddle.static.data("shape_f64", [2], "float64"), "fill",
                           expected_tensor_dtype=None)
    finally:
        paddle.disable_static()
