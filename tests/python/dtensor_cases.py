"""Rank programs for test_dtensor.py: each runs on every rank of a job started by the test
(init_parallel_env from PADDLE_* variables) and exits non-zero with a message on a mismatch."""
import sys

import numpy as np

import skiff as paddle
import skiff.distributed as dist


def check(cond, what):
    if not cond:
        raise SystemExit(f"rank {dist.get_rank()}: {what}")


def equal(a, b, what):
    a, b = np.asarray(a), np.asarray(b)
    check(a.shape == b.shape and np.array_equal(a, b), f"{what}: got {a} expected {b}")


def placements_1d():
    return [[dist.Replicate()], [dist.Shard(0)], [dist.Shard(1)], [dist.Partial()],
            [dist.Partial(dist.ReduceType.kRedAvg)], [dist.Partial(dist.ReduceType.kRedMax)]]


def placements_2d():
    one = [dist.Replicate(), dist.Shard(0), dist.Shard(1), dist.Partial()]
    return [[a, b] for a in one for b in one if not (a.is_shard() and a == b)]


def local_piece(full, mesh, placements, rank):
    """numpy's view of the piece Paddle's ceil split gives `rank` (Partial: the full value)."""
    coord = [int(c[0]) for c in np.nonzero(mesh.mesh == rank)]
    piece = full
    for axis, p in enumerate(placements):
        if p.is_shard():
            d, n, k = p.get_dim(), full.shape[p.get_dim()], mesh.shape[axis]
            c = -(-n // k)
            b = min(coord[axis] * c, n)
            piece = np.take(piece, range(b, min(b + c, n)), axis=d)
    return piece


def round_trips(mesh, cases, shape):
    rank = dist.get_rank()
    full = np.arange(int(np.prod(shape)), dtype="float32").reshape(shape) + 1
    x = paddle.to_tensor(full)
    for src in cases:
        t = dist.shard_tensor(x, mesh, src)
        check(t.is_dist() and t.shape == list(shape), f"shard_tensor {src}: {t.shape}")
        check(t.placements == src and t.process_mesh == mesh, f"placements {t.placements}")
        if not any(p.is_partial() for p in src):
            equal(t._local_value().numpy(), local_piece(full, mesh, src, rank), f"piece {src}")
        for dst in cases:
            r = dist.reshard(t, mesh, dst)
            check(r.placements == dst, f"{src} -> {dst}: placements {r.placements}")
            if not any(p.is_partial() for p in dst):
                equal(r._local_value().numpy(), local_piece(full, mesh, dst, rank),
                      f"{src} -> {dst} local")
            equal(dist.unshard_dtensor(r).numpy(), full, f"{src} -> {dst} unshard")
            equal(r.numpy(), full, f"{src} -> {dst} numpy")


def reshard_1d():
    dist.init_parallel_env()
    n = dist.get_world_size()
    mesh = dist.ProcessMesh(list(range(n)), dim_names=["x"])
    round_trips(mesh, placements_1d(), (7, 5))   # Paddle's uneven case: 2,2,2,1 and 2,2,1,0
    round_trips(mesh, placements_1d(), (2, 3))   # zero-size shards on 4 ranks


def reshard_2d():
    dist.init_parallel_env()
    mesh = dist.ProcessMesh([[2, 0], [3, 1]], dim_names=["dp", "mp"])
    round_trips(mesh, placements_2d(), (7, 5))


def api():
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    mesh = dist.ProcessMesh(list(range(n)), dim_names=["x"])
    # dtensor_from_local / dtensor_to_local: the global shape is local x mesh size.
    local = paddle.full([2, 3], float(rank))
    t = dist.dtensor_from_local(local, mesh, [dist.Shard(0)])
    check(t.shape == [2 * n, 3], f"dtensor_from_local shape {t.shape}")
    want = np.repeat(np.arange(n, dtype="float32"), 2)[:, None] * np.ones((1, 3), "float32")
    equal(t.numpy(), want, "dtensor_from_local global value")
    equal(dist.dtensor_to_local(t, mesh, [dist.Shard(0)]).numpy(), local.numpy(), "to_local")
    # Partial from local pieces: the global value is the sum.
    p = dist.dtensor_from_local(paddle.full([3], float(rank + 1)), mesh, [dist.Partial()])
    equal(p.numpy(), np.full([3], n * (n + 1) / 2, "float32"), "partial sum")
    # stop_gradient follows Paddle: the data's flag, or the argument.
    w = paddle.ones([4, 2])
    w.stop_gradient = False
    check(dist.shard_tensor(w, mesh, [dist.Shard(0)]).stop_gradient is False, "stop_gradient")
    check(dist.shard_tensor(w, mesh, [dist.Shard(0)], stop_gradient=True).stop_gradient,
          "stop_gradient=True")
    # Lists and dtype.
    s = dist.shard_tensor([[1, 2], [3, 4]], mesh, [dist.Replicate()], dtype="float64")
    check(s.dtype == paddle.float64, f"dtype {s.dtype}")
    check(not paddle.ones([2]).is_dist() and paddle.ones([2]).placements is None, "dense")
    # Bad inputs, with Paddle's classes.
    x = paddle.ones([4, 4])
    errors = [
        (lambda: dist.shard_tensor(x, mesh, [dist.Shard(0), dist.Shard(1)]), ValueError,
         "one placement per mesh dim (1)"),
        (lambda: dist.shard_tensor(x, mesh, [dist.Shard(2)]), ValueError,
         "Shard dims in [0, 2) for a 2-d tensor, got Shard(dim=2)"),
        (lambda: dist.shard_tensor(x, dist.ProcessMesh(list(range(n + 1))), [dist.Shard(0)]),
         ValueError, f"process ids below the world size {n}"),
        (lambda: dist.shard_tensor(x, [0, 1], [dist.Shard(0)]), ValueError,
         "expected a paddle.distributed.ProcessMesh"),
        (lambda: dist.reshard(x, mesh, [dist.Shard(0)]), ValueError,
         "expected a distributed tensor"),
        (lambda: dist.reshard(t, mesh, [dist.Shard(0), dist.Shard(1)]), ValueError,
         "one placement per mesh dim"),
        (lambda: dist.dtensor_from_local(t, mesh, [dist.Shard(0)]), ValueError,
         "The input should be a local tensor."),
        (lambda: dist.dtensor_to_local(x, mesh, [dist.Shard(0)]), ValueError,
         "The input should be a distributed tensor."),
        (lambda: t.add_(t), NotImplementedError, "an in-place call"),
        (lambda: dist.Shard(-1), ValueError, "non-negative int"),
    ]
    for fn, cls, part in errors:
        try:
            fn()
        except cls as e:
            check(part in str(e), f"message {e!r} lacks {part!r}")
        else:
            check(False, f"no {cls.__name__} for {part!r}")


def eager():
    """matmul/add/relu/sum on sharded inputs through the distributed mode, forward and
    gradients, against torch on the global values."""
    import torch
    dist.init_parallel_env()
    n = dist.get_world_size()
    mesh = dist.ProcessMesh(list(range(n)), dim_names=["x"])
    rng = np.random.RandomState(0)
    xs, ws, bs = rng.randn(5, 6), rng.randn(6, 7), rng.randn(7)
    xs, ws, bs = (a.astype("float32") for a in (xs, ws, bs))
    cases = [  # x, w, b placements: dp rows, contracted k (Partial), column parallel
        ([dist.Shard(0)], [dist.Replicate()], [dist.Replicate()], [dist.Partial()]),
        ([dist.Shard(1)], [dist.Shard(0)], [dist.Replicate()], None),
        ([dist.Replicate()], [dist.Shard(1)], [dist.Shard(0)], [dist.Partial()]),
    ]
    for px, pw, pb, ploss in cases:
        x = dist.shard_tensor(xs, mesh, px, stop_gradient=False)
        w = dist.shard_tensor(ws, mesh, pw, stop_gradient=False)
        b = dist.shard_tensor(bs, mesh, pb, stop_gradient=False)
        h = paddle.matmul(x, w)
        y = paddle.nn.functional.relu(paddle.add(h, b))
        loss = paddle.sum(y)
        check(loss.is_dist() and y.is_dist() and y.shape == [5, 7], f"{px} {pw}: {y.shape}")
        if ploss is not None:
            check(loss.placements == ploss, f"{px} {pw}: loss placements {loss.placements}")
        tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in (xs, ws, bs))
        ty = torch.relu(tx @ tw + tb)
        tloss = ty.sum()
        tloss.backward()
        np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(loss.numpy(), tloss.detach().numpy(), rtol=1e-5, atol=1e-4)
        loss.backward()
        for t, ref, what in ((x, tx, "x"), (w, tw, "w"), (b, tb, "b")):
            check(t.grad is not None, f"{px} {pw}: no grad for {what}")
            np.testing.assert_allclose(t.grad.numpy(), ref.grad.numpy(), rtol=1e-5, atol=1e-5,
                                       err_msg=f"{px} {pw}: grad of {what}")
    # The rule result is cached per (op, placements, shapes): a second forward adds no entry.
    x = dist.shard_tensor(xs, mesh, [dist.Shard(0)])
    w = dist.shard_tensor(ws, mesh, [dist.Replicate()])
    paddle.matmul(x, w)
    size = paddle._C.dist.rule_cache_size()
    paddle.matmul(x, w)
    check(paddle._C.dist.rule_cache_size() == size, "rule cache grew on a repeated call")


def counts():
    return paddle._C.dist.reshard_counts()


def delta(before):
    after = counts()
    return {k: after[k] - before[k] for k in after}


def eager_grad():
    """Backward keeps sharding: per layout of a two-layer MLP (dp, column, row, a row-parallel
    product left Partial, a weight used twice), the leaves' gradients equal torch's, carry the
    leaves' placements, and backward issues exactly the expected collectives (no all-gather)."""
    import torch
    dist.init_parallel_env()
    n = dist.get_world_size()
    mesh = dist.ProcessMesh(list(range(n)), dim_names=["x"])
    rng = np.random.RandomState(1)
    xs, ws, bs = (rng.randn(*s).astype("float32") for s in ((4, 6), (6, 8), (8,)))
    R, S0, S1 = [dist.Replicate()], [dist.Shard(0)], [dist.Shard(1)]
    # x, w, b placements (None: no bias), the loss, and the collectives backward must make:
    # dp: dW and db are Partial over the batch, kept so by their leaves and all-reduced together
    # in one bucket when backward ends; column: dx (contracted over the sharded hidden dim)
    # reduced at the replicated x (a bucket of one); row: none.
    cases = [
        ("dp", S0, R, R, "mean", {"grad_bucket_all_reduce": 1}),
        ("column", R, S1, S0, "sum", {"grad_bucket_all_reduce": 1}),
        ("row", S1, S0, R, "sum", {}),
        ("row, no bias", S1, S0, None, "sum", {}),
        ("dp, w used twice", S0, R, None, "twice", {"grad_bucket_all_reduce": 1}),
    ]
    for what, px, pw, pb, loss_kind, want in cases:
        x = dist.shard_tensor(xs, mesh, px, stop_gradient=False)
        w = dist.shard_tensor(ws, mesh, pw, stop_gradient=False)
        b = dist.shard_tensor(bs, mesh, pb, stop_gradient=False) if pb else None
        tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in (xs, ws, bs))
        before = counts()
        if loss_kind == "twice":
            h = paddle.add(paddle.matmul(x, w), paddle.matmul(paddle.scale(x, 2.0), w))
            th = tx @ tw + (2 * tx) @ tw
        else:
            h = paddle.matmul(x, w) if b is None else paddle.nn.functional.linear(x, w, b)
            th = tx @ tw if b is None else tx @ tw + tb
        y, ty = paddle.nn.functional.relu(h), torch.relu(th)
        loss = paddle.mean(y) if loss_kind == "mean" else paddle.sum(y)
        tloss = ty.mean() if loss_kind == "mean" else ty.sum()
        forward = delta(before)
        check(forward["all_gather"] == 0, f"{what}: forward all-gathers {forward}")
        before = counts()
        loss.backward()
        made = delta(before)
        expected = {"all_reduce": 0, "reduce_scatter": 0, "all_to_all": 0, "all_gather": 0,
                    "grad_bucket_all_reduce": 0}
        expected.update(want)
        check(made == expected, f"{what}: backward made {made}, expected {expected}")
        tloss.backward()
        leaves = [(x, tx, px, "x"), (w, tw, pw, "w")] + ([(b, tb, pb, "b")] if b is not None else [])
        for t, ref, p, name in leaves:
            check(t.grad is not None and t.grad.is_dist(), f"{what}: grad of {name} not dist")
            check(t.grad.placements == p,
                  f"{what}: grad of {name} placements {t.grad.placements}, leaf {p}")
            np.testing.assert_allclose(t.grad.numpy(), ref.grad.numpy(), rtol=1e-5, atol=1e-5,
                                       err_msg=f"{what}: grad of {name}")
        np.testing.assert_allclose(loss.numpy(), tloss.detach().numpy(), rtol=1e-5, atol=1e-5)


def grad_buckets(bucket_bytes=None):
    """Note [Leaf gradients are reduced in buckets]: a data-parallel backward reduces every
    Partial(dp) leaf gradient in one all-reduce after backward (float32 and float64 in one
    each), accumulates across backwards without clearing, keeps bucketing after
    clear_grad(set_to_zero), and still reduces correctly after a backward that failed.
    bucket_bytes: SKIFF_GRAD_BUCKET_BYTES for the run (64: every gradient its own bucket, and
    w2's, which is final first, is launched while backward still computes b1's and w1's)."""
    import os
    if bucket_bytes is not None:
        os.environ["SKIFF_GRAD_BUCKET_BYTES"] = str(bucket_bytes)
    buckets = 2 if bucket_bytes is None else 3
    launched_early = 0 if bucket_bytes is None else 1
    import torch
    dist.init_parallel_env()
    n = dist.get_world_size()
    mesh = dist.ProcessMesh(list(range(n)), dim_names=["dp"])
    rng = np.random.RandomState(3)
    xs = rng.randn(2 * n, 5).astype("float32")
    w1s, b1s, w2s = rng.randn(5, 6), rng.randn(6), rng.randn(6, 3)
    w1s, b1s, w2s = w1s.astype("float32"), b1s.astype("float32"), w2s.astype("float64")
    x = dist.shard_tensor(xs, mesh, [dist.Shard(0)])
    params = [dist.shard_tensor(a, mesh, [dist.Replicate()], stop_gradient=False)
              for a in (w1s, b1s, w2s)]
    t_params = [torch.tensor(a, requires_grad=True) for a in (w1s, b1s, w2s)]

    def loss_of(w1, b1, w2):
        h = paddle.nn.functional.relu(paddle.nn.functional.linear(x, w1, b1))
        return paddle.sum(paddle.matmul(paddle.cast(h, "float64"), w2))

    def t_loss():
        w1, b1, w2 = t_params
        h = torch.relu(torch.tensor(xs) @ w1 + b1)
        return (h.double() @ w2).sum()

    def expect(scale, what):
        for p, t, name in zip(params, t_params, ("w1", "b1", "w2")):
            check(p.grad is not None and p.grad.placements == [dist.Replicate()],
                  f"{what}: grad of {name} is {None if p.grad is None else p.grad.placements}")
            np.testing.assert_allclose(p.grad.numpy(), scale * t.grad.numpy(), rtol=1e-5,
                                       atol=1e-5, err_msg=f"{what}: grad of {name}")

    def bucketed_backward(what):
        """One backward: the expected buckets and no other all-reduce, gradients as torch's."""
        before = counts()
        overlapped = paddle._C.dist.grad_buckets_overlapped()
        loss_of(*params).backward()
        made = delta(before)
        check(made["all_reduce"] == 0 and made["grad_bucket_all_reduce"] == buckets,
              f"{what}: backward made {made}, expected {buckets} bucket all-reduces")
        early = paddle._C.dist.grad_buckets_overlapped() - overlapped
        check(early == launched_early,
              f"{what}: {early} buckets launched during backward, expected {launched_early}")
        expect(1, what)

    t_loss().backward()
    bucketed_backward("first backward")
    loss_of(*params).backward()  # accumulates onto the reduced gradients
    expect(2, "accumulated backward")
    for p in params:
        p.clear_gradient()  # set_to_zero=True, Paddle's default
    bucketed_backward("after clear_gradient")

    def fail(grad):
        raise ValueError("hook failed on purpose")

    handle = params[0].register_hook(fail)
    for p in params:
        p.clear_gradient()
    try:
        loss_of(*params).backward()
        check(False, "the failing hook did not raise")
    except ValueError as e:
        check("on purpose" in str(e), f"unexpected error {e}")
    handle.remove()
    for p in params:
        p.clear_gradient()
    bucketed_backward("after a failed backward")


def grad_buckets_small():
    """grad_buckets with 64-byte buckets: each of the three gradients (120, 24 and 144 bytes)
    fills a bucket of its own, the first launched during backward, and the results are the
    same."""
    grad_buckets(64)


if __name__ == "__main__":
    globals()[sys.argv[1]]()
