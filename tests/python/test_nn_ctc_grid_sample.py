"""ctc_loss / CTCLoss and grid_sample against torch: values and gradients (for grid_sample,
of x and grid), every mode, padding mode and align_corners, 2-D and 3-D; bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F

TF = torch.nn.functional
R = np.random.RandomState(7)


def _ctc_case():
    x = R.randn(12, 4, 6)
    labels = np.array([[1, 2, 2, 3], [4, 5, 1, 1], [3, 3, 3, 0], [2, 0, 0, 0]])
    return x, labels, np.array([12, 10, 9, 5]), np.array([4, 4, 3, 1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_ctc_loss(dtype, reduction):
    x, labels, in_len, lab_len = _ctc_case()
    tol = 1e-5 if dtype == "float32" else 1e-10
    xs = paddle.to_tensor(x.astype(dtype), stop_gradient=False)
    out = F.ctc_loss(xs, paddle.to_tensor(labels.astype("int32")), paddle.to_tensor(in_len),
                     paddle.to_tensor(lab_len), 0, reduction)
    assert out.dtype == xs.dtype
    X = torch.tensor(x.astype(dtype), requires_grad=True)
    # Paddle's warpctc takes logits: torch's ctc_loss gets their log_softmax
    ref = TF.ctc_loss(X.log_softmax(-1), torch.tensor(labels), torch.tensor(in_len),
                      torch.tensor(lab_len), 0, reduction)
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=tol, atol=tol)
    g = R.uniform(0.5, 1.5, ref.shape).astype(dtype)
    out.backward(paddle.to_tensor(g))
    ref.backward(torch.tensor(g))
    np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=tol, atol=tol)


def test_ctc_layer_blank_norm_by_times_and_infeasible():
    x, labels, in_len, lab_len = _ctc_case()
    labels = np.where(labels == 5, 0, labels)  # blank 5 below
    xs = paddle.to_tensor(x, stop_gradient=False)
    loss = paddle.nn.CTCLoss(blank=5, reduction="sum")
    out = loss(xs, paddle.to_tensor(labels), paddle.to_tensor(in_len), paddle.to_tensor(lab_len),
               norm_by_times=True)
    X = torch.tensor(x, requires_grad=True)
    ref = TF.ctc_loss(X.log_softmax(-1), torch.tensor(labels), torch.tensor(in_len),
                      torch.tensor(lab_len), 5, "none")
    np.testing.assert_allclose(out.numpy(), ref.sum().item(), rtol=1e-10)
    out.backward()
    (ref / torch.tensor(in_len)).sum().backward()  # norm_by_times: the gradient only
    np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=1e-10, atol=1e-12)
    # three repeated labels need 5 frames: an infinite loss and no gradient for that sample
    xs = paddle.to_tensor(R.randn(4, 2, 3), stop_gradient=False)
    out = F.ctc_loss(xs, paddle.to_tensor([[1, 1, 1], [1, 2, 0]]), paddle.to_tensor([4, 4]),
                     paddle.to_tensor([3, 2]), reduction="none")
    assert np.isinf(out.numpy()[0]) and np.isfinite(out.numpy()[1])
    out[1].backward()
    assert np.all(xs.grad.numpy()[:, 0] == 0)


def test_ctc_bad_inputs():
    x = paddle.rand([5, 2, 4])
    lab = paddle.to_tensor([[1, 2], [3, 1]])
    lens = paddle.to_tensor([5, 5])
    with pytest.raises(ValueError, match=r"ctc_loss: argument 'log_probs' expected a 3-D"):
        F.ctc_loss(paddle.rand([5, 4]), lab, lens, lens)
    with pytest.raises(ValueError, match=r"ctc_loss: argument 'input_lengths' expected values "
                                         r"in \[1, 5\]"):
        F.ctc_loss(x, lab, paddle.to_tensor([6, 5]), paddle.to_tensor([2, 2]))
    with pytest.raises(ValueError, match=r"ctc_loss: argument 'label_lengths' expected values "
                                         r"in \[0, 2\]"):
        F.ctc_loss(x, lab, lens, paddle.to_tensor([3, 2]))
    with pytest.raises(ValueError, match=r"ctc_loss: argument 'labels' expected class indices "
                                         r"in \[0, 4\) other than blank \(0\)"):
        F.ctc_loss(x, paddle.to_tensor([[1, 0], [3, 1]]), lens, paddle.to_tensor([2, 2]))
    with pytest.raises(ValueError, match=r"ctc_loss: argument 'blank' expected a value in"):
        F.ctc_loss(x, lab, lens, paddle.to_tensor([2, 2]), blank=4)
    with pytest.raises(TypeError, match=r"ctc_loss: argument 'labels' expected dtype int32"):
        F.ctc_loss(x, paddle.rand([2, 2]), lens, paddle.to_tensor([2, 2]))
    with pytest.raises(ValueError, match=r"ctc_loss: argument 'reduction'"):
        F.ctc_loss(x, lab, lens, paddle.to_tensor([2, 2]), reduction="avg")


def _check_grid(x, g, **kw):
    xs = paddle.to_tensor(x, stop_gradient=False)
    gs = paddle.to_tensor(g, stop_gradient=False)
    X = torch.tensor(x, requires_grad=True)
    G = torch.tensor(g, requires_grad=True)
    y, Y = F.grid_sample(xs, gs, **kw), TF.grid_sample(X, G, **kw)
    np.testing.assert_allclose(y.numpy(), Y.detach().numpy(), rtol=1e-10, atol=1e-10)
    w = R.randn(*Y.shape)
    y.backward(paddle.to_tensor(w))
    Y.backward(torch.tensor(w))
    np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=1e-9, atol=1e-9)
    if kw["mode"] == "bilinear":
        np.testing.assert_allclose(gs.grad.numpy(), G.grad.numpy(), rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [True, False])
def test_grid_sample_2d(mode, padding_mode, align_corners):
    _check_grid(R.randn(2, 3, 5, 6), R.uniform(-1.3, 1.3, (2, 4, 7, 2)), mode=mode,
                padding_mode=padding_mode, align_corners=align_corners)


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [True, False])
def test_grid_sample_3d(padding_mode, align_corners):
    _check_grid(R.randn(2, 2, 4, 5, 3), R.uniform(-1.2, 1.2, (2, 3, 2, 4, 3)), mode="bilinear",
                padding_mode=padding_mode, align_corners=align_corners)


def test_grid_sample_with_affine_grid_and_errors():
    # the identity affine grid reproduces the input (Paddle's default align_corners=True)
    x = paddle.to_tensor(R.randn(1, 2, 4, 5))
    theta = paddle.to_tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], dtype="float64")
    grid = F.affine_grid(theta, [1, 2, 4, 5])
    np.testing.assert_allclose(F.grid_sample(x, grid).numpy(), x.numpy(), rtol=1e-12,
                               atol=1e-12)
    with pytest.raises(ValueError, match=r"grid_sample: argument 'mode' expected 'bilinear' or "
                                         r"'nearest'"):
        F.grid_sample(x, grid, mode="bicubic")
    with pytest.raises(ValueError, match=r"grid_sample: argument 'padding_mode'"):
        F.grid_sample(x, grid, padding_mode="wrap")
    with pytest.raises(ValueError, match=r"grid_sample: argument 'grid' expected shape "
                                         r"\[1, \.\.\., 2\]"):
        F.grid_sample(x, paddle.rand([1, 4, 5, 3], dtype="float64"))
    with pytest.raises(TypeError, match=r"grid_sample: argument 'grid' expected x's dtype"):
        F.grid_sample(x, paddle.rand([1, 4, 5, 2]))
