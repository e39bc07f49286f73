"""hsigmoid_loss / HSigmoidLoss (default and custom trees), margin_cross_entropy,
class_center_sample, gather_tree and feature_alpha_dropout against torch re-implementations of
Paddle's reference code (op tests) and Paddle's documented examples; gradients; bad inputs."""
import math

import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F

R = np.random.RandomState(11)


class _CodeTable:  # Paddle's SimpleCode, as its op test writes it
    def __init__(self, num_classes, label):
        self.c = num_classes + int(label)

    def length(self):
        return int(math.floor(math.log2(self.c)))

    def index(self, bit):
        return (self.c >> (bit + 1)) - 1

    def bit(self, bit):
        return bool(self.c & (1 << bit))


def _torch_hsigmoid(x, w, b, paths):
    """paths: per sample a list of (node, bit); Paddle's formula, sample by sample."""
    out = []
    for i, path in enumerate(paths):
        total = torch.zeros((), dtype=x.dtype)
        for node, bit in path:
            pre = torch.clamp(torch.dot(w[node], x[i]) + (b[node] if b is not None else 0),
                              -40.0, 40.0)
            total = total + torch.log1p(torch.exp(pre)) - (pre if bit else 0)
        out.append(total)
    return torch.stack(out).reshape(-1, 1)


def _compare(fn, x, w, b, paths, dtype):
    tol = 1e-5 if dtype == "float32" else 1e-10
    ps = [paddle.to_tensor(a.astype(dtype), stop_gradient=False) for a in (x, w, b)]
    ts = [torch.tensor(a.astype(dtype), requires_grad=True) for a in (x, w, b)]
    out = fn(*ps)
    ref = _torch_hsigmoid(ts[0], ts[1], ts[2].reshape(-1), paths)
    assert out.shape == [x.shape[0], 1]
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=tol, atol=tol)
    g = R.rand(x.shape[0], 1).astype(dtype)
    out.backward(paddle.to_tensor(g))
    ref.backward(torch.tensor(g))
    for p, t in zip(ps, ts):
        np.testing.assert_allclose(p.grad.numpy(), t.grad.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_hsigmoid_default_tree(dtype):
    n, d, classes = 9, 5, 11
    x, w, b = R.uniform(-1, 1, (n, d)), R.uniform(-1, 1, (classes - 1, d)), R.uniform(-1, 1, (
        classes - 1, 1))
    labels = R.randint(0, classes, (n, 1))
    paths = []
    for lab in labels[:, 0]:
        t = _CodeTable(classes, lab)
        paths.append([(t.index(j), t.bit(j)) for j in range(t.length())])
    _compare(lambda a, ww, bb: F.hsigmoid_loss(a, paddle.to_tensor(labels), classes, ww, bb),
             x, w, b, paths, dtype)


def test_hsigmoid_custom_tree_and_layer():
    # Paddle's op-test tree: classes 0, 1, 4, 5 through 5 non-leaf nodes
    table = np.array([(0, 2, -1, -1, -1), (0, 1, 3, -1, -1), (0, 1, 4, -1, -1),
                      (0, 2, -1, -1, -1)])
    code = np.array([(0, 0, -1, -1, -1), (1, 1, 1, -1, -1), (1, 0, 0, -1, -1),
                     (0, 1, -1, -1, -1)])
    x, w, b = R.uniform(-1, 1, (4, 8)), R.uniform(-1, 1, (5, 8)), R.uniform(-1, 1, (5, 1))
    paths = [[(int(t), bool(c)) for t, c in zip(tr, cr) if t >= 0] for tr, cr in zip(table, code)]
    labels = paddle.to_tensor([0, 1, 4, 5])
    _compare(lambda a, ww, bb: F.hsigmoid_loss(a, labels, 6, ww, bb, paddle.to_tensor(table),
                                               paddle.to_tensor(code)), x, w, b, paths,
             "float64")
    layer = paddle.nn.HSigmoidLoss(8, 5, is_custom=True)
    assert layer.weight.shape == [5, 8] and layer.bias.shape == [5, 1]
    out = layer(paddle.to_tensor(x.astype("float32")), labels, paddle.to_tensor(table),
                paddle.to_tensor(code))
    ref = _torch_hsigmoid(torch.tensor(x), torch.tensor(layer.weight.numpy(), dtype=torch.float64),
                          torch.tensor(layer.bias.numpy(), dtype=torch.float64).reshape(-1),
                          paths)
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5)
    assert paddle.nn.HSigmoidLoss(8, 6).weight.shape == [5, 8]


def test_hsigmoid_bad_inputs():
    x, w = paddle.rand([3, 4]), paddle.rand([5, 4])
    with pytest.raises(ValueError, match=r"hsigmoid_loss: argument 'label' expected class "
                                         r"indices in \[0, 6\), got 6"):
        F.hsigmoid_loss(x, paddle.to_tensor([0, 1, 6]), 6, w)
    with pytest.raises(ValueError, match=r"hsigmoid_loss: argument 'weight' expected shape "
                                         r"\[num_nodes, 4\]"):
        F.hsigmoid_loss(x, paddle.to_tensor([0, 1, 2]), 6, paddle.rand([5, 3]))
    with pytest.raises(ValueError, match=r"hsigmoid_loss: argument 'num_classes' expected a "
                                         r"value >= 2"):
        F.hsigmoid_loss(x, paddle.to_tensor([0, 0, 0]), 1, w)
    with pytest.raises(ValueError, match=r"arguments 'path_table' and 'path_code' expected "
                                         r"both or neither"):
        F.hsigmoid_loss(x, paddle.to_tensor([0, 1, 2]), 6, w,
                        path_table=paddle.to_tensor([[0], [0], [0]]))
    with pytest.raises(ValueError, match=r"the tree's node indices expected to lie in \[0, 5\)"):
        F.hsigmoid_loss(x, paddle.to_tensor([0, 1, 2]), 6, w,
                        path_table=paddle.to_tensor([[0], [7], [0]]),
                        path_code=paddle.to_tensor([[0], [1], [0]]))
    with pytest.raises(ValueError, match=r"HSigmoidLoss: argument 'num_classes' expected"):
        paddle.nn.HSigmoidLoss(4, 1)


@pytest.mark.parametrize("margins", [(1.0, 0.5, 0.0), (1.35, 0.25, 0.1), (1.0, 0.0, 0.35)])
def test_margin_cross_entropy(margins):
    m1, m2, m3 = margins
    n, c, scale = 6, 9, 16.0
    x = R.randn(n, 5)
    wt = R.randn(5, c)
    cos = (x / np.linalg.norm(x, axis=1, keepdims=True)) @ (wt / np.linalg.norm(wt, axis=0))
    label = R.randint(0, c, n)
    xs = paddle.to_tensor(cos, stop_gradient=False)
    loss, soft = F.margin_cross_entropy(xs, paddle.to_tensor(label), m1, m2, m3, scale,
                                        return_softmax=True, reduction=None)
    t = torch.tensor(cos, requires_grad=True)
    hot = torch.nn.functional.one_hot(torch.tensor(label), c).double()
    target = torch.cos(m1 * torch.acos(t) + m2) - m3
    z = scale * (t * (1 - hot) + target * hot)
    ref = -torch.log_softmax(z, -1).gather(1, torch.tensor(label)[:, None])
    assert loss.shape == [n, 1]
    np.testing.assert_allclose(loss.numpy(), ref.detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(soft.numpy(), torch.softmax(z, -1).detach().numpy(), rtol=1e-10)
    loss.sum().backward()
    ref.sum().backward()
    np.testing.assert_allclose(xs.grad.numpy(), t.grad.numpy(), rtol=1e-9, atol=1e-12)
    mean = F.margin_cross_entropy(xs, paddle.to_tensor(label)[:, None], m1, m2, m3, scale)
    np.testing.assert_allclose(mean.numpy(), ref.mean().item(), rtol=1e-10)


def test_margin_cross_entropy_bad_inputs():
    x = paddle.rand([3, 4])
    with pytest.raises(ValueError, match=r"margin_cross_entropy: argument 'label' expected "
                                         r"class indices in \[0, 4\), got 4"):
        F.margin_cross_entropy(x, paddle.to_tensor([0, 1, 4]))
    with pytest.raises(ValueError, match=r"margin_cross_entropy: argument 'label' expected "
                                         r"shape \[3\] or \[3, 1\]"):
        F.margin_cross_entropy(x, paddle.to_tensor([0, 1]))
    with pytest.raises(ValueError, match=r"margin_cross_entropy: argument 'reduction'"):
        F.margin_cross_entropy(x, paddle.to_tensor([0, 1, 2]), reduction="avg")


def test_class_center_sample():
    # Paddle's example
    label = paddle.to_tensor([11, 5, 1, 3, 12, 2, 15, 19, 18, 19])
    remapped, sampled = F.class_center_sample(label, 20, 6)
    np.testing.assert_array_equal(remapped.numpy(), [4, 3, 0, 2, 5, 1, 6, 8, 7, 8])
    np.testing.assert_array_equal(sampled.numpy(), [1, 2, 3, 5, 11, 12, 15, 18, 19])
    remapped, sampled = F.class_center_sample(label, 20, 15)
    s = sampled.numpy()
    assert len(s) == 15 and len(set(s.tolist())) == 15 and s.max() < 20
    np.testing.assert_array_equal(s[:9], [1, 2, 3, 5, 11, 12, 15, 18, 19])
    np.testing.assert_array_equal(s[remapped.numpy()], label.numpy())
    with pytest.raises(ValueError, match=r"class_center_sample: argument 'num_samples' expected "
                                         r"a value in \[1, num_classes = 20\]"):
        F.class_center_sample(label, 20, 21)
    with pytest.raises(ValueError, match=r"class_center_sample: argument 'label' expected class "
                                         r"indices in \[0, 10\), got 19"):
        F.class_center_sample(label, 10, 5)


def test_gather_tree():
    ids = paddle.to_tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
    parents = paddle.to_tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
    out = F.gather_tree(ids, parents)
    np.testing.assert_array_equal(out.numpy(), [[[2, 2], [1, 6]], [[3, 3], [6, 1]],
                                                [[0, 1], [9, 0]]])
    # against a direct walk of random beams
    t, b, k = 6, 3, 4
    ids = R.randint(0, 50, (t, b, k))
    parents = R.randint(0, k, (t, b, k))
    ref = np.zeros_like(ids)
    for bi in range(b):
        for ki in range(k):
            ref[t - 1, bi, ki] = ids[t - 1, bi, ki]
            p = parents[t - 1, bi, ki]
            for step in range(t - 2, -1, -1):
                ref[step, bi, ki] = ids[step, bi, p]
                p = parents[step, bi, p]
    out = F.gather_tree(paddle.to_tensor(ids.astype("int32")), paddle.to_tensor(
        parents.astype("int32")))
    assert out.dtype == paddle.int32
    np.testing.assert_array_equal(out.numpy(), ref)
    with pytest.raises(ValueError, match=r"gather_tree: argument 'parents' expected beam "
                                         r"indices in \[0, 4\), got 4"):
        F.gather_tree(paddle.to_tensor(ids), paddle.to_tensor(np.full_like(parents, 4)))
    with pytest.raises(ValueError, match=r"gather_tree: argument 'ids' expected a 3-D tensor"):
        F.gather_tree(paddle.to_tensor(ids[0]), paddle.to_tensor(parents[0]))
    with pytest.raises(TypeError, match=r"gather_tree: arguments 'ids' and 'parents' expected "
                                        r"one dtype"):
        F.gather_tree(paddle.to_tensor(ids), paddle.to_tensor(parents.astype("int32")))


def test_feature_alpha_dropout():
    x = paddle.to_tensor(R.randn(400, 30, 2, 3), stop_gradient=False)
    y = F.feature_alpha_dropout(x, 0.3)
    xn, yn = x.numpy(), y.numpy()
    alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
    a = ((1 - 0.3) * (1 + 0.3 * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * 0.3
    kept = np.isclose(yn, a * xn + b, rtol=1e-12)
    dropped = np.isclose(yn, a * alpha_p + b, rtol=1e-12)
    assert np.all(kept | dropped)
    per_channel = kept.reshape(400, 30, -1)
    assert np.all(per_channel.all(-1) | (~per_channel).all(-1))  # whole channels
    assert abs(per_channel[..., 0].mean() - 0.7) < 0.02
    assert abs(yn.mean()) < 0.05 and abs(yn.std() - 1.0) < 0.05  # self-normalising
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.where(kept, a, 0.0), rtol=1e-12)
    assert F.feature_alpha_dropout(x, 0.3, training=False) is x
    layer = paddle.nn.FeatureAlphaDropout(0.5)
    assert (layer(x).numpy().reshape(400, 30, -1).std(-1) < 1e-6).mean() > 0.4  # dropped maps
    layer.eval()
    assert layer(x) is x
    np.testing.assert_array_equal(F.feature_alpha_dropout(x, 1.0).numpy(), 0.0)
    with pytest.raises(ValueError, match=r"feature_alpha_dropout: argument 'p' expected a value "
                                         r"in \[0, 1\]"):
        F.feature_alpha_dropout(x, 1.5)
    with pytest.raises(TypeError, match=r"feature_alpha_dropout: argument 'p' expected a float"):
        F.feature_alpha_dropout(x, "0.5")
