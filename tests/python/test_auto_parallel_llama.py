"""A Llama decoder block through dist.parallelize on 4 local ranks (rank programs in
llama_block_cases.py): dp2 x mp2 with Paddle 3.0's ColWise/RowWise plan equals one process
within 1e-4 over AdamW steps, with the collectives of each step counted exactly and no op left
without an SPMD rule; sequence parallelism (SequenceParallelBegin/End/Disable) on a small Llama
equals plain tensor parallelism within 1e-5 with its all-gathers/reduce-scatters counted and
half the tokens per rank in the norms; the entries' shapes and bad inputs in one process."""
from test_auto_parallel import run
from test_distributed import assert_ok


def ok_without_fallback(results):
    assert_ok(results)
    for r, (_, log) in enumerate(results):
        assert "has no SPMD rule" not in log, f"rank {r}:\n{log}"


def test_llama_block_dp2_mp2():
    ok_without_fallback(run("llama_dp2_mp2", 4, cases="llama_block_cases.py"))


def test_sequence_parallel_equals_tensor_parallel_dp2_mp2():
    ok_without_fallback(run("sequence_parallel_dp2_mp2", 4, cases="llama_block_cases.py"))


def test_sequence_parallel_entries_in_one_process():
    """On a one-process mp mesh the entries only transpose: Begin gives [s, b, h], End takes it
    back to [b, s, h]; Enable/Disable round-trip; with their bad inputs."""
    import numpy as np
    import pytest
    import skiff as paddle
    import skiff.distributed as dist
    mesh = dist.ProcessMesh([0], dim_names=["mp"])

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = paddle.nn.Linear(4, 4)
            self.b = paddle.nn.Linear(4, 4)
            self.c = paddle.nn.Linear(4, 4)

        def forward(self, x):
            return self.c(self.b(self.a(x)))

    x = np.random.RandomState(0).randn(2, 3, 4).astype("float32")
    paddle.seed(1)
    ref = Net()(paddle.to_tensor(x)).numpy()
    shapes = {}
    for plan in ({"a": dist.SequenceParallelBegin(), "c": dist.SequenceParallelEnd()},
                 {"b": dist.SequenceParallelEnable()},
                 {"a": [dist.ColWiseParallel(), dist.SequenceParallelBegin()],
                  "b": dist.SequenceParallelDisable(), "c": dist.SequenceParallelEnd()}):
        paddle.seed(1)
        net, _ = dist.parallelize(Net(), None, mesh, {"mp_config": {"parallelize_plan": plan}})
        net.b.register_forward_pre_hook(
            lambda _, inputs: shapes.__setitem__("b", list(inputs[0].shape)))
        out = net(dist.shard_tensor(x, mesh, [dist.Replicate()]))
        assert out.shape == [2, 3, 4] and out.placements == [dist.Replicate()], plan
        np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6, atol=1e-6)
        # b runs on [s, b, h] inside the range and under Enable, on [b, s, h] under Disable
        want = [2, 3, 4] if isinstance(plan.get("b"), dist.SequenceParallelDisable) else [3, 2, 4]
        assert shapes["b"] == want, (plan, shapes)

    with pytest.raises(ValueError, match=r"SequenceParallelBegin: the mesh .* has no 'mp' dim"):
        dist.parallelize(Net(), None, dist.ProcessMesh([0], dim_names=["dp"]),
                         {"mp_config": {"parallelize_plan": {"a": dist.SequenceParallelBegin()}}})
    net, _ = dist.parallelize(Net(), None, mesh,
                              {"mp_config": {"parallelize_plan": {"a": dist.SequenceParallelEnd()}}})
    with pytest.raises(ValueError, match=r"SequenceParallelEnd: expected a 3-d activation "
                                         r"\(\[b, s, h\] or \[s, b, h\]\), got shape \[2, 4\]"):
        net(dist.shard_tensor(x[0, :2], mesh, [dist.Replicate()]))
    with pytest.raises(TypeError, match="SequenceParallelEnable: expected a paddle.Tensor "
                                        "activation, got str"):
        net2, _ = dist.parallelize(
            Net(), None, mesh, {"mp_config": {"parallelize_plan": {"b": dist.SequenceParallelEnable()}}})
        net2.b("not a tensor")
