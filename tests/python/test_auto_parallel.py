"""Semi-automatic parallel training on 2 and 4 local ranks (rank programs in
auto_parallel_cases.py, launched as test_distributed.py does, with timeouts): an MLP with
column- and row-parallel Linears (shard_tensor marks on the weights and the input batch only)
trained 10 AdamW steps under mp2, dp x mp meshes [1, 2], [2, 1] and [2, 2], whose losses and
parameters equal the one-process run within 1e-5, with the collectives of each step counted;
ShardingStage1/2/3 on dp2 (equal losses, half the state or parameter bytes per rank); and
shard_dataloader's split; dist.parallelize (ColWiseParallel/RowWiseParallel plans, sharding
levels 0-3) and the differentiable dist.reshard. One process: the bad inputs of these APIs, with Paddle's classes."""
import pytest

from test_distributed import assert_ok, run_ranks as _run


def run(case, n, cases="auto_parallel_cases.py"):
    import test_distributed
    old = test_distributed.CASES
    test_distributed.CASES = old.replace("dist_cases.py", cases)
    try:
        return _run(case, n, timeout=120, comm_timeout=60)
    finally:
        test_distributed.CASES = old


def test_mlp_mp2_and_2_process_meshes():
    assert_ok(run("mlp_mp2", 2))


def test_mlp_dp2_mp2():
    assert_ok(run("mlp_dp2_mp2", 4))


def test_sharding_stages_1_2_3_on_dp2():
    assert_ok(run("sharding_stages", 2))


def test_shard_dataloader_dp2():
    assert_ok(run("dataloader_dp2", 2))


def test_parallelize_mp2_and_differentiable_reshard():
    assert_ok(run("parallelize_mp2", 2))


def test_parallelize_dp2_mp2_sharding_levels():
    assert_ok(run("parallelize_dp2_mp2", 4))


def test_parallelize_bad_inputs_in_one_process():
    import skiff.distributed as dist
    from auto_parallel_cases import MLP
    mesh = dist.ProcessMesh([0], dim_names=["dp"])
    model = MLP()
    assert dist.parallelize(model, None, mesh, {}) == (model, None)
    with pytest.raises(TypeError, match="parallelize: argument 'model' expected a "
                                        "paddle.nn.Layer, got str"):
        dist.parallelize("m", None, mesh, {"mp_config": {}})
    with pytest.raises(ValueError, match=r"ColWiseParallel: the mesh .* has no 'mp' dim"):
        dist.parallelize(MLP(), None, mesh,
                         {"mp_config": {"parallelize_plan": {"fc1": dist.ColWiseParallel()}}})
    with pytest.raises(ValueError, match="sharding_level expected 0, 1, 2 or 3, got 5"):
        import skiff as paddle
        m = MLP()
        dist.parallelize(m, paddle.optimizer.AdamW(parameters=m.parameters()), mesh,
                         {"dp_config": {"sharding_level": 5}})
    with pytest.raises(TypeError, match=r"parallelize_plan expected str keys and plan values "
                                        r"\(ColWiseParallel, RowWiseParallel, SequenceParallel\*, "
                                        r"or a list of them\), got 'fc1': 3"):
        dist.parallelize(MLP(), None, mesh, {"mp_config": {"parallelize_plan": {"fc1": 3}}})
    with pytest.raises(TypeError, match=r"got 'fc1': \[\]"):
        dist.parallelize(MLP(), None, mesh, {"mp_config": {"parallelize_plan": {"fc1": []}}})
    with pytest.raises(NotImplementedError, match="pp_config"):
        dist.parallelize(MLP(), None, mesh, {"pp_config": {}})


def test_bad_inputs_in_one_process():
    import numpy as np
    import skiff as paddle
    import skiff.distributed as dist
    from auto_parallel_cases import MLP
    mesh = dist.ProcessMesh([0], dim_names=["dp"])
    with pytest.raises(TypeError, match="shard_layer: argument 'layer' expected a "
                                        "paddle.nn.Layer, got int"):
        dist.shard_layer(3, mesh)
    with pytest.raises(ValueError, match="The argument `process_mesh` cannot be empty."):
        dist.shard_layer(MLP(), None)
    with pytest.raises(ValueError, match="is not `dist.ProcessMesh` type, got list"):
        dist.shard_layer(MLP(), [0, 1])
    with pytest.raises(TypeError, match="argument 'shard_fn' expected a callable or None"):
        dist.shard_layer(MLP(), mesh, shard_fn=5)

    def bad_dim(name, layer, mesh):  # a placement dim out of range for the 2-d weight
        if name == "fc1":
            layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Shard(2)])
    with pytest.raises(ValueError, match=r"Shard dims in \[0, 2\) for a 2-d tensor, got "
                                         r"Shard\(dim=2\)"):
        dist.shard_layer(MLP(), mesh, bad_dim)

    def too_many(name, layer, mesh):  # two placements on a 1-d mesh
        if name == "fc1":
            layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Shard(0), dist.Shard(1)])
    with pytest.raises(ValueError, match=r"one placement per mesh dim \(1\)"):
        dist.shard_layer(MLP(), mesh, too_many)

    model = dist.shard_layer(MLP(), mesh)
    assert all(p.is_dist() and p.placements == [dist.Replicate()]
               for p in model.parameters())
    assert model.fc1.weight.name.startswith("linear") or model.fc1.weight.name
    opt = paddle.optimizer.AdamW(parameters=model.parameters())
    with pytest.raises(TypeError, match="shard_optimizer: argument 'optimizer' expected a "
                                        "paddle.optimizer.Optimizer, got MLP"):
        dist.shard_optimizer(model)
    with pytest.raises(ValueError, match=r"ShardingStage1: sharding_mesh_dim 'mp' is not a dim "
                                         r"of the mesh .* \(dim_names \['dp'\]\)"):
        dist.shard_optimizer(opt, dist.ShardingStage1("mp"))
    with pytest.raises(ValueError, match="ShardingStage3: sharding_mesh_dim 1 is out of range "
                                         "for the 1-d mesh"):
        dist.shard_optimizer(opt, dist.ShardingStage3(1))
    with pytest.raises(TypeError, match="ShardingStage2: argument 'sharding_mesh_dim' expected "
                                        "an int or a str, got float"):
        dist.ShardingStage2(0.5)
    with pytest.raises(NotImplementedError, match="gradient_accumulation_steps"):
        dist.shard_optimizer(opt, gradient_accumulation_steps=2)
    loader = paddle.io.DataLoader(paddle.io.TensorDataset(
        [paddle.to_tensor(np.ones([4, 2], "float32"))]), batch_size=2)
    with pytest.raises(ValueError, match=r"shard_dataloader: shard_dims 'x' is not a dim of the "
                                         r"mesh"):
        dist.shard_dataloader(loader, mesh, shard_dims="x")
    with pytest.raises(ValueError, match="shard_dims 3 is out of range for the 1-d mesh"):
        dist.shard_dataloader(loader, mesh, shard_dims=3)
    with pytest.raises(TypeError, match="argument 'dataloader' expected a paddle.io.DataLoader"):
        dist.shard_dataloader([1, 2], mesh)
    # One process: the sharded optimizer trains like the plain one.
    x = paddle.to_tensor(np.ones([2, 8], "float32"))
    loss = paddle.mean(model(dist.shard_tensor(x, mesh, [dist.Replicate()])))
    loss.backward()
    dist.shard_optimizer(opt, dist.ShardingStage1("dp")).step()
    assert opt._accumulators["moment1"][model.fc1.weight.name].is_dist()
