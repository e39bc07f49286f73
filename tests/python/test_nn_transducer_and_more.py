"""rnnt_loss / RNNTLoss (Paddle's warprnnt op-test numbers, a torch autograd lattice,
FastEmit), fractional_max_pool2d/3d (Paddle's window formulas), AdaptiveLogSoftmaxWithLoss
(against torch's), SyncBatchNorm (one process and two ranks); bad inputs."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn.functional as F
from skiff.nn.functional.rnnt_loss import transducer
from test_distributed import assert_ok, run_ranks

R = np.random.RandomState(13)

# Paddle's test_warprnnt_op.py: log-probabilities, labels [1, 1], T = 4, U = 2
_ACTS = np.array([[[-1.02221057, -1.47617485, -0.88748174], [-1.18362952, -0.78488945, -1.43689575],
                   [-1.00784739, -1.28566450, -1.02574476]],
                  [[-1.02589709, -1.13153743, -1.14260096], [-1.09942215, -1.12238913, -1.07459704],
                   [-1.09359647, -0.89829379, -1.35585602]],
                  [[-1.07782876, -0.84361953, -1.47178440], [-1.23424792, -1.00248783, -1.07299990],
                   [-0.96521771, -1.19895815, -1.14698912]],
                  [[-1.50722446, -1.15380039, -0.76994115], [-1.19125975, -0.89919308, -1.24041594],
                   [-0.91301359, -1.19665577, -1.21576258]]])
_GRAD = np.array([[[-0.71614241, -0.28385759, 0.0], [-0.18382932, -0.10002826, 0.0],
                   [-0.10002826, 0.0, 0.0]],
                  [[-0.41121795, -0.30492447, 0.0], [-0.32957594, -0.15917785, 0.0],
                   [-0.25920611, 0.0, 0.0]],
                  [[-0.11607642, -0.29514153, 0.0], [-0.28653336, -0.3381841, 0.0],
                   [-0.59739022, 0.0, 0.0]],
                  [[0.0, -0.11607642, 0.0], [0.0, -0.40260978, 0.0], [-1.0, 0.0, 0.0]]])


def test_transducer_matches_paddles_op_test():
    nll, grad = transducer(_ACTS[None], np.array([[1, 1]]), np.array([4]), np.array([2]), 0, 0.0)
    np.testing.assert_allclose(nll, [3.9384369822503591], rtol=1e-8)
    np.testing.assert_allclose(grad[0], _GRAD, atol=1e-7)


def _torch_rnnt(logits, labels, t_len, u_len, blank):
    lp = torch.log_softmax(logits, -1)
    out = []
    for b in range(lp.shape[0]):
        tb, ub = int(t_len[b]), int(u_len[b])
        alpha = [[None] * (ub + 1) for _ in range(tb)]
        for t in range(tb):
            for u in range(ub + 1):
                terms = []
                if t == 0 and u == 0:
                    terms.append(torch.zeros((), dtype=lp.dtype))
                if t > 0:
                    terms.append(alpha[t - 1][u] + lp[b, t - 1, u, blank])
                if u > 0:
                    terms.append(alpha[t][u - 1] + lp[b, t, u - 1, labels[b, u - 1]])
                alpha[t][u] = torch.logsumexp(torch.stack(terms), 0)
        out.append(-(alpha[tb - 1][ub] + lp[b, tb - 1, ub, blank]))
    return torch.stack(out)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_rnnt_loss_against_torch(reduction):
    b, t, u, d = 3, 5, 3, 6
    x = R.randn(b, t, u + 1, d)
    labels = np.array([[1, 2, 3], [4, 4, 0], [5, 0, 0]])
    t_len, u_len = np.array([5, 4, 3]), np.array([3, 2, 1])
    xs = paddle.to_tensor(x, stop_gradient=False)
    out = F.rnnt_loss(xs, paddle.to_tensor(labels.astype("int32")), paddle.to_tensor(t_len),
                      paddle.to_tensor(u_len), 0, 0.0, reduction)
    X = torch.tensor(x, requires_grad=True)
    ref = _torch_rnnt(X, labels, t_len, u_len, 0)
    ref = {"none": ref, "mean": ref.sum() / b, "sum": ref.sum()}[reduction]
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=1e-10)
    g = np.asarray(R.rand(*ref.shape), dtype=np.float64)  # an array even when 0-D
    out.backward(paddle.to_tensor(g))
    ref.backward(torch.tensor(g))
    np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=1e-9, atol=1e-12)


def test_rnnt_fastemit_and_layer():
    # FastEmit leaves the loss and scales the label-emission gradients by (1 + lambda)
    lam = 0.25
    nll0, g0 = transducer(_ACTS[None], np.array([[1, 1]]), np.array([4]), np.array([2]), 0, 0.0)
    nll1, g1 = transducer(_ACTS[None], np.array([[1, 1]]), np.array([4]), np.array([2]), 0, lam)
    np.testing.assert_allclose(nll1, nll0, rtol=1e-12)
    np.testing.assert_allclose(g1[..., 0], g0[..., 0], rtol=1e-12)  # blank
    np.testing.assert_allclose(g1[..., 1], (1 + lam) * g0[..., 1], rtol=1e-12)  # label 1
    x = paddle.to_tensor(R.randn(2, 4, 3, 5).astype("float32"), stop_gradient=False)
    loss = paddle.nn.RNNTLoss(blank=4, reduction="sum")
    out = loss(x, paddle.to_tensor([[1, 2], [3, 0]], dtype="int32"), paddle.to_tensor([4, 3]),
               paddle.to_tensor([2, 1]))
    ref = _torch_rnnt(torch.tensor(x.numpy(), dtype=torch.float64),
                      np.array([[1, 2], [3, 0]]), [4, 3], [2, 1], 4).sum()
    np.testing.assert_allclose(out.numpy(), ref.item(), rtol=1e-5)
    out.backward()
    assert x.grad.shape == [2, 4, 3, 5]


def test_rnnt_bad_inputs():
    x = paddle.rand([2, 4, 3, 5])
    lab = paddle.to_tensor([[1, 2], [3, 1]], dtype="int32")
    lens, ulens = paddle.to_tensor([4, 4]), paddle.to_tensor([2, 2])
    with pytest.raises(ValueError, match=r"rnnt_loss: argument 'label' expected shape \[2, 2\]"):
        F.rnnt_loss(x, paddle.to_tensor([[1], [2]], dtype="int32"), lens, ulens)
    with pytest.raises(ValueError, match=r"rnnt_loss: argument 'input_lengths' expected values "
                                         r"in \[1, 4\]"):
        F.rnnt_loss(x, lab, paddle.to_tensor([5, 4]), ulens)
    with pytest.raises(ValueError, match=r"rnnt_loss: argument 'label' expected class indices "
                                         r"in \[0, 5\) other than blank \(0\)"):
        F.rnnt_loss(x, paddle.to_tensor([[0, 2], [3, 1]], dtype="int32"), lens, ulens)
    with pytest.raises(ValueError, match=r"rnnt_loss: argument 'input' expected a 4-D tensor"):
        F.rnnt_loss(paddle.rand([2, 4, 3]), lab, lens, ulens)
    with pytest.raises(ValueError, match=r"rnnt_loss: argument 'reduction'"):
        F.rnnt_loss(x, lab, lens, ulens, reduction="avg")
    with pytest.raises(ValueError, match=r"rnnt_loss: argument 'fastemit_lambda' expected"):
        F.rnnt_loss(x, lab, lens, ulens, fastemit_lambda=-1.0)


def _frac_windows(n_in, n_out, k, u):
    """Paddle's FractionalStartIndex/EndIndex, in float32 as its kernel, one index at a time."""
    f = np.float32
    alpha = f(n_in - k) / f(n_out - (1 if k > 0 else 0))
    if k == 0:
        base = n_in // n_out
        u = f(u) * min(f(base + 2) / alpha - f(1), f(n_in + 1 - base) / alpha - f(n_out - 1))
    out = []
    for i in range(n_out):
        s = int(np.ceil(alpha * (f(i) + f(u)) - f(1)))
        e = int(np.ceil(alpha * (f(i) + f(u)) - f(1) + f(k))) if k > 0 else int(
            np.ceil(alpha * (f(i) + f(1) + f(u)) - f(1)))
        out.append((max(s, 0), min(e, n_in)))
    return out


def _frac_ref(x, out_size, k, u):
    n, c = x.shape[:2]
    axes = [_frac_windows(x.shape[2 + i], out_size[i], k[i], u) for i in range(len(out_size))]
    val = np.zeros([n, c] + out_size)
    idx = np.zeros([n, c] + out_size, dtype=np.int64)
    for pos in np.ndindex(*out_size):
        sl = tuple(slice(*axes[i][p]) for i, p in enumerate(pos))
        win = x[(slice(None), slice(None)) + sl].reshape(n, c, -1)
        arg = win.argmax(-1)
        val[(slice(None), slice(None)) + pos] = win.max(-1)
        coords = np.unravel_index(arg, [s.stop - s.start for s in sl])
        flat = np.zeros_like(arg)
        for ax, (s, cd) in enumerate(zip(sl, coords)):
            flat = flat * x.shape[2 + ax] + (s.start + cd)
        idx[(slice(None), slice(None)) + pos] = flat
    return val, idx


@pytest.mark.parametrize("case", [([7, 5], None, 0.3), ([5, 4], 2, 0.7), ([6, 6], [3, 2], 0.5)])
def test_fractional_max_pool2d(case):
    out_size, k, u = case
    x = R.randn(2, 3, 11, 9)
    xs = paddle.to_tensor(x, stop_gradient=False)
    val, mask = F.fractional_max_pool2d(xs, out_size, k, u, return_mask=True)
    kk = [0, 0] if k is None else ([k, k] if isinstance(k, int) else k)
    rv, ri = _frac_ref(x, out_size, kk, u)
    np.testing.assert_array_equal(val.numpy(), rv)
    np.testing.assert_array_equal(mask.numpy(), ri)
    g = R.randn(*rv.shape)
    val.backward(paddle.to_tensor(g))
    ref = np.zeros_like(x).reshape(2, 3, -1)
    np.add.at(ref, (np.arange(2)[:, None, None], np.arange(3)[None, :, None],
                    ri.reshape(2, 3, -1)), g.reshape(2, 3, -1))
    np.testing.assert_allclose(xs.grad.numpy(), ref.reshape(x.shape), rtol=1e-12)


def test_fractional_max_pool3d_and_errors():
    x = R.randn(1, 2, 7, 8, 6)
    val, mask = F.fractional_max_pool3d(paddle.to_tensor(x), [3, 4, 2], random_u=0.4,
                                        return_mask=True)
    rv, ri = _frac_ref(x, [3, 4, 2], [0, 0, 0], 0.4)
    np.testing.assert_array_equal(val.numpy(), rv)
    np.testing.assert_array_equal(mask.numpy(), ri)
    assert F.fractional_max_pool2d(paddle.rand([1, 1, 9, 9]), 4).shape == [1, 1, 4, 4]
    with pytest.raises(ValueError, match=r"fractional_max_pool2d: input_height \[4\] is less "
                                         r"than valid output_height \[6\]"):
        F.fractional_max_pool2d(paddle.rand([1, 1, 4, 8]), [4, 4], kernel_size=3)
    with pytest.raises(ValueError, match=r"fractional_max_pool2d: argument 'random_u' expected "
                                         r"a value in \(0, 1\)"):
        F.fractional_max_pool2d(paddle.rand([1, 1, 8, 8]), 4, random_u=1.5)
    with pytest.raises(ValueError, match=r"fractional_max_pool3d: argument 'x' expected a 5-D"):
        F.fractional_max_pool3d(paddle.rand([1, 1, 8, 8]), 4)


def test_adaptive_log_softmax_against_torch():
    paddle.seed(5)
    m = paddle.nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 9, 14], div_value=2.0, head_bias=True)
    t = torch.nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 9, 14], div_value=2.0, head_bias=True)
    with torch.no_grad():  # torch's Linear weights are [out, in]
        t.head.weight.copy_(torch.tensor(m.head_weight.numpy().T))
        t.head.bias.copy_(torch.tensor(m.head_bias.numpy()))
        for i, (w0, w1) in enumerate(m.tail_weights):
            t.tail[i][0].weight.copy_(torch.tensor(w0.numpy().T))
            t.tail[i][1].weight.copy_(torch.tensor(w1.numpy().T))
    x = R.randn(12, 16).astype("float32")
    lab = R.randint(0, 20, 12)
    xs = paddle.to_tensor(x, stop_gradient=False)
    out, loss = m(xs, paddle.to_tensor(lab))
    X = torch.tensor(x, requires_grad=True)
    ref = t(X, torch.tensor(lab))
    np.testing.assert_allclose(out.numpy(), ref.output.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(loss.numpy(), ref.loss.item(), rtol=1e-5)
    loss.backward()
    ref.loss.backward()
    np.testing.assert_allclose(xs.grad.numpy(), X.grad.numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(m.tail_weights[1][0].grad.numpy(),
                               t.tail[1][0].weight.grad.numpy().T, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(m.log_prob(paddle.to_tensor(x)).numpy(),
                               t.log_prob(torch.tensor(x)).detach().numpy(), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_array_equal(m.predict(paddle.to_tensor(x)).numpy(),
                                  t.predict(torch.tensor(x)).numpy())
    # the functional form with Paddle's example shapes: cutoffs [2] and a head of 3
    inp = paddle.randn([3, 5])
    o, l2 = F.adaptive_log_softmax_with_loss(inp, paddle.full([3], 1, dtype="int64"),
                                             paddle.randn([5, 3]), [], [2], paddle.randn([3]))
    assert o.shape == [3] and l2.shape == []
    with pytest.raises(ValueError, match=r"label values should be in \[0, 19\]"):
        m(xs, paddle.to_tensor(np.full([12], 20)))
    with pytest.raises(ValueError, match=r"AdaptiveLogSoftmaxWithLoss: argument 'cutoffs' "
                                         r"expected a sequence of unique, positive integers"):
        paddle.nn.AdaptiveLogSoftmaxWithLoss(16, 20, [9, 4])


def test_sync_batch_norm_one_process_is_batch_norm():
    x = paddle.to_tensor(R.randn(6, 3, 4).astype("float32"))
    ref = paddle.nn.BatchNorm1D(3)
    sbn = paddle.nn.SyncBatchNorm(3)
    np.testing.assert_allclose(sbn(x).numpy(), ref(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(sbn._variance.numpy(), ref._variance.numpy(), rtol=1e-6)
    model = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 1), paddle.nn.BatchNorm2D(4))
    converted = paddle.nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert isinstance(converted[1], paddle.nn.SyncBatchNorm)
    assert converted[1].weight is model[1].weight
    with pytest.raises(ValueError, match=r"SyncBatchNorm: argument 'data_format'"):
        paddle.nn.SyncBatchNorm(3, data_format="CHW")


def test_sync_batch_norm_two_ranks():
    assert_ok(run_ranks("sync_batch_norm", 2))


def _reference_beam_search(emb, cell, out_l, init, beam, start, end, max_steps):
    """A direct beam search over explicit hypotheses (tokens, score, finished, state)."""
    results = []
    for b in range(init.shape[0]):
        hyps = [([], 0.0 if k == 0 else -1e9, False, init[b:b + 1]) for k in range(beam)]
        inputs = [start] * beam
        for _ in range(max_steps + 1):
            cand = []
            new_states = []
            for k, (tokens, score, done, state) in enumerate(hyps):
                x = emb(paddle.to_tensor([inputs[k]]))
                out, st = cell(x, state)
                logp = np.log(np.exp(out_l(out).numpy()[0]) / np.exp(out_l(out).numpy()[0]).sum())
                if done:
                    logp = np.full_like(logp, -1e9)
                    logp[end] = 0.0
                new_states.append(st)
                cand.append(score + logp.astype(np.float32))
            flat = np.concatenate(cand)
            order = np.argsort(-flat, kind="stable")[:beam]
            vocab = len(cand[0])
            hyps = [(hyps[i // vocab][0] + [i % vocab], flat[i],
                     hyps[i // vocab][2] or i % vocab == end, new_states[i // vocab])
                    for i in order]
            inputs = [h[0][-1] for h in hyps]
            if all(h[2] for h in hyps):
                break
        results.append([h[0] for h in hyps])
    return np.array(results).transpose(0, 2, 1)  # [batch, time, beam]


def test_beam_search_decoder_and_dynamic_decode():
    paddle.seed(0)
    emb = paddle.nn.Embedding(10, 8)
    out_l = paddle.nn.Linear(8, 10)
    cell = paddle.nn.GRUCell(8, 8)
    dec = paddle.nn.BeamSearchDecoder(cell, start_token=0, end_token=1, beam_size=3,
                                      embedding_fn=emb, output_fn=out_l)
    init = paddle.rand([2, 8])
    outs, states, lens = paddle.nn.dynamic_decode(dec, inits=init, max_step_num=6,
                                                  return_length=True)
    ref = _reference_beam_search(emb, cell, out_l, init, 3, 0, 1, 6)
    assert outs.shape == list(ref.shape)
    np.testing.assert_array_equal(outs.numpy(), ref)
    assert isinstance(states, paddle.nn.BeamSearchDecoder.StateWrapper)
    assert lens.shape == [2, 3]
    t_major, _ = paddle.nn.dynamic_decode(dec, inits=init, max_step_num=6,
                                          output_time_major=True)
    np.testing.assert_array_equal(t_major.numpy(), ref.transpose(1, 0, 2))
    tiled = paddle.nn.BeamSearchDecoder.tile_beam_merge_with_batch(
        paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), 2)
    np.testing.assert_array_equal(tiled.numpy(), [[1, 2], [1, 2], [3, 4], [3, 4]])
    with pytest.raises(ValueError, match=r"BeamSearchDecoder: argument 'beam_size' expected a "
                                         r"positive int"):
        paddle.nn.BeamSearchDecoder(cell, 0, 1, 0)
    with pytest.raises(ValueError, match=r"dynamic_decode: argument 'max_step_num' expected"):
        paddle.nn.dynamic_decode(dec, inits=init, max_step_num=-2)


class _CountDecoder(paddle.nn.Decoder):
    """Greedy toy decoder: emits step + row, finished when it reaches the row's limit."""

    def __init__(self, limits):
        self.limits = paddle.to_tensor(limits)

    def initialize(self, inits):
        return inits, inits, paddle.zeros(inits.shape, dtype="bool")

    def step(self, time, inputs, states, **kwargs):
        nxt = inputs + 1
        return nxt, states + 1, nxt, nxt >= self.limits


def test_dynamic_decode_with_its_own_finished_tracking():
    dec = _CountDecoder([2, 4, 3])
    outs, states, lens = paddle.nn.dynamic_decode(dec, paddle.zeros([3], "int64"),
                                                  impute_finished=True, return_length=True)
    np.testing.assert_array_equal(outs.numpy(), [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]])
    np.testing.assert_array_equal(lens.numpy(), [2, 4, 3])
    np.testing.assert_array_equal(states.numpy(), [2, 4, 3])  # imputed once finished
