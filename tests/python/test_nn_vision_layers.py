"""interpolate/upsample (nearest, linear, bilinear, bicubic, trilinear, area),
pixel_shuffle/unshuffle, unfold/fold and their layers against torch (forward and gradients,
float32/float64), Paddle's documented examples, bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F

TF = torch.nn.functional
TOL = {"float32": 1e-5, "float64": 1e-12}
R = np.random.RandomState(0)


def _check(fn, tfn, x, dtype, perm=None):
    xs = paddle.to_tensor(x.astype(dtype), stop_gradient=False)
    X = torch.tensor(x.astype(dtype), requires_grad=True)
    y = fn(xs)
    Y = tfn(X.permute(*perm[0]) if perm else X)
    if perm:
        Y = Y.permute(*perm[1])
    assert list(y.shape) == list(Y.shape)
    tol = TOL[dtype]
    np.testing.assert_allclose(y.numpy(), Y.detach().numpy(), rtol=tol, atol=tol)
    g = R.randn(*Y.shape).astype(dtype)
    y.backward(paddle.to_tensor(g))
    Y.backward(torch.tensor(g))
    np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=tol, atol=tol * 10)


CASES = [
    (4, dict(size=[8, 9]), dict(size=(8, 9))),
    (4, dict(scale_factor=2), dict(scale_factor=2)),
    (4, dict(size=[3, 4]), dict(size=(3, 4))),
    (4, dict(size=[8, 9], mode="bilinear"), dict(size=(8, 9), mode="bilinear")),
    (4, dict(size=[3, 10], mode="bilinear", align_corners=True),
     dict(size=(3, 10), mode="bilinear", align_corners=True)),
    (4, dict(scale_factor=[1.7, 0.6], mode="bilinear"),
     dict(scale_factor=(1.7, 0.6), mode="bilinear")),
    (4, dict(size=[3, 4], mode="area"), dict(size=(3, 4), mode="area")),
    (4, dict(scale_factor=1.7, mode="bilinear", recompute_scale_factor=True),
     dict(scale_factor=1.7, mode="bilinear", recompute_scale_factor=True)),
    (3, dict(size=[11], mode="linear"), dict(size=11, mode="linear")),
    (3, dict(scale_factor=3, mode="nearest"), dict(scale_factor=3, mode="nearest")),
    (5, dict(size=[4, 6, 3], mode="trilinear", align_corners=True),
     dict(size=(4, 6, 3), mode="trilinear", align_corners=True)),
    (5, dict(size=[4, 6, 3]), dict(size=(4, 6, 3))),
    (4, dict(size=[9, 4], mode="bicubic"), dict(size=(9, 4), mode="bicubic")),
    (4, dict(size=[3, 11], mode="bicubic", align_corners=True),
     dict(size=(3, 11), mode="bicubic", align_corners=True)),
    (4, dict(scale_factor=[1.6, 0.7], mode="bicubic"),
     dict(scale_factor=(1.6, 0.7), mode="bicubic")),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("rank,kw,tkw", CASES)
def test_interpolate(dtype, rank, kw, tkw):
    x = R.randn(*[2, 3, 5, 7, 4][:rank])
    _check(lambda t: F.interpolate(t, **kw), lambda t: TF.interpolate(t, **tkw), x, dtype)


def test_interpolate_nhwc_and_align_mode_1():
    x = R.randn(2, 5, 7, 3)
    _check(lambda t: F.interpolate(t, size=[9, 4], mode="bilinear", data_format="NHWC"),
           lambda t: TF.interpolate(t, size=(9, 4), mode="bilinear"), x, "float64",
           perm=((0, 3, 1, 2), (0, 2, 3, 1)))
    # align_mode=1 samples src = dst * in / out (Paddle's legacy rule): 2x of [0, 1, 2]
    y = F.interpolate(paddle.to_tensor([[[0.0, 1.0, 2.0]]]), scale_factor=2, mode="linear",
                      align_mode=1)
    np.testing.assert_allclose(y.numpy(), [[[0, 0.5, 1, 1.5, 2, 2]]])


def test_upsample_layers_paddle_examples():
    x = paddle.rand([2, 3, 6, 10])
    assert paddle.nn.Upsample(size=[12, 12]) (x).shape == [2, 3, 12, 12]
    assert F.upsample(x, scale_factor=2, mode="bilinear").shape == [2, 3, 12, 20]
    near = paddle.nn.UpsamplingNearest2D(scale_factor=2)
    np.testing.assert_allclose(near(x).numpy(), TF.interpolate(torch.tensor(x.numpy()),
                                                               scale_factor=2).numpy())
    bil = paddle.nn.UpsamplingBilinear2D(size=[12, 12])
    np.testing.assert_allclose(
        bil(x).numpy(), TF.interpolate(torch.tensor(x.numpy()), size=(12, 12), mode="bilinear",
                                       align_corners=True).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pixel_shuffle(dtype):
    _check(lambda t: F.pixel_shuffle(t, 3), lambda t: TF.pixel_shuffle(t, 3),
           R.randn(2, 18, 4, 5), dtype)
    _check(lambda t: F.pixel_unshuffle(t, 2), lambda t: TF.pixel_unshuffle(t, 2),
           R.randn(2, 3, 4, 6), dtype)
    _check(lambda t: F.pixel_shuffle(t, 2, "NHWC"), lambda t: TF.pixel_shuffle(t, 2),
           R.randn(2, 4, 5, 8), dtype, perm=((0, 3, 1, 2), (0, 2, 3, 1)))
    _check(lambda t: F.pixel_unshuffle(t, 2, "NHWC"), lambda t: TF.pixel_unshuffle(t, 2),
           R.randn(2, 4, 6, 3), dtype, perm=((0, 3, 1, 2), (0, 2, 3, 1)))
    # Paddle's examples
    assert paddle.nn.PixelShuffle(3)(paddle.rand([2, 9, 4, 4])).shape == [2, 1, 12, 12]
    assert paddle.nn.PixelUnshuffle(3)(paddle.rand([2, 1, 12, 12])).shape == [2, 9, 4, 4]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unfold_fold(dtype):
    x = R.randn(2, 3, 6, 7)
    _check(lambda t: F.unfold(t, [2, 3], strides=[1, 2], paddings=1, dilations=[2, 1]),
           lambda t: TF.unfold(t, (2, 3), stride=(1, 2), padding=1, dilation=(2, 1)), x, dtype)
    cols = R.randn(2, 3 * 2 * 3, 6 * 4)
    _check(lambda t: F.fold(t, [6, 7], [2, 3], strides=[1, 2], paddings=1, dilations=[2, 1]),
           lambda t: TF.fold(t, (6, 7), (2, 3), stride=(1, 2), padding=1, dilation=(2, 1)),
           cols, dtype)
    # 4-value paddings are [top, left, bottom, right]
    y = F.unfold(paddle.to_tensor(x), 2, paddings=[1, 0, 2, 0])
    ref = TF.unfold(TF.pad(torch.tensor(x), (0, 0, 1, 2)), 2)
    np.testing.assert_allclose(y.numpy(), ref.numpy(), atol=1e-12)
    # Paddle's examples
    assert paddle.nn.Unfold(kernel_sizes=[3, 3])(paddle.randn([4, 3, 224, 224])).shape == \
        [4, 27, 49284]
    assert paddle.nn.Fold(output_sizes=[4, 5], kernel_sizes=2)(
        paddle.randn([2, 3 * 2 * 2, 12])).shape == [2, 3, 4, 5]


def test_bad_inputs():
    x = paddle.rand([1, 2, 4, 4])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) interpolate: argument 'mode'"):
        F.interpolate(x, size=[2, 2], mode="cubic")
    with pytest.raises(ValueError, match=r"argument 'x' expected a 3-D tensor for mode "
                                         r"'linear'"):
        F.interpolate(x, size=[2, 2], mode="linear")
    with pytest.raises(ValueError, match="exactly one of size and scale_factor"):
        F.interpolate(x)
    with pytest.raises(ValueError, match="exactly one of size and scale_factor"):
        F.interpolate(x, size=[2, 2], scale_factor=2)
    with pytest.raises(ValueError, match=r"argument 'size' expected 2 values"):
        F.interpolate(x, size=[2, 2, 2])
    with pytest.raises(ValueError, match=r"argument 'data_format' expected one of"):
        F.interpolate(x, size=[2, 2], data_format="NCL")
    with pytest.raises(ValueError, match=r"argument 'align_corners' expected False"):
        F.interpolate(x, size=[2, 2], align_corners=True)
    with pytest.raises(ValueError, match=r"argument 'align_mode' expected 0 or 1"):
        F.interpolate(x, size=[2, 2], mode="bilinear", align_mode=2)
    with pytest.raises(ValueError, match=r"argument 'scale_factor' expected positive"):
        F.interpolate(x, scale_factor=-1.0)
    with pytest.raises(ValueError, match=r"interpolate: argument 'x' expected a 4-D tensor for "
                                         r"mode 'bicubic'"):
        F.interpolate(paddle.rand([1, 2, 5]), size=[2], mode="bicubic")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) pixel_shuffle: argument 'x' "
                                         r"expected channels divisible by"):
        F.pixel_shuffle(paddle.rand([1, 3, 2, 2]), 2)
    with pytest.raises(ValueError, match=r"pixel_unshuffle: argument 'x' expected height"):
        F.pixel_unshuffle(paddle.rand([1, 3, 3, 2]), 2)
    with pytest.raises(ValueError, match=r"pixel_shuffle: argument 'upscale_factor'"):
        F.pixel_shuffle(x, 0)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) unfold: argument 'x' expected "
                                         r"a 4-D tensor"):
        F.unfold(paddle.rand([2, 4, 4]), 2)
    with pytest.raises(ValueError, match=r"unfold: argument 'paddings' expected"):
        F.unfold(x, 2, paddings=[1, 2, 3])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) fold: argument 'x' expected 9 "
                                         r"blocks"):
        F.fold(paddle.rand([1, 8, 10]), [4, 4], 2)
    with pytest.raises(ValueError, match=r"fold: argument 'x' expected dim 1 divisible"):
        F.fold(paddle.rand([1, 7, 9]), [4, 4], 2)
