"""paddle.vision.ops detection ops: roi_align, roi_pool, nms, box_coder and the RoIAlign /
RoIPool layers, against numpy implementations of Paddle's rules written here (no torchvision
in Debian), with numeric gradient checks, 16-bit dtypes, bad inputs and to_static capture."""
import math

import numpy as np
import pytest

import skiff as paddle
from skiff.vision import ops as vops


# ---------------------------------------------------------------------------------------------
# numpy references (Paddle's phi CPU kernels' rules, written independently of the C++ code)

def np_bilinear(plane, y, x):
    h, w = plane.shape
    if y < -1.0 or y > h or x < -1.0 or x > w:
        return 0.0
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(math.floor(y)), int(math.floor(x))
    if y0 >= h - 1:
        y0 = y1 = h - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= w - 1:
        x0 = x1 = w - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * plane[y0, x0] + (1 - ly) * lx * plane[y0, x1]
            + ly * (1 - lx) * plane[y1, x0] + ly * lx * plane[y1, x1])


def image_of(boxes_num, k):
    return np.repeat(np.arange(len(boxes_num)), boxes_num)[:k]


def np_roi_align(x, boxes, boxes_num, ph, pw, scale=1.0, ratio=-1, aligned=True):
    k, c = boxes.shape[0], x.shape[1]
    out = np.zeros((k, c, ph, pw))
    img = image_of(boxes_num, k)
    off = 0.5 if aligned else 0.0
    for r in range(k):
        x1, y1, x2, y2 = boxes[r] * scale - off
        rw, rh = x2 - x1, y2 - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / ph, rw / pw
        gh = ratio if ratio > 0 else int(math.ceil(rh / ph))
        gw = ratio if ratio > 0 else int(math.ceil(rw / pw))
        count = max(gh * gw, 1)
        for ch in range(c):
            plane = x[img[r], ch]
            for i in range(ph):
                for j in range(pw):
                    s = 0.0
                    for iy in range(gh):
                        yy = y1 + i * bh + (iy + 0.5) * bh / gh
                        for ix in range(gw):
                            xx = x1 + j * bw + (ix + 0.5) * bw / gw
                            s += np_bilinear(plane, yy, xx)
                    out[r, ch, i, j] = s / count
    return out


def np_roi_pool(x, boxes, boxes_num, ph, pw, scale=1.0):
    k, c, h, w = boxes.shape[0], x.shape[1], x.shape[2], x.shape[3]
    out = np.zeros((k, c, ph, pw))
    arg = -np.ones((k, c, ph, pw), np.int64)
    img = image_of(boxes_num, k)
    for r in range(k):
        # C's round: half away from zero.
        x1, y1, x2, y2 = [int(np.sign(v) * np.floor(abs(v) + 0.5)) for v in boxes[r] * scale]
        bh, bw = max(y2 - y1 + 1, 1) / ph, max(x2 - x1 + 1, 1) / pw
        for i in range(ph):
            hs = min(max(int(math.floor(i * bh)) + y1, 0), h)
            he = min(max(int(math.ceil((i + 1) * bh)) + y1, 0), h)
            for j in range(pw):
                ws = min(max(int(math.floor(j * bw)) + x1, 0), w)
                we = min(max(int(math.ceil((j + 1) * bw)) + x1, 0), w)
                if he <= hs or we <= ws:
                    continue
                for ch in range(c):
                    win = x[img[r], ch, hs:he, ws:we]
                    p = np.unravel_index(np.argmax(win), win.shape)
                    out[r, ch, i, j] = win[p]
                    arg[r, ch, i, j] = (hs + p[0]) * w + ws + p[1]
    return out, arg


def np_iou(a, b):
    iw = max(min(a[2], b[2]) - max(a[0], b[0]), 0.0)
    ih = max(min(a[3], b[3]) - max(a[1], b[1]), 0.0)
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union


def np_nms(boxes, thresh):
    keep = []
    for i in range(len(boxes)):
        if all(np_iou(boxes[j], boxes[i]) <= thresh for j in keep):
            keep.append(i)
    return np.array(keep, np.int64)


def np_nms_scores(boxes, thresh, scores, cats=None, categories=None, top_k=None):
    """Paddle's composition: per category nms in score order, the kept ones sorted by score."""
    if cats is None:
        order = np.argsort(-scores, kind="stable")
        keep = order[np_nms(boxes[order], thresh)]
    else:
        keep = []
        for cat in categories:
            idx = np.nonzero(cats == cat)[0]
            order = idx[np.argsort(-scores[idx], kind="stable")]
            keep.extend(order[np_nms(boxes[order], thresh)])
        keep = np.array(keep, np.int64)
        keep = keep[np.argsort(-scores[keep], kind="stable")]
    return keep if top_k is None else keep[:top_k]


def np_box_coder(prior, var, target, code_type, normalized=True, axis=0):
    px = 0.0 if normalized else 1.0
    pw = prior[:, 2] - prior[:, 0] + px
    ph = prior[:, 3] - prior[:, 1] + px
    pcx, pcy = prior[:, 0] + pw / 2, prior[:, 1] + ph / 2
    v = np.ones((prior.shape[0], 4)) if var is None else np.broadcast_to(
        np.asarray(var, np.float64), (prior.shape[0], 4))
    if code_type == "encode_center_size":
        tw = target[:, 2] - target[:, 0] + px
        th = target[:, 3] - target[:, 1] + px
        tcx, tcy = target[:, 0] + tw / 2, target[:, 1] + th / 2
        out = np.stack([(tcx[:, None] - pcx[None]) / pw[None],
                        (tcy[:, None] - pcy[None]) / ph[None],
                        np.log(np.abs(tw[:, None] / pw[None])),
                        np.log(np.abs(th[:, None] / ph[None]))], axis=-1)
        return out / v[None]
    ex = (lambda a: a[None, :]) if axis == 0 else (lambda a: a[:, None])
    vv = v[None] if axis == 0 else v[:, None]
    cx = vv[..., 0] * target[..., 0] * ex(pw) + ex(pcx)
    cy = vv[..., 1] * target[..., 1] * ex(ph) + ex(pcy)
    w = np.exp(vv[..., 2] * target[..., 2]) * ex(pw)
    h = np.exp(vv[..., 3] * target[..., 3]) * ex(ph)
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2 - px, cy + h / 2 - px], axis=-1)


# ---------------------------------------------------------------------------------------------
# inputs

def make_boxes(rng, k, h, w, scale=1.0):
    """Boxes in input coordinates, some reaching past the image border."""
    x1 = rng.uniform(-1.0, w - 1.0, k) / scale
    y1 = rng.uniform(-1.0, h - 1.0, k) / scale
    bw = rng.uniform(0.3, w / 1.5, k) / scale
    bh = rng.uniform(0.3, h / 1.5, k) / scale
    return np.stack([x1, y1, x1 + bw, y1 + bh], axis=1)


def roi_inputs(seed=0, n=3, c=2, h=7, w=8, boxes_num=(2, 0, 3), scale=1.0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c, h, w))
    boxes = make_boxes(rng, sum(boxes_num), h, w, scale)
    return x, boxes, np.array(boxes_num, np.int32)


def T(a, dtype=None, grad=False):
    t = paddle.to_tensor(a if dtype is None else np.asarray(a).astype(dtype))
    t.stop_gradient = not grad
    return t


# ---------------------------------------------------------------------------------------------
# roi_align

@pytest.mark.parametrize("aligned", [True, False])
@pytest.mark.parametrize("ratio", [-1, 2])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_roi_align_matches_numpy(aligned, ratio, scale):
    x, boxes, num = roi_inputs(scale=scale)
    got = vops.roi_align(T(x), T(boxes), T(num), (2, 3), scale, ratio, aligned)
    assert got.shape == [5, 2, 2, 3] and got.dtype == paddle.float64
    want = np_roi_align(x, boxes, num, 2, 3, scale, ratio, aligned)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_roi_align_float32_and_layer():
    x, boxes, num = roi_inputs(seed=1, n=2, c=4, h=9, w=9, boxes_num=(3, 2))
    layer = vops.RoIAlign(output_size=3, spatial_scale=1.0)
    got = layer(T(x, "float32"), T(boxes, "float32"), T(num))
    want = np_roi_align(x.astype(np.float32).astype(np.float64),
                        boxes.astype(np.float32).astype(np.float64), num, 3, 3)
    assert got.dtype == paddle.float32
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
    # forward(aligned=False) reaches the op
    legacy = layer(T(x, "float32"), T(boxes, "float32"), T(num), aligned=False)
    want = np_roi_align(x.astype(np.float32).astype(np.float64),
                        boxes.astype(np.float32).astype(np.float64), num, 3, 3, aligned=False)
    np.testing.assert_allclose(legacy.numpy(), want, rtol=1e-5, atol=1e-5)


def test_roi_align_paddle_example_shape():
    data = paddle.rand([1, 256, 32, 32])
    boxes = paddle.rand([3, 4])
    boxes[:, 2] += boxes[:, 0] + 3
    boxes[:, 3] += boxes[:, 1] + 4
    boxes_num = paddle.to_tensor([3]).astype("int32")
    assert vops.roi_align(data, boxes, boxes_num, output_size=3).shape == [3, 256, 3, 3]
    assert vops.RoIAlign(output_size=(4, 3))(data, boxes, boxes_num).shape == [3, 256, 4, 3]


def numeric_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d.flat[i] = eps
        g.flat[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


@pytest.mark.parametrize("aligned", [True, False])
def test_roi_align_grad_numeric(aligned):
    x, boxes, num = roi_inputs(seed=2, n=2, c=2, h=5, w=6, boxes_num=(2, 2))
    v = np.random.default_rng(3).standard_normal((4, 2, 2, 2))

    def loss(xa):
        return float((np_roi_align(xa, boxes, num, 2, 2, 1.0, 2, aligned) * v).sum())

    xt = T(x, grad=True)
    out = vops.roi_align(xt, T(boxes), T(num), 2, 1.0, 2, aligned)
    (out * T(v)).sum().backward()
    np.testing.assert_allclose(xt.grad.numpy(), numeric_grad(loss, x), rtol=1e-6, atol=1e-8)


def test_roi_align_double_backward():
    # x.grad is linear in the output gradient: d/dv <x.grad, u> = roi_align(u).
    x, boxes, num = roi_inputs(seed=4, n=1, c=2, h=6, w=6, boxes_num=(3,))
    xt = T(x, grad=True)
    v = T(np.random.default_rng(5).standard_normal((3, 2, 2, 2)), grad=True)
    out = vops.roi_align(xt, T(boxes), T(num), 2, sampling_ratio=2)
    (gx,) = paddle.grad([(out * v).sum()], [xt], create_graph=True)
    u = np.random.default_rng(6).standard_normal(x.shape)
    (gv,) = paddle.grad([(gx * T(u)).sum()], [v])
    want = np_roi_align(u, boxes, num, 2, 2, 1.0, 2)
    np.testing.assert_allclose(gv.numpy(), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 2e-2), ("float16", 2e-3)])
def test_roi_align_16bit(dtype, tol):
    x, boxes, num = roi_inputs(seed=7, n=2, c=3, h=8, w=8, boxes_num=(2, 2))
    xt = T(T(x, "float32").astype(dtype).numpy().astype(np.float32)).astype(dtype)
    xt.stop_gradient = False
    out = vops.roi_align(xt, T(boxes, "float32"), T(num), 3)
    assert out.dtype == getattr(paddle, dtype)
    x_rounded = xt.astype("float64").numpy()
    want = np_roi_align(x_rounded, boxes.astype(np.float32).astype(np.float64), num, 3, 3)
    # each output is a mean of values of magnitude ~1: one 16-bit rounding of the result
    np.testing.assert_allclose(out.astype("float64").numpy(), want, rtol=tol, atol=tol)
    out.astype("float32").sum().backward()
    assert xt.grad.dtype == getattr(paddle, dtype)
    ref = T(x_rounded, grad=True)
    vops.roi_align(ref, T(boxes.astype(np.float32).astype(np.float64)), T(num), 3).sum().backward()
    np.testing.assert_allclose(xt.grad.astype("float64").numpy(), ref.grad.numpy(), rtol=tol,
                               atol=tol)


def test_roi_align_empty_boxes():
    x = T(np.ones((2, 3, 4, 4)), grad=True)
    out = vops.roi_align(x, T(np.zeros((0, 4))), T(np.array([0, 0], np.int32)), 2)
    assert out.shape == [0, 3, 2, 2]
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((2, 3, 4, 4)))


def test_roi_align_without_boxes_num_single_image():
    x, boxes, num = roi_inputs(seed=8, n=1, boxes_num=(3,))
    got = vops.roi_align(T(x), T(boxes), None, 2)
    np.testing.assert_allclose(got.numpy(), np_roi_align(x, boxes, num, 2, 2), atol=1e-12)


def test_roi_align_bad_inputs():
    x, boxes, num = roi_inputs()
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) roi_align: argument 'boxes' "
                       r"expected a 2-D tensor \[num_boxes, 4\], got \[5, 5\]"):
        vops.roi_align(T(x), T(np.zeros((5, 5))), T(num), 2)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) roi_align: argument 'boxes' "
                       r"expected a 2-D tensor \[num_boxes, 4\], got \[20\]"):
        vops.roi_align(T(x), T(np.zeros(20)), T(num), 2)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) roi_align: argument 'boxes_num' "
                       r"expected counts summing to the number of boxes \(5\), got 4"):
        vops.roi_align(T(x), T(boxes), T(np.array([2, 0, 2], np.int32)), 2)
    with pytest.raises(ValueError, match=r"roi_align: argument 'boxes_num' expected a 1-D "
                       r"tensor \[3\] \(one count per image of x\), got \[2\]"):
        vops.roi_align(T(x), T(boxes), T(np.array([2, 3], np.int32)), 2)
    with pytest.raises(ValueError, match=r"roi_align: argument 'boxes_num' expected "
                       r"non-negative counts, got -1 at image 1"):
        vops.roi_align(T(x), T(boxes), T(np.array([6, -1, 0], np.int32)), 2)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) roi_align: argument "
                       r"'output_size' expected positive sizes, got \(0, 2\)"):
        vops.roi_align(T(x), T(boxes), T(num), (0, 2))
    with pytest.raises(ValueError, match=r"roi_align: argument 'output_size' expected positive "
                       r"sizes, got -1"):
        vops.roi_align(T(x), T(boxes), T(num), -1)
    with pytest.raises(TypeError, match=r"roi_align: argument 'output_size' expected an int or "
                       r"a tuple of 2 ints, got float"):
        vops.roi_align(T(x), T(boxes), T(num), 2.5)
    with pytest.raises(ValueError, match=r"roi_align: argument 'x' expected a 4-D tensor "
                       r"\[N, C, H, W\], got \[2, 7, 8\]"):
        vops.roi_align(T(x[0]), T(boxes), T(num), 2)
    with pytest.raises(ValueError, match=r"roi_align: argument 'spatial_scale' expected a "
                       r"positive value, got 0"):
        vops.roi_align(T(x), T(boxes), T(num), 2, spatial_scale=0.0)
    with pytest.raises(TypeError, match=r"roi_align: argument 'boxes_num' expected dtype int32 "
                       r"or int64, got float"):
        vops.roi_align(T(x), T(boxes), T(num, "float32"), 2)
    with pytest.raises(ValueError, match=r"roi_align: argument 'boxes_num' expected a tensor of "
                       r"per-image box counts when x has more than one image"):
        vops.roi_align(T(x), T(boxes), None, 2)


def test_roi_align_to_static():
    x, boxes, num = roi_inputs(seed=9)
    layer = vops.RoIAlign(output_size=(2, 2), spatial_scale=1.0)

    def fn(x, boxes, num):
        return layer(x, boxes, num) * 2.0

    static = paddle.jit.to_static(fn, full_graph=True)
    xs = T(x, grad=True)
    got = static(xs, T(boxes), T(num))
    assert "op.roi_align" in str(static.concrete_program.main_program)
    want = np_roi_align(x, boxes, num, 2, 2) * 2.0
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    got.sum().backward()
    xe = T(x, grad=True)
    fn(xe, T(boxes), T(num)).sum().backward()
    np.testing.assert_allclose(xs.grad.numpy(), xe.grad.numpy(), rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# roi_pool

@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_roi_pool_matches_numpy(scale):
    x, boxes, num = roi_inputs(seed=10, scale=scale)
    got = vops.roi_pool(T(x), T(boxes), T(num), (3, 2), scale)
    want, _ = np_roi_pool(x, boxes, num, 3, 2, scale)
    np.testing.assert_array_equal(got.numpy(), want)
    out, arg = paddle._C.ops.roi_pool(T(x), T(boxes), T(num), 3, 2, scale)
    assert arg.dtype == paddle.int64
    np.testing.assert_array_equal(arg.numpy(), np_roi_pool(x, boxes, num, 3, 2, scale)[1])


def test_roi_pool_layer_and_empty_bins():
    # A box past the image border has empty bins: 0 and no gradient.
    x = np.arange(2 * 4 * 4, dtype=np.float32).reshape(1, 2, 4, 4)
    boxes = np.array([[0, 0, 1, 1], [3, 3, 9, 9]], np.float32)
    layer = vops.RoIPool(output_size=2)
    out = layer(T(x), T(boxes), T(np.array([2], np.int32)))
    want, _ = np_roi_pool(x.astype(np.float64), boxes, [2], 2, 2)
    np.testing.assert_array_equal(out.numpy(), want)
    assert (want[1] == 0).any()


def test_roi_pool_grad_numeric():
    x, boxes, num = roi_inputs(seed=11, n=2, c=2, h=6, w=6, boxes_num=(2, 1))
    v = np.random.default_rng(12).standard_normal((3, 2, 2, 2))

    def loss(xa):
        return float((np_roi_pool(xa, boxes, num, 2, 2)[0] * v).sum())

    xt = T(x, grad=True)
    (vops.roi_pool(xt, T(boxes), T(num), 2) * T(v)).sum().backward()
    np.testing.assert_allclose(xt.grad.numpy(), numeric_grad(loss, x), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_roi_pool_16bit_exact(dtype):
    # The maximum of 16-bit values is one of them: exact.
    x, boxes, num = roi_inputs(seed=13)
    xt = T(x, "float32").astype(dtype)
    xt.stop_gradient = False
    out = vops.roi_pool(xt, T(boxes, "float32"), T(num), 2)
    want, _ = np_roi_pool(xt.astype("float64").numpy(), boxes.astype(np.float32), num, 2, 2)
    np.testing.assert_array_equal(out.astype("float64").numpy(), want)
    out.astype("float32").sum().backward()
    assert xt.grad.dtype == getattr(paddle, dtype)


def test_roi_pool_bad_inputs():
    x, boxes, num = roi_inputs()
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) roi_pool: argument 'boxes' "
                       r"expected a 2-D tensor \[num_boxes, 4\], got \[5, 3\]"):
        vops.roi_pool(T(x), T(np.zeros((5, 3))), T(num), 2)
    with pytest.raises(ValueError, match=r"roi_pool: argument 'boxes_num' expected counts "
                       r"summing to the number of boxes \(5\), got 6"):
        vops.roi_pool(T(x), T(boxes), T(np.array([2, 1, 3], np.int32)), 2)
    with pytest.raises(ValueError, match=r"roi_pool: argument 'output_size' expected positive "
                       r"sizes, got \(2, 0\)"):
        vops.roi_pool(T(x), T(boxes), T(num), (2, 0))


def test_roi_pool_empty_boxes():
    x = T(np.ones((1, 2, 3, 3)), grad=True)
    out = vops.roi_pool(x, T(np.zeros((0, 4))), T(np.array([0], np.int32)), 2)
    assert out.shape == [0, 2, 2, 2]
    out.sum().backward()
    assert not x.grad.numpy().any()


# ---------------------------------------------------------------------------------------------
# nms

def random_boxes(rng, k, extent=10.0):
    xy = rng.uniform(0, extent, (k, 2))
    wh = rng.uniform(0.5, extent / 2, (k, 2))
    return np.concatenate([xy, xy + wh], axis=1)


@pytest.mark.parametrize("thresh", [0.1, 0.3, 0.7])
def test_nms_matches_numpy(thresh):
    boxes = random_boxes(np.random.default_rng(20), 200)
    got = vops.nms(T(boxes), thresh)
    assert got.dtype == paddle.int64
    np.testing.assert_array_equal(got.numpy(), np_nms(boxes, thresh))
    got32 = vops.nms(T(boxes, "float32"), thresh)
    np.testing.assert_array_equal(got32.numpy(), np_nms(boxes.astype(np.float32), thresh))


def test_nms_paddle_example():
    boxes = np.array([[0.06287421, 0.5809351, 0.3443958, 0.8713329],
                      [0.0749094, 0.9713205, 0.99241287, 1.2799143],
                      [0.46246734, 0.6753201, 1.346266, 1.3821303],
                      [0.8984796, 0.5619834, 1.1254641, 1.0201943]], np.float32)
    np.testing.assert_array_equal(vops.nms(T(boxes), 0.1).numpy(), np_nms(boxes, 0.1))
    scores = T(np.array([0.98015213, 0.3156527, 0.8199343, 0.874901], np.float32))
    out = vops.nms(T(boxes), 0.1, scores, T(np.array([2, 0, 0, 3])), [0, 1, 2, 3], 4)
    np.testing.assert_array_equal(out.numpy(), [0, 3, 2])


def test_nms_with_scores_and_categories():
    rng = np.random.default_rng(21)
    boxes = random_boxes(rng, 120)
    scores = rng.permutation(120).astype(np.float64) / 120  # distinct: one order
    cats = rng.integers(0, 4, 120)
    got = vops.nms(T(boxes), 0.3, T(scores))
    np.testing.assert_array_equal(got.numpy(), np_nms_scores(boxes, 0.3, scores))
    got = vops.nms(T(boxes), 0.3, T(scores), T(cats), [0, 1, 2, 3])
    np.testing.assert_array_equal(got.numpy(),
                                  np_nms_scores(boxes, 0.3, scores, cats, [0, 1, 2, 3]))
    # categories outside the list are dropped; top_k keeps the best
    got = vops.nms(T(boxes), 0.3, T(scores), T(cats), [1, 3], top_k=5)
    np.testing.assert_array_equal(got.numpy(),
                                  np_nms_scores(boxes, 0.3, scores, cats, [1, 3], 5))
    got = vops.nms(T(boxes), 0.3, T(scores), top_k=7)
    np.testing.assert_array_equal(got.numpy(), np_nms_scores(boxes, 0.3, scores)[:7])


def test_nms_empty_and_bad_inputs():
    assert vops.nms(T(np.zeros((0, 4))), 0.5).shape == [0]
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) nms: argument 'x' expected a 2-D "
                       r"tensor \[num_boxes, 4\], got \[3, 2\]"):
        vops.nms(T(np.zeros((3, 2))), 0.5)
    with pytest.raises(TypeError, match=r"nms: argument 'x' expected a floating dtype"):
        vops.nms(T(np.zeros((3, 4), np.int64)), 0.5)
    boxes, scores = T(random_boxes(np.random.default_rng(0), 4)), T(np.arange(4.0))
    with pytest.raises(ValueError, match=r"nms: argument 'categories' expected the list"):
        vops.nms(boxes, 0.5, scores, T(np.zeros(4, np.int64)))
    with pytest.raises(ValueError, match=r"nms: argument 'top_k' expected at most the number of "
                       r"boxes \(4\), got 5"):
        vops.nms(boxes, 0.5, scores, T(np.zeros(4, np.int64)), [0], top_k=5)


# ---------------------------------------------------------------------------------------------
# box_coder

def coder_inputs(seed=30, m=5, n=4, normalized=True):
    rng = np.random.default_rng(seed)
    extent = 1.0 if normalized else 50.0
    prior = random_boxes(rng, m, extent)
    target = random_boxes(rng, n, extent)
    var = rng.uniform(0.1, 0.3, (m, 4))
    return prior, target, var


@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("var_kind", ["tensor", "list", "none"])
def test_box_coder_encode(normalized, var_kind):
    prior, target, var = coder_inputs(normalized=normalized)
    var_arg = {"tensor": T(var), "list": [0.1, 0.1, 0.2, 0.2], "none": None}[var_kind]
    var_np = {"tensor": var, "list": [0.1, 0.1, 0.2, 0.2], "none": None}[var_kind]
    got = vops.box_coder(T(prior), var_arg, T(target), "encode_center_size", normalized)
    assert got.shape == [4, 5, 4]
    want = np_box_coder(prior, var_np, target, "encode_center_size", normalized)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("normalized", [True, False])
def test_box_coder_decode(axis, normalized):
    prior, _, var = coder_inputs(seed=31, m=5, normalized=normalized)
    rng = np.random.default_rng(32)
    target = rng.standard_normal((5, 5, 4)) * 0.5
    got = vops.box_coder(T(prior), T(var), T(target), "decode_center_size", normalized, axis)
    want = np_box_coder(prior, var, target, "decode_center_size", normalized, axis)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    # float32 and a variance list
    got = vops.box_coder(T(prior, "float32"), [0.1, 0.1, 0.2, 0.2], T(target, "float32"),
                         "decode_center_size", normalized, axis)
    want = np_box_coder(prior, [0.1, 0.1, 0.2, 0.2], target, "decode_center_size", normalized,
                        axis)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-4)


def test_box_coder_round_trip():
    prior, target, var = coder_inputs(seed=33, m=3, n=6)
    code = vops.box_coder(T(prior), T(var), T(target), "encode_center_size")
    back = vops.box_coder(T(prior), T(var), code, "decode_center_size", axis=0)
    np.testing.assert_allclose(back.numpy(), np.broadcast_to(target[:, None], (6, 3, 4)),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 3e-2), ("float16", 3e-3)])
def test_box_coder_16bit(dtype, tol):
    prior, target, var = coder_inputs(seed=34)
    t16 = T(target, "float32").astype(dtype)
    got = vops.box_coder(T(prior, "float32").astype(dtype), [0.1, 0.1, 0.2, 0.2], t16)
    assert got.dtype == getattr(paddle, dtype)
    want = np_box_coder(T(prior, "float32").astype(dtype).astype("float64").numpy(),
                        [0.1, 0.1, 0.2, 0.2], t16.astype("float64").numpy(),
                        "encode_center_size")
    np.testing.assert_allclose(got.astype("float64").numpy(), want, rtol=tol, atol=tol)


def test_box_coder_bad_inputs():
    prior, target, var = coder_inputs()
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) box_coder: argument 'code_type' "
                       r"expected \"encode_center_size\" or \"decode_center_size\", got encode"):
        vops.box_coder(T(prior), None, T(target), "encode")
    with pytest.raises(ValueError, match=r"box_coder: argument 'prior_box' expected a 2-D tensor "
                       r"\[num_boxes, 4\], got \[5, 3\]"):
        vops.box_coder(T(prior[:, :3]), None, T(target))
    with pytest.raises(ValueError, match=r"box_coder: argument 'prior_box_var' expected the "
                       r"shape of prior_box \[5, 4\], got \[4, 4\]"):
        vops.box_coder(T(prior), T(var[:4]), T(target))
    with pytest.raises(ValueError, match=r"box_coder: argument 'target_box' expected a 3-D tensor "
                       r"\[N, M, 4\] \(decode_center_size\), got \[4, 4\]"):
        vops.box_coder(T(prior), None, T(target), "decode_center_size")
    with pytest.raises(ValueError, match=r"box_coder: argument 'prior_box' expected \[3, 4\] "
                       r"\(target_box's dim 1 for axis 0\), got \[5, 4\]"):
        vops.box_coder(T(prior), None, T(np.zeros((2, 3, 4))), "decode_center_size")
    with pytest.raises(ValueError, match=r"box_coder: argument 'prior_box_var' expected 4 "
                       r"variances, got 3"):
        vops.box_coder(T(prior), [0.1, 0.1, 0.2], T(target))
    with pytest.raises(TypeError, match=r"box_coder: argument 'prior_box_var' expected a Tensor, "
                       r"a list of 4 floats or None, got str"):
        vops.box_coder(T(prior), "var", T(target))
    with pytest.raises(ValueError, match=r"box_coder: argument 'axis' expected 0 or 1, got 2"):
        vops.box_coder(T(prior), None, T(np.zeros((4, 5, 4))), "decode_center_size", axis=2)


def test_paddle_namespace():
    for name in ["roi_align", "RoIAlign", "roi_pool", "RoIPool", "nms", "box_coder",
                 "deform_conv2d", "DeformConv2D"]:
        assert getattr(paddle.vision.ops, name) is getattr(vops, name)


# ---------------------------------------------------------------------------------------------
# deform_conv2d

def np_deform_bilinear(plane, y, x):
    h, w = plane.shape
    y0, x0 = int(math.floor(y)), int(math.floor(x))
    ly, lx = y - y0, x - x0

    def at(a, b):
        return plane[a, b] if 0 <= a < h and 0 <= b < w else 0.0

    return ((1 - ly) * (1 - lx) * at(y0, x0) + (1 - ly) * lx * at(y0, x0 + 1)
            + ly * (1 - lx) * at(y0 + 1, x0) + ly * lx * at(y0 + 1, x0 + 1))


def np_deform_conv2d(x, off, wt, b, stride, pad, dil, dg, groups, mask):
    n, c, h, w = x.shape
    oc, cg, kh, kw = wt.shape
    oh = (h + 2 * pad - (dil * (kh - 1) + 1)) // stride + 1
    ow = (w + 2 * pad - (dil * (kw - 1) + 1)) // stride + 1
    out = np.zeros((n, oc, oh, ow))
    for b_ in range(n):
        for o in range(oc):
            g = o // (oc // groups)
            for i_ in range(oh):
                for j_ in range(ow):
                    acc = 0.0
                    for cc in range(cg):
                        ch = g * cg + cc
                        d = ch // (c // dg)
                        for i in range(kh):
                            for j in range(kw):
                                t = i * kw + j
                                oy = off[b_, d * 2 * kh * kw + 2 * t, i_, j_]
                                ox = off[b_, d * 2 * kh * kw + 2 * t + 1, i_, j_]
                                y = i_ * stride - pad + i * dil + oy
                                xx = j_ * stride - pad + j * dil + ox
                                v = np_deform_bilinear(x[b_, ch], y, xx) if (
                                    -1 < y < h and -1 < xx < w) else 0.0
                                if mask is not None:
                                    v *= mask[b_, d * kh * kw + t, i_, j_]
                                acc += wt[o, cc, i, j] * v
                    out[b_, o, i_, j_] = acc + (0.0 if b is None else b[o])
    return out


def deform_inputs(seed, n=2, c=4, h=6, w=5, oc=6, k=3, stride=1, pad=1, dil=1, dg=2, groups=2,
                  spread=1.5):
    rng = np.random.default_rng(seed)
    oh = (h + 2 * pad - (dil * (k - 1) + 1)) // stride + 1
    ow = (w + 2 * pad - (dil * (k - 1) + 1)) // stride + 1
    x = rng.standard_normal((n, c, h, w))
    wt = rng.standard_normal((oc, c // groups, k, k))
    b = rng.standard_normal(oc)
    off = rng.standard_normal((n, 2 * dg * k * k, oh, ow)) * spread
    mask = rng.uniform(0, 1, (n, dg * k * k, oh, ow))
    return x, off, wt, b, mask


@pytest.mark.parametrize("cfg", [
    dict(stride=1, pad=1, dil=1, dg=2, groups=2),
    dict(stride=2, pad=0, dil=1, dg=1, groups=1, h=7, w=7),
    dict(stride=1, pad=2, dil=2, dg=4, groups=1),
    dict(stride=1, pad=1, dil=1, dg=1, groups=4, oc=4, spread=4.0),  # far outside the image
])
@pytest.mark.parametrize("with_mask", [True, False])
def test_deform_conv2d_matches_numpy(cfg, with_mask):
    cfg = dict(cfg)
    stride, pad, dil, dg, groups = (cfg.pop(k) for k in ("stride", "pad", "dil", "dg", "groups"))
    x, off, wt, b, mask = deform_inputs(40, stride=stride, pad=pad, dil=dil, dg=dg,
                                        groups=groups, **cfg)
    mask = mask if with_mask else None
    got = vops.deform_conv2d(T(x), T(off), T(wt), T(b), stride, pad, dil, dg, groups,
                             None if mask is None else T(mask))
    want = np_deform_conv2d(x, off, wt, b, stride, pad, dil, dg, groups, mask)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-11, atol=1e-11)


def test_deform_conv2d_zero_offset_is_conv2d():
    x, off, wt, b, _ = deform_inputs(41, dg=1, groups=2)
    got = vops.deform_conv2d(T(x, "float32"), T(np.zeros_like(off), "float32"),
                             T(wt, "float32"), T(b, "float32"), padding=1, groups=2)
    want = paddle.nn.functional.conv2d(T(x, "float32"), T(wt, "float32"), T(b, "float32"),
                                       padding=1, groups=2)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)


def test_deform_conv2d_grad_numeric():
    x, off, wt, b, mask = deform_inputs(42, n=1, c=2, h=4, w=4, oc=2, k=2, dg=2, groups=2,
                                        spread=0.7)
    args = [x, off, wt, b, mask]
    ts = [T(a, grad=True) for a in args]
    v = np.random.default_rng(43).standard_normal((1, 2, 5, 5))
    out = vops.deform_conv2d(ts[0], ts[1], ts[2], ts[3], 1, 1, 1, 2, 2, ts[4])
    (out * T(v)).sum().backward()
    for k, name in enumerate(["x", "offset", "weight", "bias", "mask"]):
        def loss(a, k=k):
            aa = list(args)
            aa[k] = a
            return float((np_deform_conv2d(aa[0], aa[1], aa[2], aa[3], 1, 1, 1, 2, 2, aa[4])
                          * v).sum())

        np.testing.assert_allclose(ts[k].grad.numpy(), numeric_grad(loss, args[k]), rtol=1e-5,
                                   atol=1e-7, err_msg=name)


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 0.15), ("float16", 2e-2)])
def test_deform_conv2d_16bit(dtype, tol):
    # 36 products of magnitude ~1 summed: the 16-bit rounding of inputs, products and the sum.
    x, off, wt, b, mask = deform_inputs(44)
    xs = [T(a, "float32").astype(dtype) for a in (x, off, wt, b, mask)]
    out = vops.deform_conv2d(xs[0], xs[1], xs[2], xs[3], 1, 1, 1, 2, 2, xs[4])
    assert out.dtype == getattr(paddle, dtype)
    rounded = [t.astype("float64").numpy() for t in xs]
    want = np_deform_conv2d(rounded[0], rounded[1], rounded[2], rounded[3], 1, 1, 1, 2, 2,
                            rounded[4])
    np.testing.assert_allclose(out.astype("float64").numpy(), want, rtol=tol, atol=tol)


def test_deform_conv2d_layer_and_to_static():
    paddle.seed(0)
    layer = vops.DeformConv2D(4, 6, 3, padding=1, deformable_groups=2, groups=2)
    assert layer.weight.shape == [6, 2, 3, 3] and layer.bias.shape == [6]
    x, off, _, _, mask = deform_inputs(45)
    x, off, mask = T(x, "float32"), T(off, "float32"), T(mask, "float32")
    eager = layer(x, off, mask)
    want = np_deform_conv2d(x.numpy().astype(np.float64), off.numpy().astype(np.float64),
                            layer.weight.numpy().astype(np.float64),
                            layer.bias.numpy().astype(np.float64), 1, 1, 1, 2, 2,
                            mask.numpy().astype(np.float64))
    np.testing.assert_allclose(eager.numpy(), want, rtol=1e-4, atol=1e-4)
    static = paddle.jit.to_static(lambda a, o, m: layer(a, o, m), full_graph=True)
    np.testing.assert_allclose(static(x, off, mask).numpy(), eager.numpy(), rtol=1e-6,
                               atol=1e-6)
    assert "op.take_along_axis" in str(static.concrete_program.main_program)
    layer_no_bias = vops.DeformConv2D(4, 6, 3, bias_attr=False)
    assert layer_no_bias.bias is None
    assert layer_no_bias(x, T(np.zeros((2, 18, 4, 3)), "float32")).shape == [2, 6, 4, 3]


def test_deform_conv2d_bad_inputs():
    x, off, wt, b, mask = deform_inputs(46)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) deform_conv2d: argument 'offset' "
                       r"expected shape \[2, 36, 6, 5\] \(\[N, 2 \* deformable_groups \* KH \* KW, "
                       r"OH, OW\]\), got \[2, 18, 6, 5\]"):
        vops.deform_conv2d(T(x), T(off[:, :18]), T(wt), T(b), padding=1, deformable_groups=2,
                           groups=2)
    with pytest.raises(ValueError, match=r"deform_conv2d: argument 'mask' expected shape "
                       r"\[2, 18, 6, 5\], got \[2, 9, 6, 5\]"):
        vops.deform_conv2d(T(x), T(off), T(wt), T(b), padding=1, deformable_groups=2, groups=2,
                           mask=T(mask[:, :9]))
    with pytest.raises(ValueError, match=r"deform_conv2d: argument 'weight' expected dim 1 "
                       r"equal to x's channels / groups \(4 / 1\)"):
        vops.deform_conv2d(T(x), T(off), T(wt), T(b), padding=1, deformable_groups=2)
    with pytest.raises(ValueError, match=r"deform_conv2d: argument 'deformable_groups' expected "
                       r"a positive divisor of x's channels \(4\), got 3"):
        vops.deform_conv2d(T(x), T(off), T(wt), T(b), padding=1, deformable_groups=3, groups=2)
    with pytest.raises(ValueError, match=r"deform_conv2d: argument 'x' expected a 4-D tensor "
                       r"\[N, C, H, W\], got \[4, 6, 5\]"):
        vops.deform_conv2d(T(x[0]), T(off), T(wt), T(b))
    with pytest.raises(ValueError, match=r"deform_conv2d: argument 'bias' expected shape \[6\], "
                       r"got \[5\]"):
        vops.deform_conv2d(T(x), T(off), T(wt), T(b[:5]), padding=1, deformable_groups=2,
                           groups=2)
