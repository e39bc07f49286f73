"""Rank programs for test_auto_parallel.py (launched as test_distributed.py launches its cases):
training with shard_layer / shard_optimizer / shard_dataloader on 2 and 4 ranks against the
same model trained in one process, and the bad inputs of those APIs. Each exits non-zero with a
message on a mismatch."""
import sys

import numpy as np

import skiff as paddle
import skiff.distributed as dist
from dtensor_cases import check
from skiff.nn.parameter import EagerParamBase

IN, HIDDEN, OUT, BATCH, STEPS = 8, 16, 4, 8, 10


class MLP(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(IN, HIDDEN)
        self.fc2 = paddle.nn.Linear(HIDDEN, OUT)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def data(step):
    rng = np.random.RandomState(100 + step)
    return rng.randn(BATCH, IN).astype("float32"), rng.randn(BATCH, OUT).astype("float32")


def make_model():
    paddle.seed(7)
    return MLP()


def loss_of(model, x, y):
    return paddle.mean(paddle.square(paddle.subtract(model(x), y)))


def train_one_process():
    """Losses per step and final parameters of the MLP trained in this process alone."""
    model = make_model()
    opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=model.parameters())
    losses = []
    for step in range(STEPS):
        x, y = data(step)
        loss = loss_of(model, paddle.to_tensor(x), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss.numpy()))
    return losses, {k: v.numpy() for k, v in model.state_dict().items()}


def mp_shard_fn(mp):
    """Megatron's MLP: fc1 column-parallel (weight Shard(1), bias Shard(0)), fc2 row-parallel
    (weight Shard(0)); everything else replicated by shard_layer."""
    def shard_fn(name, layer, mesh):
        rep = [dist.Replicate() for _ in range(mesh.ndim)]
        if name == "fc1":
            col, bias = list(rep), list(rep)
            col[mp], bias[mp] = dist.Shard(1), dist.Shard(0)
            layer.weight = dist.shard_tensor(layer.weight, mesh, col)
            layer.bias = dist.shard_tensor(layer.bias, mesh, bias)
        elif name == "fc2":
            row = list(rep)
            row[mp] = dist.Shard(0)
            layer.weight = dist.shard_tensor(layer.weight, mesh, row)
    return shard_fn


def train_dist(mesh, dp, mp, shard_fn=None, counts_per_step=None):
    """The same training on `mesh` (dp: the batch's mesh dim or None; mp: the model-parallel
    mesh dim or None); returns losses and unsharded parameters."""
    model = make_model()
    model = dist.shard_layer(model, mesh, mp_shard_fn(mp) if mp is not None else None)
    for name, p in model.named_parameters():
        check(p.is_dist() and isinstance(p, EagerParamBase), f"{name} not a dist parameter")
    opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=model.parameters())
    opt = dist.shard_optimizer(opt, shard_fn)
    batch = [dist.Replicate() for _ in range(mesh.ndim)]
    if dp is not None:
        batch[dp] = dist.Shard(0)
    losses = []
    for step in range(STEPS):
        x, y = data(step)
        before = paddle._C.dist.reshard_counts()
        loss = loss_of(model, dist.shard_tensor(x, mesh, batch), dist.shard_tensor(y, mesh, batch))
        loss.backward()
        for name, p in model.named_parameters():
            check(p.grad is not None and p.grad.is_dist(), f"step {step}: no dist grad for {name}")
        opt.step()
        opt.clear_grad()
        after = paddle._C.dist.reshard_counts()
        made = {k: after[k] - before[k] for k in after}
        if counts_per_step is not None:
            check(made == counts_per_step, f"step {step}: collectives {made}, expected "
                                           f"{counts_per_step}")
        losses.append(float(loss.numpy()))
    return losses, {k: dist.unshard_dtensor(v).numpy() for k, v in model.state_dict().items()}


def compare(got, want, what):
    (losses, params), (ref_losses, ref_params) = got, want
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5, atol=1e-5,
                               err_msg=f"{what}: losses")
    check(set(params) == set(ref_params), f"{what}: parameters {sorted(params)}")
    for k in ref_params:
        np.testing.assert_allclose(params[k], ref_params[k], rtol=1e-5, atol=1e-5,
                                   err_msg=f"{what}: parameter {k}")


def collectives(all_reduce=0, reduce_scatter=0, all_to_all=0, all_gather=0,
                grad_bucket_all_reduce=0):
    """The per-step count of each kind of collective (reshard_counts' keys)."""
    return {"all_reduce": all_reduce, "reduce_scatter": reduce_scatter,
            "all_to_all": all_to_all, "all_gather": all_gather,
            "grad_bucket_all_reduce": grad_bucket_all_reduce}


def mlp_mp2():
    """mp2 on 2 ranks, and the 2-process dp x mp meshes [1, 2] and [2, 1]."""
    dist.init_parallel_env()
    ref = train_one_process()
    # mp: forward all-reduces fc2's Partial output once; backward needs nothing (the input
    # needs no gradient); the update is local.
    compare(train_dist(dist.ProcessMesh([0, 1], dim_names=["mp"]), None, 0,
                       counts_per_step=collectives(all_reduce=1)), ref, "mp2")
    compare(train_dist(dist.ProcessMesh([[0, 1]], dim_names=["dp", "mp"]), 0, 1), ref,
            "mesh [1, 2]")
    # dp2: the four Partial(dp) gradients are all-reduced together in one bucket after
    # backward; the loss's mean is reduced by numpy() only (after counting).
    compare(train_dist(dist.ProcessMesh([[0], [1]], dim_names=["dp", "mp"]), 0, 1,
                       counts_per_step=collectives(grad_bucket_all_reduce=1)), ref,
            "mesh [2, 1]")


def mlp_dp2_mp2():
    """dp2 x mp2 on 4 ranks (mesh [[0, 1], [2, 3]])."""
    dist.init_parallel_env()
    ref = train_one_process()
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    # one mp all-reduce in forward; the four Partial(dp) gradients (mp-sharded or not) in one
    # bucket after backward
    compare(train_dist(mesh, 0, 1, counts_per_step=collectives(all_reduce=1,
                                                               grad_bucket_all_reduce=1)),
            ref, "dp2 x mp2")


def local_bytes(tensors):
    return sum(int(np.prod(t._local_value().shape)) * 4 for t in tensors)


def sharding_stages():
    """ShardingStage1/2/3 on a dp=2 mesh: losses and parameters equal the one-process run;
    stages 1 and 2 hold half the optimizer states per rank, stage 3 half the parameters too;
    per step, stage 1 all-reduces the gradients and gathers the updated parameters, stage 2
    reduce-scatters the gradients instead, stage 3 gathers each weight in forward and
    reduce-scatters its gradient."""
    dist.init_parallel_env()
    ref = train_one_process()
    mesh = dist.ProcessMesh([0, 1], dim_names=["dp"])
    n_params = 4
    full_params = IN * HIDDEN + HIDDEN + HIDDEN * OUT + OUT
    for stage, counts in (
            # the gradients all-reduced in one bucket
            (dist.ShardingStage1, collectives(grad_bucket_all_reduce=1, all_gather=n_params)),
            (dist.ShardingStage2, collectives(reduce_scatter=n_params, all_gather=n_params)),
            # each weight and bias gathered for forward, fc2's weight again for fc2's dx
            (dist.ShardingStage3, collectives(reduce_scatter=n_params,
                                              all_gather=n_params + 1))):
        got = train_dist(mesh, 0, None, stage("dp"), counts_per_step=counts)
        compare(got, ref, stage.__name__)
    # memory: train one step and count the local elements of states and parameters
    for stage, params_half in ((dist.ShardingStage1, False), (dist.ShardingStage2, False),
                               (dist.ShardingStage3, True)):
        model = dist.shard_layer(make_model(), mesh)
        opt = dist.shard_optimizer(paddle.optimizer.AdamW(parameters=model.parameters()),
                                   stage("dp"))
        x, y = data(0)
        batch = [dist.Shard(0)]
        loss_of(model, dist.shard_tensor(x, mesh, batch), dist.shard_tensor(y, mesh, batch)
                ).backward()
        opt.step()
        states = [t for name in ("moment1", "moment2")
                  for t in opt._accumulators[name].values()]
        check(local_bytes(states) == 2 * full_params * 4 // 2,
              f"{stage.__name__}: state bytes {local_bytes(states)} of {2 * full_params * 4}")
        want = full_params * 4 // 2 if params_half else full_params * 4
        check(local_bytes(model.parameters()) == want,
              f"{stage.__name__}: parameter bytes {local_bytes(model.parameters())}, want {want}")


def dataloader_dp2():
    """shard_dataloader over dp: each rank loads its half of the data (Paddle's
    DistributedBatchSampler order) and the dist batch is their concatenation: the batch of
    batch_size * 2 one process loads."""
    dist.init_parallel_env()
    rank = dist.get_rank()
    mesh = dist.ProcessMesh([0, 1], dim_names=["dp"])
    values = np.arange(10 * 3, dtype="float32").reshape(10, 3)
    dataset = paddle.io.TensorDataset([paddle.to_tensor(values)])
    loader = dist.shard_dataloader(paddle.io.DataLoader(dataset, batch_size=2), mesh,
                                   shard_dims="dp")
    batches = list(loader)
    check(len(batches) == len(loader) == 3, f"{len(batches)} batches, len {len(loader)}")
    # 10 samples over 2 ranks in rounds of 2 x 2: rank 0 gets 0-1, 4-5, 8 and rank 1 gets 2-3,
    # 6-7, 9 (the last round of 2 split evenly), so the dist batches are 0-3, 4-7, 8-9
    mine = {0: [[0, 1], [4, 5], [8]], 1: [[2, 3], [6, 7], [9]]}[rank]
    for k, (b,) in enumerate(batches):
        check(b.is_dist() and b.placements == [dist.Shard(0)], f"batch {k}: {b.placements}")
        local = b._local_value().numpy()
        np.testing.assert_array_equal(local, values[mine[k]], err_msg=f"rank {rank} batch {k}")
        np.testing.assert_array_equal(b.numpy(), values[4 * k:4 * k + 4])
    # without shard_dims: the same batches on every rank, replicated
    rep = list(dist.shard_dataloader(paddle.io.DataLoader(dataset, batch_size=4), mesh))
    check(rep[0][0].placements == [dist.Replicate()], f"{rep[0][0].placements}")
    np.testing.assert_array_equal(rep[0][0].numpy(), values[:4])


def train_parallelized(mesh, config, dp):
    """The MLP trained through dist.parallelize(model, optimizer, mesh, config)."""
    model = make_model()
    opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=model.parameters())
    model, opt = dist.parallelize(model, opt, mesh=mesh, config=config)
    batch = [dist.Replicate() for _ in range(mesh.ndim)]
    if dp is not None:
        batch[dp] = dist.Shard(0)
    losses = []
    for step in range(STEPS):
        x, y = data(step)
        loss = loss_of(model, dist.shard_tensor(x, mesh, batch), dist.shard_tensor(y, mesh, batch))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss.numpy()))
    return losses, {k: dist.unshard_dtensor(v).numpy() for k, v in model.state_dict().items()}


def parallelize_mp2():
    """parallelize on mp2: fc1 ColWiseParallel(gather_output=True) then fc2
    RowWiseParallel(is_input_parallel=False) (both through the differentiable reshard), and the
    plain ColWise/RowWise plan; plus the reshard gradient against torch."""
    import torch
    dist.init_parallel_env()
    ref = train_one_process()
    mesh = dist.ProcessMesh([0, 1], dim_names=["mp"])
    for plan in ({"fc1": dist.ColWiseParallel(), "fc2": dist.RowWiseParallel()},
                 {"fc1": dist.ColWiseParallel(gather_output=True),
                  "fc2": dist.RowWiseParallel(is_input_parallel=False)}):
        compare(train_parallelized(mesh, {"mp_config": {"parallelize_plan": plan}}, None), ref,
                f"parallelize {plan}")
    # dist.reshard is differentiable: S0 -> R, R -> S1 and a Partial product reduced.
    xs = np.arange(12, dtype="float32").reshape(4, 3) / 7
    for src, dst in (([dist.Shard(0)], [dist.Replicate()]), ([dist.Replicate()], [dist.Shard(1)]),
                     ([dist.Shard(1)], [dist.Shard(0)])):
        x = dist.shard_tensor(xs, mesh, src, stop_gradient=False)
        y = dist.reshard(x, mesh, dst)
        check(y.placements == dst and not y.stop_gradient, f"{src} -> {dst}: {y.placements}")
        paddle.sum(paddle.multiply(y, y)).backward()
        check(x.grad.placements == src, f"{src} -> {dst}: grad placements {x.grad.placements}")
        np.testing.assert_allclose(x.grad.numpy(), 2 * xs, rtol=1e-6, err_msg=f"{src}->{dst}")
    w = dist.shard_tensor(xs.T.copy(), mesh, [dist.Shard(0)], stop_gradient=False)
    a = dist.shard_tensor(xs, mesh, [dist.Shard(1)])
    h = paddle.matmul(a, w)  # Partial
    check(h.placements == [dist.Partial()], f"h {h.placements}")
    paddle.sum(paddle.square(dist.reshard(h, mesh, [dist.Replicate()]))).backward()
    ta, tw = torch.tensor(xs), torch.tensor(xs.T.copy(), requires_grad=True)
    (ta @ tw).square().sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-5, atol=1e-5)


def parallelize_dp2_mp2():
    """parallelize on dp2 x mp2 with sharding_level 0-3 over "dp"."""
    dist.init_parallel_env()
    ref = train_one_process()
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    plan = {"fc1": dist.ColWiseParallel(), "fc2": dist.RowWiseParallel()}
    for level in (0, 1, 2, 3):
        config = {"dp_config": {"sharding_level": level},
                  "mp_config": {"parallelize_plan": plan}}
        compare(train_parallelized(mesh, config, 0), ref, f"sharding_level {level}")


if __name__ == "__main__":
    globals()[sys.argv[1]]()
