"""Distributed tensors on 2 and 4 local ranks (rank programs in dtensor_cases.py, launched as
test_distributed.py does, with timeouts): reshard round trips of every primitive on a 1-d mesh
(Paddle's uneven 7x5 and zero-size shards) and on a 2x2 mesh, checked against numpy's pieces and
the global value; dtensor_from_local/to_local; bad inputs with Paddle's error classes. One process:
the mesh and placement types."""
import numpy as np
import pytest

import skiff as paddle
import skiff.distributed as dist
from test_distributed import assert_ok, run_ranks as _run


def run(case, n):
    import test_distributed
    old = test_distributed.CASES
    test_distributed.CASES = old.replace("dist_cases.py", "dtensor_cases.py")
    try:
        return _run(case, n, timeout=240, comm_timeout=60)
    finally:
        test_distributed.CASES = old


@pytest.mark.parametrize("n", [2, 4])
def test_reshard_round_trips_1d(n):
    assert_ok(run("reshard_1d", n))


def test_reshard_round_trips_2x2_mesh():
    assert_ok(run("reshard_2d", 4))


@pytest.mark.parametrize("n", [2, 4])
def test_api_and_bad_inputs(n):
    assert_ok(run("api", n))


@pytest.mark.parametrize("n", [2])
def test_eager_distributed_mode(n):
    assert_ok(run("eager", n))


def test_backward_keeps_sharding():
    assert_ok(run("eager_grad", 2))


@pytest.mark.parametrize("n", [2, 4])
def test_leaf_gradients_reduced_in_buckets(n):
    assert_ok(run("grad_buckets", n))


def test_leaf_gradients_in_several_buckets():
    assert_ok(run("grad_buckets_small", 2))


def test_types_in_one_process():
    mesh = dist.ProcessMesh([[2, 4, 5], [0, 1, 3]], dim_names=["x", "y"])
    assert mesh.shape == [2, 3] and mesh.process_ids == [2, 4, 5, 0, 1, 3] and mesh.ndim == 2
    assert mesh.get_dim_size("y") == 3 and mesh.dim_names == ["x", "y"]
    assert mesh[0].process_ids == [2, 4, 5] and mesh[0].dim_names == ["y"]
    assert mesh.get_mesh_with_dim("y").shape == [3, 2]
    assert dist.ProcessMesh([0, 1]).dim_names == ["d0"]
    assert dist.Shard(1) == dist.Shard(1) and dist.Shard(1) != dist.Shard(0)
    assert dist.Shard(0).is_shard() and dist.Shard(0).is_shard(0) and not dist.Shard(0).is_shard(1)
    assert repr(dist.Partial(dist.ReduceType.kRedMax)) == "Partial(reduce_type=max)"
    assert dist.Replicate().is_replicated() and dist.Partial().is_partial()
    with pytest.raises(ValueError, match="distinct non-negative process ids"):
        dist.ProcessMesh([0, 0])
    with pytest.raises(ValueError, match="reduce_type"):
        dist.Partial(9)
    # A single process: a mesh of one rank needs no parallel environment.
    one = dist.ProcessMesh([0])
    x = np.arange(6, dtype="float32").reshape(2, 3)
    t = dist.shard_tensor(x, one, [dist.Shard(1)])
    assert t.is_dist() and t.shape == [2, 3] and t.placements == [dist.Shard(1)]
    np.testing.assert_array_equal(t.numpy(), x)
    np.testing.assert_array_equal(dist.reshard(t, one, [dist.Partial()]).numpy(), x)
    with pytest.raises(ValueError, match="process ids below the world size 1"):
        dist.shard_tensor(x, dist.ProcessMesh([0, 1]), [dist.Shard(0)])
