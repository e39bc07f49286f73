"""paddle.io.DistributedBatchSampler, paddle.optimizer.Rprop (against torch.optim.Rprop), the
random fills exponential_/cauchy_/geometric_/normal_ (distribution statistics), paddle.jit's
pre-save hooks and set_verbosity/set_code_level, and paddle.static.cuda_places, with the
bad-input messages."""
import math
import os

import numpy as np
import pytest
import torch

import skiff as paddle


class _Range(paddle.io.Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return i

    def __len__(self):
        return self.n


@pytest.mark.parametrize("n,batch,ranks", [(10, 3, 2), (11, 2, 3), (16, 4, 4), (5, 4, 2)])
@pytest.mark.parametrize("shuffle", [False, True])
def test_distributed_batch_sampler_partitions_the_padded_dataset(n, batch, ranks, shuffle):
    per_rank = math.ceil(n / ranks)
    seen = []
    for r in range(ranks):
        s = paddle.io.DistributedBatchSampler(_Range(n), batch, num_replicas=ranks, rank=r,
                                              shuffle=shuffle)
        s.set_epoch(3)
        batches = list(s)
        assert len(batches) == len(s) == math.ceil(per_rank / batch)
        assert all(len(b) == batch for b in batches[:-1])
        flat = [i for b in batches for i in b]
        assert len(flat) == per_rank
        seen += flat
    # every index appears; the padding repeats the head of the (shuffled) list
    assert sorted(set(seen)) == list(range(n)) and len(seen) == per_rank * ranks
    if not shuffle:
        first = list(paddle.io.DistributedBatchSampler(_Range(n), batch, ranks, 0))
        assert first[0] == list(range(min(batch, per_rank)))


def test_distributed_batch_sampler_epochs_drop_last_and_loader():
    s = paddle.io.DistributedBatchSampler(_Range(20), 4, num_replicas=2, rank=1, shuffle=True)
    e0, e1 = list(s), list(s)  # the epoch advances after a shuffled pass
    assert e0 != e1
    s.set_epoch(0)
    assert list(s) == e0
    d = paddle.io.DistributedBatchSampler(_Range(10), 4, num_replicas=2, rank=0, drop_last=True)
    assert len(d) == 1 and [len(b) for b in d] == [4]
    single = paddle.io.DistributedBatchSampler(_Range(5), 2)  # world size 1, rank 0
    assert list(single) == [[0, 1], [2, 3], [4]]
    loader = paddle.io.DataLoader(paddle.io.TensorDataset([paddle.arange(6).astype("float32")]),
                                  batch_sampler=paddle.io.DistributedBatchSampler(
                                      _Range(6), 2, num_replicas=2, rank=1))
    got = [b[0].numpy().tolist() for b in loader]
    # rank 1 takes the second run of each full round of 4, then half of the 2-index tail
    assert got == [[2.0, 3.0], [5.0]]


def test_distributed_batch_sampler_errors():
    with pytest.raises(ValueError, match="argument 'batch_size' expected a positive integer"):
        paddle.io.DistributedBatchSampler(_Range(4), 0)
    with pytest.raises(ValueError, match=r"argument 'rank' expected an integer in \[0, 2\), "
                                         r"got 2"):
        paddle.io.DistributedBatchSampler(_Range(4), 2, num_replicas=2, rank=2)
    with pytest.raises(TypeError, match="argument 'shuffle' expected a bool"):
        paddle.io.DistributedBatchSampler(_Range(4), 2, shuffle=1)


@pytest.mark.parametrize("etas,lr_range", [((0.5, 1.2), (1e-5, 50)), ((0.3, 1.5), (1e-3, 0.02))])
def test_rprop_is_torch_rprop(etas, lr_range):
    rng = np.random.default_rng(0)
    w0, x = rng.standard_normal((3, 4)), rng.standard_normal((8, 3))
    p = paddle.create_parameter([3, 4], "float64")
    p.set_value(w0)
    opt = paddle.optimizer.Rprop(learning_rate=0.01, learning_rate_range=lr_range,
                                 parameters=[p], etas=etas)
    tw = torch.tensor(w0, requires_grad=True)
    topt = torch.optim.Rprop([tw], lr=0.01, etas=etas, step_sizes=lr_range)
    px, tx = paddle.to_tensor(x), torch.from_numpy(x)
    for _ in range(12):
        (paddle.matmul(px, p).sin() ** 2).sum().backward()
        opt.step()
        opt.clear_grad()
        ((tx @ tw).sin() ** 2).sum().backward()
        topt.step()
        topt.zero_grad()
    np.testing.assert_allclose(p.numpy(), tw.detach().numpy(), rtol=1e-12, atol=1e-14)


def test_rprop_errors():
    p = paddle.create_parameter([2], "float32")
    with pytest.raises(ValueError, match=r"Rprop: 'etas' expected 0 < etas\[0\] < 1 < etas\[1\]"):
        paddle.optimizer.Rprop(parameters=[p], etas=(1.2, 0.5))
    with pytest.raises(ValueError, match="Rprop: 'learning_rate_range' expected 0 <= min <= max"):
        paddle.optimizer.Rprop(parameters=[p], learning_rate_range=(1.0, 0.1))
    with pytest.raises(ValueError, match="Rprop: Invalid learning rate: -1"):
        paddle.optimizer.Rprop(learning_rate=-1, parameters=[p])


def test_random_fills_follow_their_distributions():
    paddle.seed(5)
    x = paddle.empty([200000], "float64")
    assert x.exponential_(2.0) is x and x._inplace_version() == 1
    a = x.numpy()
    assert a.min() >= 0 and abs(a.mean() - 0.5) < 0.01 and abs(np.median(a) - math.log(2) / 2) < 0.01
    x.cauchy_(1.0, 2.0)
    a = x.numpy()
    assert abs(np.median(a) - 1.0) < 0.05 and abs(np.percentile(a, 75) - 3.0) < 0.1
    x.geometric_(0.25)
    a = x.numpy()
    assert a.min() == 1 and np.all(a == np.round(a))
    assert abs(a.mean() - 4.0) < 0.05 and abs((a == 1).mean() - 0.25) < 0.01
    assert paddle.normal_(x, 3.0, 0.5) is x
    a = x.numpy()
    assert abs(a.mean() - 3.0) < 0.01 and abs(a.std() - 0.5) < 0.01
    h = paddle.empty([1000], "float16")
    h.exponential_()
    assert h.dtype == paddle.float16 and h.astype("float32").numpy().min() >= 0
    paddle.seed(9)
    first = paddle.empty([5]).cauchy_().numpy()
    paddle.seed(9)
    np.testing.assert_array_equal(paddle.empty([5]).cauchy_().numpy(), first)


def test_random_fill_errors():
    with pytest.raises(ValueError, match=r"geometric_: argument 'probs' expected a value in "
                                         r"\(0, 1\], got 1.5"):
        paddle.empty([3]).geometric_(1.5)
    with pytest.raises(TypeError, match="exponential_: argument 'x' expected a floating point "
                                        "tensor, got int64"):
        paddle.to_tensor([1, 2]).exponential_()


def test_pre_save_hooks(tmp_path):
    calls = []

    def hook(layer, input_spec, configs):
        calls.append((type(layer).__name__, input_spec, dict(configs)))

    net = paddle.nn.Linear(2, 2)
    spec = [paddle.static.InputSpec([None, 2], "float32")]
    handle = paddle.jit.hang_a_pre_save_hook(hook)
    paddle.jit.hang_a_pre_save_hook(hook)  # at most once
    paddle.jit.save(net, os.path.join(tmp_path, "m"), input_spec=spec)
    assert calls == [("Linear", spec, {})]
    handle.remove()
    paddle.jit.save(net, os.path.join(tmp_path, "m"), input_spec=spec)
    assert len(calls) == 1
    paddle.jit.hang_a_pre_save_hook(hook)
    paddle.jit.delete_a_pre_save_hook(hook)
    paddle.jit.hang_a_pre_save_hook(lambda *a: calls.append("x"))
    paddle.jit.clear_pre_save_hooks()
    paddle.jit.save(net, os.path.join(tmp_path, "m"), input_spec=spec)
    assert len(calls) == 1
    with pytest.raises(TypeError, match="hang_a_pre_save_hook: argument 'hook' expected a "
                                        "callable"):
        paddle.jit.hang_a_pre_save_hook(3)


def test_set_code_level_and_verbosity_report_captures(capsys):
    try:
        paddle.jit.set_code_level(also_to_stdout=True)
        paddle.jit.to_static(lambda x: x * 2.0 + 1.0)(paddle.ones([2]))
        out = capsys.readouterr().out
        assert "to_static: the program of" in out and "op.multiply" in out
        paddle.jit.set_code_level(0)
        paddle.jit.set_verbosity(1, also_to_stdout=True)
        paddle.jit.to_static(lambda x: x - 1.0)(paddle.ones([3, 1]))
        out = capsys.readouterr().out
        assert "to_static: captured" in out and "[[3, 1]]" in out and "op." not in out
    finally:
        paddle.jit.set_code_level(0)
        paddle.jit.set_verbosity(0)
    paddle.jit.to_static(lambda x: x + 3.0)(paddle.ones([2]))
    assert capsys.readouterr().out == ""
    with pytest.raises(TypeError, match="set_verbosity: argument 'level' expected an int"):
        paddle.jit.set_verbosity("high")


def test_cuda_places_needs_cuda():
    assert not paddle.is_compiled_with_cuda()
    with pytest.raises(AssertionError, match="Not compiled with CUDA"):
        paddle.static.cuda_places()
