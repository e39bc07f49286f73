"""paddle.distributed.fleet.utils.recompute and recompute_sequential: gradients equal to the
plain run, dropout masks equal (RNG state restored), activations not kept."""
import os
import sys

import numpy as np
import pytest

import skiff as paddle
from skiff.distributed.fleet.utils import recompute
from skiff.incubate.distributed.fleet import recompute_sequential


def _block():
    paddle.seed(3)
    return paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.Dropout(0.5),
                                paddle.nn.ReLU(), paddle.nn.Linear(16, 8))


def _run(block, x, how, seed=7):
    for p in block.parameters():
        p.clear_gradient()
    x.clear_gradient()
    paddle.seed(seed)
    y = how(block, x)
    (y * y).sum().backward()
    return [y.numpy(), x.grad.numpy()] + [p.grad.numpy() for p in block.parameters()]


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_gradients_equal_with_dropout(use_reentrant):
    block = _block()
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((4, 8)).astype("float32"))
    x.stop_gradient = False
    plain = _run(block, x, lambda b, v: b(v))
    rc = _run(block, x, lambda b, v: recompute(b, v, use_reentrant=use_reentrant))
    for a, b in zip(plain, rc):
        np.testing.assert_array_equal(a, b)


def test_rng_not_preserved_draws_other_masks():
    block = _block()
    x = paddle.ones([64, 8])
    x.stop_gradient = False
    plain = _run(block, x, lambda b, v: b(v))
    rc = _run(block, x, lambda b, v: recompute(b, v, preserve_rng_state=False))
    np.testing.assert_array_equal(plain[0], rc[0])  # the forward itself is the same
    assert not np.allclose(plain[2], rc[2])  # the recomputation drew different masks


def test_kwargs_and_non_tensor_args():
    lin = paddle.nn.Linear(4, 4)

    def fn(x, scale, bias=None):
        return lin(x) * scale + bias

    x = paddle.ones([2, 4])
    x.stop_gradient = False
    b = paddle.full([4], 0.5)
    b.stop_gradient = False
    y = recompute(fn, x, 3.0, bias=b, use_reentrant=False)
    y.sum().backward()
    np.testing.assert_allclose(b.grad.numpy(), np.full([4], 2.0))
    np.testing.assert_allclose(x.grad.numpy(), np.tile(lin.weight.numpy().sum(1) * 3, (2, 1)),
                               rtol=1e-5)
    with pytest.raises(ValueError, match="use_reentrant=False"):
        recompute(fn, x, 3.0, bias=b)
    with pytest.raises(TypeError):
        recompute(3, x)


def test_recompute_sequential_matches():
    paddle.seed(1)
    model = paddle.nn.Sequential(paddle.nn.Linear(6, 6), paddle.nn.Tanh(), paddle.nn.Linear(6, 2))
    x = paddle.ones([3, 6])
    x.stop_gradient = False
    plain = _run(model, x, lambda m, v: m(v))
    rc = _run(model, x, lambda m, v: recompute_sequential({"segments": 2}, m, v))
    for a, b in zip(plain, rc):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_llama_recompute_saves_activation_memory():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "llama"))
    from model import Llama, LlamaConfig
    paddle.seed(0)
    cfg = LlamaConfig(vocab_size=64, dim=32, n_layers=3, n_heads=2, hidden_dim=64,
                      max_seq_len=32)
    model = Llama(cfg)
    rng = np.random.default_rng(0)
    idx = paddle.to_tensor(rng.integers(0, 64, (4, 32)), "int64")
    tgt = paddle.to_tensor(rng.integers(0, 64, (4, 32)), "int64")
    out = {}
    for rc in (False, True):
        model.recompute_blocks = rc
        model.clear_gradients()
        base = paddle.device.memory_allocated()
        paddle.device.reset_max_memory_allocated()
        loss = model.loss(idx, tgt)
        loss.backward()
        out[rc] = (paddle.device.max_memory_allocated() - base, float(loss),
                   [p.grad.numpy().copy() for p in model.parameters()])
    assert out[True][0] < out[False][0]
    assert out[True][1] == out[False][1]
    for a, b in zip(out[False][2], out[True][2]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
