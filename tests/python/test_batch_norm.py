"""paddle.nn.functional.batch_norm and nn.BatchNorm1D/2D/3D over the fused batch_norm op: forward
against numpy, gradients and running statistics against torch, eval and use_global_stats modes,
channels first and last, bf16/fp16 inputs with float32 statistics, and errors."""
import numpy as np
import pytest

import skiff as paddle
import skiff.nn as nn
import skiff.nn.functional as F

torch = pytest.importorskip("torch")


def _ref(x, mean, var, w, b, axis, eps=1e-5):
    shape = [1] * x.ndim
    shape[axis] = -1
    r = lambda v: np.asarray(v).reshape(shape)  # noqa: E731
    return (x - r(mean)) / np.sqrt(r(var) + eps) * r(w) + r(b)


def _axes(x, axis):
    return tuple(i for i in range(x.ndim) if i != axis)


CASES = [("NCHW", (4, 3, 5, 6), 1), ("NHWC", (4, 5, 6, 3), 3), ("NC", (9, 3), 1),
         ("NCL", (4, 3, 7), 1), ("NLC", (4, 7, 3), 2), ("NCDHW", (2, 3, 2, 3, 4), 1),
         ("NDHWC", (2, 2, 3, 4, 3), 4)]


@pytest.mark.parametrize("fmt,shape,axis", CASES)
def test_training_forward_gradients_and_running_stats_match_torch(fmt, shape, axis):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(shape) * 2 + 3).astype(np.float32)
    w = rng.uniform(0.5, 1.5, 3).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    rm, rv = paddle.zeros([3]), paddle.ones([3])
    xt, wt, bt = (paddle.to_tensor(a, stop_gradient=False) for a in (x, w, b))
    y = F.batch_norm(xt, rm, rv, wt, bt, training=True, momentum=0.8, data_format=fmt)
    red = _axes(x, axis)
    np.testing.assert_allclose(y.numpy(), _ref(x, x.mean(red), x.var(red), w, b, axis),
                               rtol=1e-5, atol=1e-5)
    (y * paddle.to_tensor(g)).sum().backward()

    tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    trm, trv = torch.zeros(3), torch.ones(3)
    perm = [0, axis] + [i for i in range(1, x.ndim) if i != axis]
    ty = torch.nn.functional.batch_norm(tx.permute(perm), trm, trv, tw, tb, True, 0.2, 1e-5)
    ty = ty.permute(list(np.argsort(perm)))
    (ty * torch.from_numpy(g)).sum().backward()
    for ours, theirs in ((xt.grad, tx.grad), (wt.grad, tw.grad), (bt.grad, tb.grad)):
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-4, atol=1e-4)
    # Paddle's momentum is the weight of the old value (torch's is 1 - it); unbiased variance.
    np.testing.assert_allclose(rm.numpy(), trm.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rv.numpy(), trv.numpy(), rtol=1e-5, atol=1e-6)


def test_layers_track_running_stats_like_torch_over_steps_then_eval():
    rng = np.random.default_rng(1)
    ours, theirs = nn.BatchNorm2D(4), torch.nn.BatchNorm2d(4, momentum=0.1)
    for _ in range(3):
        x = (rng.standard_normal((6, 4, 3, 3)) * 3 - 1).astype(np.float32)
        ours(paddle.to_tensor(x))
        theirs(torch.from_numpy(x))
    np.testing.assert_allclose(ours._mean.numpy(), theirs.running_mean.numpy(), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(ours._variance.numpy(), theirs.running_var.numpy(), rtol=1e-5)
    ours.eval()
    theirs.eval()
    x = rng.standard_normal((2, 4, 3, 3)).astype(np.float32)
    before = ours._mean.numpy().copy()
    xt = paddle.to_tensor(x, stop_gradient=False)
    y = ours(xt)
    np.testing.assert_allclose(y.numpy(), theirs(torch.from_numpy(x)).detach().numpy(),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(ours._mean.numpy(), before)  # eval leaves them alone
    y.sum().backward()  # eval: constant statistics, dx = scale / sqrt(var + eps)
    np.testing.assert_allclose(
        xt.grad.numpy(), np.broadcast_to((1 / np.sqrt(ours._variance.numpy() + 1e-5))
                                         [None, :, None, None], x.shape), rtol=1e-5)


def test_use_global_stats_overrides_the_mode():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((5, 3, 4)).astype(np.float32)
    m = rng.standard_normal(3).astype(np.float32)
    v = rng.uniform(0.5, 2, 3).astype(np.float32)
    rm, rv = paddle.to_tensor(m), paddle.to_tensor(v)
    # True: the running statistics even in training, and no update.
    y = F.batch_norm(paddle.to_tensor(x), rm, rv, training=True, use_global_stats=True)
    np.testing.assert_allclose(y.numpy(), _ref(x, m, v, 1, 0, 1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(rm.numpy(), m)
    # False: the batch statistics even in eval, and the running ones are updated (Paddle).
    y = F.batch_norm(paddle.to_tensor(x), rm, rv, training=False, use_global_stats=False)
    red = (0, 2)
    np.testing.assert_allclose(y.numpy(), _ref(x, x.mean(red), x.var(red), 1, 0, 1), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(rm.numpy(), 0.9 * m + 0.1 * x.mean(red), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 3e-2), ("float16", 4e-3)])
def test_sixteen_bit_inputs_with_float32_statistics(dtype, tol):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, 4, 6, 6)).astype(np.float32)
    g = rng.standard_normal(x.shape).astype(np.float32)
    bn32, bn16 = nn.BatchNorm2D(4), nn.BatchNorm2D(4)
    x32 = paddle.to_tensor(x, stop_gradient=False)
    x16 = paddle.to_tensor(x).astype(dtype)
    x16.stop_gradient = False
    y32, y16 = bn32(x32), bn16(x16)
    assert y16.dtype == getattr(paddle, dtype) and bn16._mean.dtype == paddle.float32
    (y32 * paddle.to_tensor(g)).sum().backward()
    (y16 * paddle.to_tensor(g).astype(dtype)).sum().backward()
    # Rounding of x (8 bits of mantissa for bf16) bounds the error; statistics stay float32.
    np.testing.assert_allclose(y16.astype("float32").numpy(), y32.numpy(), atol=4 * tol)
    np.testing.assert_allclose(bn16._mean.numpy(), bn32._mean.numpy(), atol=tol)
    np.testing.assert_allclose(bn16._variance.numpy(), bn32._variance.numpy(), rtol=tol)
    np.testing.assert_allclose(x16.grad.astype("float32").numpy(), x32.grad.numpy(),
                               atol=8 * tol)
    np.testing.assert_allclose(bn16.weight.grad.numpy(), bn32.weight.grad.numpy(),
                               rtol=tol, atol=tol * 30)


def test_layers_pick_the_format_by_rank_and_check_it():
    bn1 = nn.BatchNorm1D(3)
    assert bn1(paddle.ones([4, 3])).shape == [4, 3]
    assert bn1(paddle.ones([4, 3, 5])).shape == [4, 3, 5]
    bn3 = nn.BatchNorm3D(3, data_format="NDHWC")
    assert bn3(paddle.rand([2, 2, 2, 2, 3])).shape == [2, 2, 2, 2, 3]
    with pytest.raises(ValueError, match="BatchNorm3D"):
        bn3(paddle.ones([2, 3]))


def test_create_graph_through_batch_norm_matches_torch():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((4, 2, 3)).astype(np.float64)
    xt = paddle.to_tensor(x, stop_gradient=False)
    y = F.batch_norm(xt, paddle.zeros([2], "float64"), paddle.ones([2], "float64"),
                     training=True)
    (gx,) = paddle.grad((y ** 3).sum(), xt, create_graph=True)
    (ggx,) = paddle.grad((gx ** 2).sum(), xt)
    tx = torch.tensor(x, requires_grad=True)
    ty = torch.nn.functional.batch_norm(tx, None, None, training=True, eps=1e-5)
    (tgx,) = torch.autograd.grad((ty ** 3).sum(), tx, create_graph=True)
    (tggx,) = torch.autograd.grad((tgx ** 2).sum(), tx)
    np.testing.assert_allclose(gx.numpy(), tgx.detach().numpy(), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ggx.numpy(), tggx.numpy(), rtol=1e-7, atol=1e-9)


def test_bad_inputs_name_the_op_and_argument():
    rm, rv = paddle.zeros([3]), paddle.ones([3])
    with pytest.raises(ValueError, match="batch_norm: argument 'x' expected 3 channels"):
        F.batch_norm(paddle.ones([2, 4, 5]), rm, rv, training=True)
    with pytest.raises(ValueError, match="batch_norm: argument 'data_format'"):
        F.batch_norm(paddle.ones([2, 3, 5]), rm, rv, data_format="NWC")
    with pytest.raises(ValueError, match="batch_norm: argument 'scale'"):
        F.batch_norm(paddle.ones([2, 3, 5]), rm, rv, weight=paddle.ones([4]))
    with pytest.raises(TypeError, match="batch_norm: argument 'mean'"):
        F.batch_norm(paddle.ones([2, 3, 5]), paddle.zeros([3], "float64"), rv)
    with pytest.raises(ValueError, match="batch_norm: argument 'x' expected a tensor of rank 2"):
        F.batch_norm(paddle.ones([3]), rm, rv)
