"""Rank programs for the multi-process tests (test_distributed.py): `python dist_cases.py CASE`
runs CASE on a rank set up by the test's environment and exits 0 when every check held."""
import os
import signal
import sys
import time

import numpy as np

import skiff as paddle
import skiff.distributed as dist


def check(cond, what):
    if not cond:
        raise AssertionError(f"rank {dist.get_rank()}: {what}")


def close(a, b, what, tol=0):
    a = a.numpy() if hasattr(a, "numpy") else np.asarray(a)
    b = np.asarray(b)
    check(a.shape == b.shape and np.allclose(a.astype(np.float64), b.astype(np.float64),
                                             atol=tol, rtol=0), f"{what}: {a} != {b}")


def collectives():
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    check(dist.is_initialized() and n == int(os.environ["PADDLE_TRAINERS_NUM"]), "world size")
    R = paddle.distributed.ReduceOp
    vals = np.arange(n, dtype=np.float64) + 1  # rank r holds r + 1
    for dtype in ["float32", "float64", "int32", "int64", "bfloat16", "float16"]:
        for op, ref in [(R.SUM, vals.sum()), (R.MAX, vals.max()), (R.MIN, vals.min()),
                        (R.PROD, vals.prod()), (R.AVG, vals.mean())]:
            if op == R.AVG and dtype.startswith("int"):
                ref = vals.sum() // n
            t = paddle.full([3], float(rank + 1), dtype=dtype)
            task = dist.all_reduce(t, op=op)
            check(task is not None, "all_reduce returns a task")
            close(t.astype("float64"), [ref] * 3, f"all_reduce {dtype} op {op}")
    # Asynchronous: both in flight, then wait.
    a, b = paddle.full([2], 1.0), paddle.full([2], 2.0)
    ta = dist.all_reduce(a, sync_op=False)
    tb = dist.all_reduce(b, sync_op=False)
    ta.wait(), tb.wait()
    close(a, [n] * 2, "async all_reduce")
    close(b, [2 * n] * 2, "async all_reduce 2")
    # A non-contiguous tensor is reduced through a copy written back.
    base = paddle.full([3, 2], float(rank + 1))
    view = base.t()
    dist.all_reduce(view)
    close(base, np.full([3, 2], vals.sum()), "all_reduce of a transposed view")

    x = paddle.to_tensor([[rank, 10 * rank]], dtype="float32")
    out = []
    dist.all_gather(out, x)
    check(len(out) == n, "all_gather list length")
    for r in range(n):
        close(out[r], [[r, 10 * r]], f"all_gather[{r}]")
    objs = []
    dist.all_gather_object(objs, {"rank": rank, "s": "x" * rank})
    check(objs == [{"rank": r, "s": "x" * r} for r in range(n)], f"all_gather_object {objs}")

    t = paddle.full([4], float(rank))
    dist.broadcast(t, src=n - 1)
    close(t, [n - 1] * 4, "broadcast")
    lst = [rank, "a"] if rank == 1 else [None, None]
    dist.broadcast_object_list(lst, src=1)
    check(lst == [1, "a"], f"broadcast_object_list {lst}")

    t = paddle.full([2], float(rank + 1))
    dist.reduce(t, dst=0)
    close(t, [vals.sum() if rank == 0 else rank + 1] * 2, "reduce")

    t = paddle.zeros([2])
    parts = [paddle.full([2], 100.0 + r) for r in range(n)] if rank == 0 else None
    dist.scatter(t, parts, src=0)
    close(t, [100 + rank] * 2, "scatter")

    g = [] if rank == 1 else None
    dist.gather(paddle.full([1], float(rank)), g, dst=1)
    if rank == 1:
        check([float(x.numpy()[0]) for x in g] == list(range(n)), f"gather {g}")

    t = paddle.zeros([2])
    chunks = [paddle.full([2], float(rank * 10 + r)) for r in range(n)]
    dist.reduce_scatter(t, chunks)
    close(t, [sum(q * 10 + rank for q in range(n))] * 2, "reduce_scatter")

    ins = [paddle.full([2], float(rank * 10 + r)) for r in range(n)]
    outs = []
    dist.alltoall(ins, outs)
    for r in range(n):
        close(outs[r], [r * 10 + rank] * 2, f"alltoall[{r}]")
    # Unequal splits: rank r sends r + 1 rows to every peer.
    src = paddle.full([n * (rank + 1), 2], float(rank))
    dst = paddle.zeros([sum(q + 1 for q in range(n)), 2])
    dist.alltoall_single(src, dst, [rank + 1] * n, [q + 1 for q in range(n)])
    close(dst[:, 0], np.concatenate([[q] * (q + 1) for q in range(n)]), "alltoall_single")

    # Point to point around a ring: everyone posts irecv first, then isend.
    recv_buf = paddle.zeros([3])
    rt = dist.irecv(recv_buf, src=(rank - 1) % n)
    st = dist.isend(paddle.full([3], float(rank)), dst=(rank + 1) % n)
    st.wait(), rt.wait()
    close(recv_buf, [(rank - 1) % n] * 3, "isend/irecv ring")
    if rank == 0:
        dist.send(paddle.full([2], 7.0), dst=1)
    elif rank == 1:
        t = paddle.zeros([2])
        dist.recv(t, src=0)
        close(t, [7, 7], "send/recv")
    dist.barrier()
    dist.wait(t)

    # Sub-groups; on 4 ranks the non-contiguous {0, 2} and {1, 3}.
    if n == 4:
        g02 = dist.new_group([0, 2])
        g13 = dist.new_group([1, 3])
        mine, other = (g02, g13) if rank % 2 == 0 else (g13, g02)
        check(mine.rank == [0, 2, 1, 3].index(rank) % 2 and other.rank == -1, "group ranks")
        t = paddle.full([2], float(rank))
        dist.all_reduce(t, group=mine)
        close(t, [sum(mine.ranks)] * 2, "sub-group all_reduce")
        check(dist.all_reduce(paddle.ones([1]), group=other) is None, "non-member gets None")
        t = paddle.full([1], float(rank))
        dist.broadcast(t, src=mine.ranks[1], group=mine)
        close(t, [mine.ranks[1]], "sub-group broadcast from a global rank")
        out = []
        dist.all_gather(out, paddle.full([1], float(rank)), group=mine)
        close(paddle.concat(out), mine.ranks, "sub-group all_gather")
        t = paddle.zeros([1])
        if rank == mine.ranks[0]:
            dist.send(paddle.full([1], 5.0 + rank), dst=mine.ranks[1], group=mine)
        else:
            dist.recv(t, src=mine.ranks[0], group=mine)
            close(t, [5.0 + mine.ranks[0]], "sub-group send/recv")
        try:
            dist.broadcast(paddle.ones([1]), src=other.ranks[0], group=mine)
            check(False, "broadcast from a non-member must fail")
        except ValueError as e:
            check("argument 'src' expected a rank of the group" in str(e), str(e))
        check(dist.get_world_size(mine) == 2 and dist.get_rank(mine) == mine.rank, "group info")
    dist.barrier()
    dist.destroy_process_group()
    check(not dist.is_initialized(), "destroyed")


def killed():
    dist.init_parallel_env()
    rank = dist.get_rank()
    dist.all_reduce(paddle.ones([1]))  # everyone joined
    if rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.2)
    start = time.time()
    try:
        dist.all_reduce(paddle.ones([1000]))
        dist.all_reduce(paddle.ones([1000]))
    except RuntimeError as e:
        print(f"ERROR after {time.time() - start:.2f}s: {e}", file=sys.stderr, flush=True)
        sys.exit(17)
    sys.exit(0)


def stuck():
    dist.init_parallel_env()
    if dist.get_rank() == 2:
        time.sleep(6)
        sys.exit(0)
    try:
        dist.all_reduce(paddle.ones([4]))
    except RuntimeError as e:
        print(f"ERROR: {e}", file=sys.stderr, flush=True)
        sys.exit(17)


def _mlp():
    paddle.seed(7)
    return paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.Tanh(), paddle.nn.Linear(16, 4))


def data_parallel():
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    rng = np.random.RandomState(0)
    xs = rng.randn(10, 8 * n, 8).astype("float32")
    ys = rng.randn(10, 8 * n, 4).astype("float32")
    # One process on the whole batch: the reference (every rank computes it alone).
    ref = _mlp()
    ref_opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=ref.parameters())
    ref_losses = []
    for s in range(10):
        loss = paddle.nn.functional.mse_loss(ref(paddle.to_tensor(xs[s])), paddle.to_tensor(ys[s]))
        loss.backward()
        ref_opt.step()
        ref_opt.clear_grad()
        ref_losses.append(float(loss))
    # Data parallel: rank r trains on rows [8r, 8r+8). Rank 1 starts from other weights, which
    # the constructor's broadcast replaces.
    if rank == 1:
        paddle.seed(99)
    model = _mlp() if rank == 0 else paddle.nn.Sequential(
        paddle.nn.Linear(8, 16), paddle.nn.Tanh(), paddle.nn.Linear(16, 4))
    dp = paddle.DataParallel(model, comm_buffer_size=1, last_comm_buffer_size=0.0003)
    check(len(dp._buckets) >= 2, f"several buckets ({len(dp._buckets)})")
    opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=dp.parameters())
    for s in range(10):
        x = paddle.to_tensor(xs[s, 8 * rank:8 * rank + 8])
        y = paddle.to_tensor(ys[s, 8 * rank:8 * rank + 8])
        loss = paddle.nn.functional.mse_loss(dp(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        dist.all_reduce(loss, op=dist.ReduceOp.AVG)
        check(abs(float(loss) - ref_losses[s]) < 1e-5,
              f"step {s}: data parallel loss {float(loss)} vs one process {ref_losses[s]}")
    for p, q in zip(model.parameters(), ref.parameters()):
        close(p, q.numpy(), "parameters after training", tol=1e-5)

    # no_sync: two local micro-batches accumulate, the third synchronizes the sum.
    m2 = _mlp()
    dp2 = paddle.DataParallel(m2)
    with dp2.no_sync():
        paddle.nn.functional.mse_loss(dp2(paddle.to_tensor(xs[0, 8 * rank:8 * rank + 8])),
                                      paddle.to_tensor(ys[0, 8 * rank:8 * rank + 8])).backward()
        local = m2[0].weight.grad.numpy().copy()
    paddle.nn.functional.mse_loss(dp2(paddle.to_tensor(xs[1, 8 * rank:8 * rank + 8])),
                                  paddle.to_tensor(ys[1, 8 * rank:8 * rank + 8])).backward()
    m3 = _mlp()
    for s in (0, 1):
        for r in range(n):
            l = paddle.nn.functional.mse_loss(m3(paddle.to_tensor(xs[s, 8 * r:8 * r + 8])),
                                              paddle.to_tensor(ys[s, 8 * r:8 * r + 8]))
            (l / n).backward()
    close(m2[0].weight.grad, m3[0].weight.grad.numpy(), "no_sync accumulation", tol=1e-6)
    check(not np.allclose(local, m2[0].weight.grad.numpy()), "no_sync grads were local")

    # Unused parameters: an error naming them, or zeros with find_unused_parameters=True.
    class Two(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = paddle.nn.Linear(4, 4)
            self.b = paddle.nn.Linear(4, 4)

        def forward(self, x, use_b):
            return self.b(self.a(x)) if use_b else self.a(x)

    paddle.seed(3)
    net = paddle.DataParallel(Two(), find_unused_parameters=True)
    net(paddle.ones([2, 4]), rank == 0).sum().backward()
    check(net._layers.b.weight.grad is not None, "unused parameter got the others' gradient")
    paddle.seed(3)
    net2 = paddle.DataParallel(Two())
    try:
        net2(paddle.ones([2, 4]), False).sum().backward()
        check(False, "an unused parameter without find_unused_parameters must fail")
    except RuntimeError as e:
        check("find_unused_parameters=True" in str(e), str(e))
    dist.barrier()


def launched():
    # Run by the launcher: the variables it promised, then a collective.
    e = os.environ
    n = int(e["PADDLE_TRAINERS_NUM"])
    check(len(e["PADDLE_TRAINER_ENDPOINTS"].split(",")) == n, "endpoints")
    check(e["PADDLE_CURRENT_ENDPOINT"] == e["PADDLE_TRAINER_ENDPOINTS"].split(",")[
        int(e["PADDLE_TRAINER_ID"])], "current endpoint")
    check(int(e["OMP_NUM_THREADS"]) >= 1 and "MASTER_PORT" in e, "threads and master")
    dist.init_parallel_env()
    t = paddle.ones([2])
    dist.all_reduce(t)
    close(t, [n, n], "all_reduce under the launcher")
    print(f"rank {dist.get_rank()} of {n} ok local_rank={dist.ParallelEnv().local_rank}",
          flush=True)
    if len(sys.argv) > 2 and sys.argv[2] == "fail" and dist.get_rank() == n - 1:
        sys.exit(3)


def sync_batch_norm():
    # Each rank holds a quarter-batch slice; SyncBatchNorm must equal BatchNorm1D on the full
    # batch: outputs, input gradients, summed weight gradients, running statistics.
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    rs = np.random.RandomState(0)
    x_full = rs.randn(4 * n, 3, 5)
    g_full = rs.randn(4 * n, 3, 5)
    rows = slice(4 * rank, 4 * rank + 4)
    ref = paddle.nn.BatchNorm1D(3, momentum=0.8)
    sbn = paddle.nn.SyncBatchNorm(3, momentum=0.8)
    for layer in (ref, sbn):
        layer.weight.set_value(np.array([0.5, 1.5, -2.0], dtype="float32"))
        layer.bias.set_value(np.array([0.1, 0.0, 0.3], dtype="float32"))
    xr = paddle.to_tensor(x_full.astype("float32"), stop_gradient=False)
    yr = ref(xr)
    (yr * paddle.to_tensor(g_full.astype("float32"))).sum().backward()
    xs = paddle.to_tensor(x_full[rows].astype("float32"), stop_gradient=False)
    ys = sbn(xs)
    (ys * paddle.to_tensor(g_full[rows].astype("float32"))).sum().backward()
    close(ys, yr.numpy()[rows], "sync bn output", tol=1e-5)
    close(xs.grad, xr.grad.numpy()[rows], "sync bn input gradient", tol=1e-5)
    wg = sbn.weight.grad
    dist.all_reduce(wg)
    close(wg, ref.weight.grad.numpy(), "sync bn weight gradient (summed)", tol=1e-4)
    close(sbn._mean, ref._mean.numpy(), "sync bn running mean", tol=1e-6)
    close(sbn._variance, ref._variance.numpy(), "sync bn running variance", tol=1e-5)
    sbn.eval()
    ref.eval()
    close(sbn(xs), ref(paddle.to_tensor(x_full[rows].astype("float32"))).numpy(),
          "sync bn eval", tol=1e-6)
    dist.barrier()


if __name__ == "__main__":
    globals()[sys.argv[1]]()
