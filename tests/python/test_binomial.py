"""paddle.binomial: draws follow Binomial(n, p) (a chi-square test against the exact pmf in both
samplers' ranges), broadcast as Paddle's, are reproducible under paddle.seed, and bad input
raises Paddle's error classes."""
import inspect
import math

import numpy as np
import pytest

import skiff as paddle


def _pmf(n, p):
    # beyond 20 standard deviations above the mean the mass is negligible
    k = np.arange(min(n, int(n * p + 20 * math.sqrt(n * p * (1 - p)) + 40)) + 1)
    logc = np.array([math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in k])
    with np.errstate(divide="ignore"):
        return np.exp(logc + k * np.log(p) + (n - k) * np.log1p(-p))


def _chi_square_ok(draws, n, p):
    """Pearson's test on bins with expected count >= 5 (tails pooled), at about the 1e-4 level."""
    expected = _pmf(n, p) * draws.size
    observed = np.bincount(np.minimum(draws, len(expected) - 1),
                           minlength=len(expected)).astype(np.float64)
    keep = expected >= 5
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    obs, exp = obs[exp > 0], exp[exp > 0]
    stat = float(((obs - exp) ** 2 / exp).sum())
    dof = len(obs) - 1
    # Wilson-Hilferty: chi2(dof) quantile at 1 - 1e-4 (z = 3.719)
    limit = dof * (1 - 2 / (9 * dof) + 3.719 * math.sqrt(2 / (9 * dof))) ** 3
    return stat < limit, (stat, limit)


def test_signature():
    assert inspect.isfunction(paddle.binomial)
    sig = inspect.signature(paddle.binomial)
    assert list(sig.parameters) == ["count", "prob", "name"]
    assert sig.parameters["name"].default is None


@pytest.mark.parametrize("n,p", [(10, 0.2), (50, 0.6), (1000, 0.3), (5, 0.97), (40, 0.25),
                                 (200, 0.5), (3, 0.5)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_distribution_matches_the_pmf(n, p, dtype):
    paddle.seed(2024)
    out = paddle.binomial(paddle.full([40000], n, "int64"), paddle.full([40000], p, dtype))
    assert out.dtype == paddle.int64 and out.shape == [40000] and out.stop_gradient
    draws = out.numpy()
    assert draws.min() >= 0 and draws.max() <= n
    ok, detail = _chi_square_ok(draws, n, float(np.asarray(p, dtype)))
    assert ok, detail


def test_degenerate_and_extreme_parameters():
    n = paddle.to_tensor([0, 7, 7, 1_000_000, 3], dtype="int32")
    p = paddle.to_tensor([0.3, 0.0, 1.0, 0.5, 1.0], dtype="float64")
    out = paddle.binomial(n, p).numpy()
    assert out[0] == 0 and out[1] == 0 and out[2] == 7 and out[4] == 3
    assert abs(out[3] - 500_000) < 6 * math.sqrt(250_000)
    paddle.seed(3)
    big = paddle.binomial(paddle.full([20000], 10**6, "int64"),
                          paddle.full([20000], 1e-6, "float64")).numpy()
    # n p = 1 (the inversion sampler): the pmf of Binomial(10^6, 10^-6) over 0..30
    ok, detail = _chi_square_ok(big, 10**6, 1e-6)
    assert ok, detail


def test_broadcasting_and_float_counts():
    out = paddle.binomial(paddle.to_tensor([[10], [20]]), paddle.to_tensor([0.2, 0.6, 0.9]))
    assert out.shape == [2, 3] and out.dtype == paddle.int64
    assert (out.numpy() <= np.array([[10], [20]])).all()
    # Paddle's own example passes float counts (cast to prob's dtype)
    out = paddle.binomial(paddle.to_tensor([10.0, 50.0]), paddle.to_tensor([0.2, 0.6]))
    assert out.shape == [2] and 0 <= int(out[0]) <= 10 and 0 <= int(out[1]) <= 50
    empty = paddle.binomial(paddle.zeros([0], "int64"), paddle.zeros([0]))
    assert empty.shape == [0] and empty.dtype == paddle.int64


def test_seed_reproduces_draws():
    n, p = paddle.full([100], 30, "int64"), paddle.rand([100])
    paddle.seed(7)
    a = paddle.binomial(n, p).numpy()
    paddle.seed(7)
    b = paddle.binomial(n, p).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, paddle.binomial(n, p).numpy())


def test_bad_input():
    n, p = paddle.full([3], 5, "int64"), paddle.full([3], 0.5)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) binomial: argument 'prob' expected "
                                         r"probabilities in \[0, 1\]"):
        paddle.binomial(n, paddle.to_tensor([0.5, 1.5, 0.2]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) binomial: argument 'prob'"):
        paddle.binomial(n, paddle.to_tensor([0.5, float("nan"), 0.2]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) binomial: argument 'count' expected "
                                         r"finite non-negative counts"):
        paddle.binomial(paddle.to_tensor([1, -2, 3]), p)
    with pytest.raises(TypeError, match=r"\(InvalidType\) binomial: argument 'prob' expected a "
                                        r"bfloat16, float16, float32 or float64 tensor, got int64"):
        paddle.binomial(n, n)
    with pytest.raises(TypeError, match=r"\(InvalidType\) binomial: argument 'count' expected a "
                                        r"Tensor, got list"):
        paddle.binomial([1, 2, 3], p)
    with pytest.raises(TypeError, match=r"\(InvalidType\) binomial: argument 'count' expected an "
                                        r"int32 or int64 tensor, got bool"):
        paddle.binomial(paddle.to_tensor([True, False, True]), p)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) binomial: arguments 'count' and "
                                         r"'prob' expected shapes that broadcast"):
        paddle.binomial(paddle.full([4], 5, "int64"), p)
