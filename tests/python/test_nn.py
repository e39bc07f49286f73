"""skiff.nn: Layer behaviour, parameters and initializers, layers and losses against numpy (and
PyTorch where Debian's python3-torch is installed), gradients, clipping."""
import math
import warnings

import numpy as np
import pytest

import skiff
import skiff.nn as nn
import skiff.nn.functional as F

try:
    import torch
    import torch.nn.functional as TF
except ImportError:  # the tests that need it skip
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="python3-torch is not installed")


def t(a, stop_gradient=True):
    return skiff.to_tensor(np.asarray(a), stop_gradient=stop_gradient)


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.blocks = nn.LayerList([nn.Linear(4, 4), nn.Linear(4, 2, bias_attr=False)])
        self.register_buffer("steps", t(np.zeros([1], np.int64)))
        self.register_buffer("scratch", t(np.zeros([2], np.float32)), persistable=False)

    def forward(self, x):
        x = F.relu(self.fc(x))
        for b in self.blocks:
            x = b(x)
        return x


# ---------------------------------------------------------------------------- Layer
def test_registration_names_and_state_dict():
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    assert names == ["fc.weight", "fc.bias", "blocks.0.weight", "blocks.0.bias",
                     "blocks.1.weight"]
    assert len(net.parameters()) == 5
    assert [n for n, _ in net.named_sublayers()] == ["fc", "blocks", "blocks.0", "blocks.1"]
    assert len(list(net.children())) == 2
    assert list(net.state_dict()) == ["steps"] + names  # own tensors first, as in Paddle
    assert [n for n, _ in net.named_buffers()] == ["steps", "scratch"]
    assert net.fc.weight.shape == [3, 4] and net.fc.bias.shape == [4]
    assert not net.fc.weight.stop_gradient and net.fc.weight.trainable
    assert net.fc.weight.name.startswith("linear_") and net.fc.weight.name.endswith(".w_0")
    assert net.fc.bias.name.endswith(".b_0")
    assert isinstance(net.fc.weight, nn.Parameter) and isinstance(net.fc.weight, skiff.Tensor)
    np.testing.assert_array_equal(net.fc.bias.numpy(), np.zeros(4))


def test_set_state_dict_reports_missing_and_unexpected():
    a, b = Net(), Net()
    state = a.state_dict()
    state["extra"] = t(np.ones(1, np.float32))
    del state["fc.bias"]
    state["blocks.0.weight"] = t(np.ones([5, 5], np.float32))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        missing, unexpected = b.set_state_dict(state)
    assert missing == ["fc.bias", "blocks.0.weight"]
    assert sorted(unexpected) == ["blocks.0.weight", "extra"]
    assert any("receives a shape [5, 5]" in str(x.message) for x in w)
    np.testing.assert_array_equal(b.fc.weight.numpy(), a.fc.weight.numpy())
    b.set_state_dict({"fc.weight": np.full([3, 4], 2.0, np.float32)})
    np.testing.assert_array_equal(b.fc.weight.numpy(), np.full([3, 4], 2.0))


def test_train_eval_apply_hooks_and_attributes():
    net = Net()
    net.eval()
    assert not net.training and not net.blocks[1].training
    net.train()
    assert net.blocks[0].training
    seen = []
    net.apply(lambda layer: seen.append(type(layer).__name__))
    assert seen[-1] == "Net" and seen.count("Linear") == 3
    x = t(rand(2, 3))
    h1 = net.register_forward_pre_hook(lambda layer, inp: (inp[0] * 0,))
    h2 = net.register_forward_post_hook(lambda layer, inp, out: out + 1)
    np.testing.assert_allclose(net(x).numpy(), net.blocks[1](net.blocks[0](
        F.relu(net.fc(x * 0)))).numpy() + 1, rtol=1e-6)
    h1.remove()
    h2.remove()
    np.testing.assert_allclose(net(x).numpy(), Net.forward(net, x).numpy())
    with pytest.raises(TypeError, match="should be of type Parameter"):
        net.fc.weight = t(np.zeros([3, 4], np.float32))
    with pytest.raises(KeyError, match="can not contain `.`"):
        net.add_parameter("a.b", None)
    with pytest.raises(TypeError, match="should be a Parameter"):
        net.add_parameter("p", t(np.zeros(1, np.float32)))

    class NoInit(nn.Layer):
        def __init__(self):
            self.fc = nn.Linear(1, 1)

    with pytest.raises(ValueError, match=r"super\(\).__init__\(\) should be called first"):
        NoInit()
    assert "fc): Linear(in_features=3, out_features=4" in repr(net)


def test_to_dtype_and_parameter_attrs():
    lin = nn.Linear(2, 3, weight_attr=nn.ParamAttr(name="w_custom", learning_rate=0.5,
                                                   trainable=False), bias_attr=False)
    assert lin.bias is None and lin.weight.name == "w_custom"
    assert lin.weight.stop_gradient and lin.weight.optimize_attr["learning_rate"] == 0.5
    net = Net()
    net.to(dtype="float64")
    assert all(str(p.dtype).endswith("float64") for p in net.parameters())
    assert isinstance(net.fc.weight, nn.Parameter)
    out = net(t(rand(2, 3).astype(np.float64)))
    assert str(out.dtype).endswith("float64")
    p = skiff.create_parameter([2, 2], "float32", default_initializer=nn.initializer.Constant(3))
    np.testing.assert_array_equal(p.numpy(), np.full([2, 2], 3.0))


# ---------------------------------------------------------------------------- initializers
@pytest.mark.parametrize("init,check", [
    (nn.initializer.Constant(0.5), lambda a: np.all(a == 0.5)),
    (nn.initializer.Uniform(-0.1, 0.3), lambda a: a.min() >= -0.1 and a.max() <= 0.3
     and abs(a.mean() - 0.1) < 0.01),
    (nn.initializer.Normal(1.0, 2.0),
     lambda a: abs(a.mean() - 1) < 0.05 and abs(a.std() - 2) < 0.05),
    (nn.initializer.TruncatedNormal(0.0, 1.0), lambda a: np.abs(a).max() <= 2.0
     and 0.8 < a.std() < 0.92),
    (nn.initializer.XavierUniform(), lambda a: np.abs(a).max() <= math.sqrt(6 / (200 + 300))),
    (nn.initializer.XavierNormal(), lambda a: abs(a.std() - math.sqrt(2 / 500)) < 0.003),
    (nn.initializer.KaimingNormal(), lambda a: abs(a.std() - math.sqrt(2 / 200)) < 0.004),
    (nn.initializer.KaimingUniform(), lambda a: np.abs(a).max() <= math.sqrt(6 / 200)),
])
def test_initializers(init, check):
    skiff.seed(7)
    p = nn.Linear(200, 300, weight_attr=nn.ParamAttr(initializer=init)).weight
    assert check(p.numpy().astype(np.float64))
    init(p)  # in place on an existing parameter
    assert check(p.numpy().astype(np.float64))


def test_assign_initializer_and_seed_repeatability():
    v = np.arange(6, dtype=np.float32).reshape(2, 3)
    lin = nn.Linear(2, 3, weight_attr=nn.initializer.Assign(v))
    np.testing.assert_array_equal(lin.weight.numpy(), v)
    skiff.seed(3)
    a = nn.Linear(8, 8).weight.numpy()
    skiff.seed(3)
    b = nn.Linear(8, 8).weight.numpy()
    np.testing.assert_array_equal(a, b)
    assert nn.initializer.calculate_gain("tanh") == pytest.approx(5 / 3)


# ---------------------------------------------------------------------------- layers
def test_linear_forward_backward():
    lin = nn.Linear(3, 2)
    xv = rand(4, 3)
    x = t(xv, stop_gradient=False)
    y = lin(x)
    np.testing.assert_allclose(y.numpy(), xv @ lin.weight.numpy() + lin.bias.numpy(), rtol=1e-5)
    y.sum().backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), xv.sum(0)[:, None].repeat(2, 1), rtol=1e-5)
    np.testing.assert_allclose(lin.bias.grad.numpy(), [4, 4])
    np.testing.assert_allclose(x.grad.numpy(), np.tile(lin.weight.numpy().sum(1), (4, 1)),
                               rtol=1e-5)


def test_embedding_padding_idx():
    emb = nn.Embedding(5, 3, padding_idx=1)
    np.testing.assert_array_equal(emb.weight.numpy()[1], np.zeros(3))
    ids = t(np.array([[0, 1, 1], [4, 0, 2]], np.int64))
    out = emb(ids)
    assert out.shape == [2, 3, 3]
    np.testing.assert_array_equal(out.numpy()[1, 0], emb.weight.numpy()[4])
    out.sum().backward()
    g = emb.weight.grad.numpy()
    np.testing.assert_array_equal(g[:, 0], [2, 0, 1, 0, 1])
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(5, 3, padding_idx=5)


def test_norm_layers_match_numpy():
    xv = rand(2, 3, 8)
    ln = nn.LayerNorm(8)
    ref = (xv - xv.mean(-1, keepdims=True)) / np.sqrt(xv.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(ln(t(xv)).numpy(), ref, rtol=1e-4, atol=1e-5)
    rms = nn.RMSNorm(8, epsilon=1e-6)
    ref = xv / np.sqrt((xv ** 2).mean(-1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(rms(t(xv)).numpy(), ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(F.rms_norm(t(xv), [3, 8]).numpy(),
                               xv / np.sqrt((xv ** 2).mean((1, 2), keepdims=True) + 1e-6),
                               rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="normalized_shape"):
        F.layer_norm(t(xv), [4])


def test_batch_norm_running_statistics():
    bn = nn.BatchNorm2D(3)
    assert len(bn.parameters()) == 4  # weight, bias, _mean, _variance as in Paddle
    xv = rand(4, 3, 2, 2) * 2 + 1
    y = bn(t(xv)).numpy()
    mean = xv.mean((0, 2, 3))
    var = xv.var((0, 2, 3))
    ref = (xv - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * mean, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(bn._variance.numpy(), 0.9 + 0.1 * var * 16 / 15, rtol=1e-4)
    bn.eval()
    y = bn(t(xv)).numpy()
    ref = (xv - bn._mean.numpy()[None, :, None, None]) / \
        np.sqrt(bn._variance.numpy()[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-4)
    assert list(bn.state_dict()) == ["weight", "bias", "_mean", "_variance"]


def test_dropout_modes():
    skiff.seed(0)
    x = t(np.ones([1000], np.float32))
    y = F.dropout(x, 0.3).numpy()
    kept = y != 0
    assert 0.6 < kept.mean() < 0.8
    np.testing.assert_allclose(y[kept], 1 / 0.7, rtol=1e-6)
    np.testing.assert_array_equal(F.dropout(x, 0.3, training=False).numpy(), x.numpy())
    np.testing.assert_allclose(F.dropout(x, 0.3, training=False, mode="downgrade_in_infer")
                               .numpy(), 0.7, rtol=1e-6)
    d = nn.Dropout(0.5)
    d.eval()
    np.testing.assert_array_equal(d(x).numpy(), x.numpy())
    m = F.dropout(t(np.ones([4, 50], np.float32)), 0.5, axis=1).numpy()
    assert (m == m[0]).all()  # the mask is shared along axis 0
    with pytest.raises(ValueError, match="'p' expected a value in"):
        F.dropout(x, 1.5)


def test_containers():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[1], nn.ReLU) and isinstance(seq[-1], nn.Linear)
    assert len(seq[:2]) == 2
    named = nn.Sequential(("a", nn.Linear(2, 2)), ("b", nn.Tanh()))
    assert list(named.state_dict()) == ["a.weight", "a.bias"]
    ll = nn.LayerList([nn.Linear(1, 1)])
    ll.append(nn.Linear(1, 2))
    ll.insert(0, nn.Identity())
    assert [type(m).__name__ for m in ll] == ["Identity", "Linear", "Linear"]
    with pytest.raises(IndexError):
        ll[3]
    ld = nn.LayerDict({"x": nn.Linear(1, 1)})
    assert "x" in ld and len(ld) == 1
    pl = nn.ParameterList([skiff.create_parameter([2], "float32") for _ in range(2)])
    assert len(pl.parameters()) == 2


@needs_torch
@pytest.mark.parametrize("name,args", [
    ("relu", ()), ("relu6", ()), ("leaky_relu", (0.2,)), ("elu", (0.7,)), ("gelu", ()),
    ("silu", ()), ("sigmoid", ()), ("tanh", ()), ("softplus", ()), ("hardswish", ()),
    ("mish", ()), ("tanhshrink", ()), ("log_sigmoid", ()), ("softsign", ()), ("selu", ()),
    ("hardtanh", ()), ("hardshrink", ()), ("softshrink", ()), ("celu", ()),
])
def test_activations_match_torch(name, args):
    xv = rand(3, 5) * 3
    tname = {"log_sigmoid": "logsigmoid"}.get(name, name)
    ref = getattr(TF, tname)(torch.from_numpy(xv), *args).numpy()
    x = t(xv, stop_gradient=False)
    y = getattr(F, name)(x, *args)
    np.testing.assert_allclose(y.numpy(), ref, rtol=1e-4, atol=1e-5)
    y.sum().backward()
    tx = torch.from_numpy(xv).requires_grad_()
    getattr(TF, tname)(tx, *args).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-3, atol=1e-4)


@needs_torch
def test_activation_layers_and_softmax():
    xv = rand(2, 6)
    for layer, fn in ((nn.ReLU(), TF.relu), (nn.GELU(), TF.gelu), (nn.SiLU(), TF.silu),
                      (nn.Softmax(), lambda x: TF.softmax(x, -1)),
                      (nn.LogSoftmax(), lambda x: TF.log_softmax(x, -1)),
                      (nn.LeakyReLU(0.1), lambda x: TF.leaky_relu(x, 0.1))):
        np.testing.assert_allclose(layer(t(xv)).numpy(), fn(torch.from_numpy(xv)).numpy(),
                                   rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------- losses
def ce_numpy(logits, label, weight=None, ignore_index=-100, smoothing=0.0):
    logp = logits - logits.max(-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(-1, keepdims=True))
    n, c = logits.shape
    onehot = np.eye(c)[np.where(label == ignore_index, 0, label)]
    soft = onehot * (1 - smoothing) + smoothing / c
    per = -(soft * logp).sum(-1)
    w = np.ones(n) if weight is None else weight[np.where(label == ignore_index, 0, label)]
    if smoothing > 0:
        w = np.ones(n) if weight is None else (soft * weight).sum(-1)
        return (per * w).sum() / w.sum()
    keep = (label != ignore_index) if ignore_index >= 0 else np.ones(n, bool)
    return (per * w * keep).sum() / (w * keep).sum()


def test_cross_entropy_variants():
    logits = rand(6, 5).astype(np.float64)
    label = np.array([0, 4, 2, 2, 1, 3], np.int64)
    x = t(logits, stop_gradient=False)
    loss = F.cross_entropy(x, t(label))
    np.testing.assert_allclose(float(loss), ce_numpy(logits, label), rtol=1e-10)
    weight = np.array([1.0, 2.0, 0.5, 1.0, 3.0])
    np.testing.assert_allclose(float(F.cross_entropy(x, t(label), weight=t(weight))),
                               ce_numpy(logits, label, weight), rtol=1e-10)
    ign = label.copy()
    ign[1] = 2
    np.testing.assert_allclose(float(F.cross_entropy(x, t(ign), ignore_index=2)),
                               ce_numpy(logits, ign, ignore_index=2), rtol=1e-10)
    np.testing.assert_allclose(float(F.cross_entropy(x, t(label), label_smoothing=0.1)),
                               ce_numpy(logits, label, smoothing=0.1), rtol=1e-10)
    none = F.cross_entropy(x, t(label), reduction="none")
    assert none.shape == [6]
    assert F.cross_entropy(x, t(label[:, None]), reduction="none").shape == [6, 1]
    np.testing.assert_allclose(float(nn.CrossEntropyLoss(reduction="sum")(x, t(label))),
                               6 * ce_numpy(logits, label), rtol=1e-10)
    soft = np.random.default_rng(1).dirichlet(np.ones(5), 6)
    logp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    np.testing.assert_allclose(float(F.cross_entropy(x, t(soft), soft_label=True)),
                               -(soft * logp).sum(-1).mean(), rtol=1e-10)
    loss.backward()
    p = np.exp(logp)
    np.testing.assert_allclose(x.grad.numpy(), (p - np.eye(5)[label]) / 6, rtol=1e-8)
    with pytest.raises(ValueError, match="reduction"):
        F.cross_entropy(x, t(label), reduction="avg")
    with pytest.raises(ValueError, match="rank"):
        F.cross_entropy(x, t(label.reshape(2, 3, 1)))


@needs_torch
def test_other_losses_match_torch():
    a, b = rand(4, 3, seed=1), rand(4, 3, seed=2)
    prob = 1 / (1 + np.exp(-a))
    target = (b > 0).astype(np.float32)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    cases = [
        (F.mse_loss(t(a), t(b)), TF.mse_loss(ta, tb)),
        (F.l1_loss(t(a), t(b), "sum"), TF.l1_loss(ta, tb, reduction="sum")),
        (F.smooth_l1_loss(t(a), t(b), delta=0.5), TF.huber_loss(ta, tb, delta=0.5)),
        (F.binary_cross_entropy(t(prob), t(target)),
         TF.binary_cross_entropy(torch.from_numpy(prob), torch.from_numpy(target))),
        (F.binary_cross_entropy_with_logits(t(a), t(target), pos_weight=t(np.float32([1, 2, 3]))),
         TF.binary_cross_entropy_with_logits(ta, torch.from_numpy(target),
                                             pos_weight=torch.tensor([1.0, 2.0, 3.0]))),
        (F.kl_div(t(np.log(prob)), t(prob[::-1].copy()), "batchmean"),
         TF.kl_div(torch.from_numpy(np.log(prob)), torch.from_numpy(prob[::-1].copy()),
                   reduction="batchmean")),
    ]
    for ours, ref in cases:
        np.testing.assert_allclose(float(ours), float(ref), rtol=1e-5, atol=1e-6)
    logp = np.log(np.exp(a) / np.exp(a).sum(-1, keepdims=True))
    lab = np.array([0, 2, 1, 2], np.int64)
    w = np.float32([1, 2, 3])
    np.testing.assert_allclose(
        float(F.nll_loss(t(logp), t(lab), weight=t(w), ignore_index=1)),
        float(TF.nll_loss(torch.from_numpy(logp), torch.from_numpy(lab),
                          weight=torch.from_numpy(w), ignore_index=1)), rtol=1e-5)


# ---------------------------------------------------------------------------- attention
def test_scaled_dot_product_attention_causal():
    b, s, h, d = 2, 5, 2, 4
    q, k, v = rand(b, s, h, d, seed=1), rand(b, s, h, d, seed=2), rand(b, s, h, d, seed=3)
    out = F.scaled_dot_product_attention(t(q), t(k), t(v), is_causal=True).numpy()
    qt, kt, vt = (np.transpose(a, (0, 2, 1, 3)) for a in (q, k, v))
    scores = qt @ np.swapaxes(kt, -1, -2) / math.sqrt(d)
    scores = np.where(np.triu(np.ones((s, s), bool), 1), -np.inf, scores)
    p = np.exp(scores - scores.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    ref = np.transpose(p @ vt, (0, 2, 1, 3))
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="4-D"):
        F.scaled_dot_product_attention(t(q[0]), t(k), t(v))


# ---------------------------------------------------------------------------- clipping
def test_clip_grad_by_global_norm_and_value():
    p1 = skiff.create_parameter([3], "float32")
    p2 = skiff.create_parameter([2], "float32")
    g1, g2 = np.float32([3, 0, 4]), np.float32([0, 12])
    out = nn.ClipGradByGlobalNorm(1.3)([(p1, t(g1)), (p2, t(g2))])
    norm = math.sqrt(9 + 16 + 144)
    np.testing.assert_allclose(out[0][1].numpy(), g1 * 1.3 / norm, rtol=1e-6)
    np.testing.assert_allclose(out[1][1].numpy(), g2 * 1.3 / norm, rtol=1e-6)
    out = nn.ClipGradByValue(2.0)([(p1, t(g1))])
    np.testing.assert_array_equal(out[0][1].numpy(), [2, 0, 2])
    out = nn.ClipGradByNorm(1.0)([(p1, t(g1)), (p2, t(g2))])
    np.testing.assert_allclose(out[0][1].numpy(), g1 / 5, rtol=1e-6)
    with pytest.raises(ValueError, match="clip_norm"):
        nn.ClipGradByGlobalNorm(0)


def test_summary_counts_parameters(capsys):
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    info = skiff.summary(net, (1, 4))
    assert info == {"total_params": 58, "trainable_params": 58}
    out = capsys.readouterr().out
    assert "Linear-1" in out and "[1, 8]" in out and "Total params: 58" in out
