"""A Llama decoder block through dist.parallelize on 4 local ranks (rank programs in
llama_block_cases.py): dp2 x mp2 with Paddle 3.0's ColWise/RowWise plan equals one process
within 1e-4 over AdamW steps, with the collectives of each step counted exactly and no op left
without an SPMD rule; sequence parallelism (SequenceParallelBegin/End/Disable) on a small Llama
equals plain tensor parallelism within 1e-5 with its all-gathers/reduce-scatters counted and
half the tokens per rank in the norms; the entries' shapes and bad inputs in one process; and
in one process on a 1 x 1 dp x mp mesh, the layouts the SPMD rules give the ops of the example
Llama (examples/llama/model.py: embedding, roll, flash attention, cross entropy, unsqueeze and
squeeze) and of their backward (index_add, put_along_axis), with no op left to the
replicate-all fallback. The example itself trains on 2 and 4 ranks in test_llama_parallel.py."""
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


def test_llama_ops_keep_their_layouts_in_one_process(capfd):
    """Each op of the example Llama gets its SPMD rule's layout (sizes-1 mesh dims, so only the
    placements change), values and gradients equal to the dense ops'."""
    import numpy as np
    import skiff as paddle
    import skiff.distributed as dist
    import skiff.nn.functional as F
    mesh = dist.ProcessMesh([[0]], dim_names=["dp", "mp"])
    S, R = dist.Shard, dist.Replicate
    rng = np.random.RandomState(3)

    def dist_leaf(a, placements):
        t = dist.shard_tensor(paddle.to_tensor(a), mesh, placements)
        t.stop_gradient = False
        return t

    def dense_leaf(a):
        t = paddle.to_tensor(a)
        t.stop_gradient = False
        return t

    # RoPE's roll on head_dim keeps batch (dp) and heads (mp); its gradient comes back alike
    a = rng.randn(2, 3, 4, 8).astype("float32")
    x = dist_leaf(a, [S(0), S(2)])
    y = paddle.roll(x, 4, axis=-1)
    assert y.placements == [S(0), S(2)], y.placements
    np.testing.assert_array_equal(y.numpy(), np.roll(a, 4, axis=-1))
    (y * paddle.to_tensor(a)).sum().backward()
    assert x.grad.placements == [S(0), S(2)], x.grad.placements
    np.testing.assert_allclose(x.grad.numpy(), np.roll(a, -4, axis=-1), rtol=1e-6)

    # flash attention: local on batch and heads; a sequence-sharded q is gathered
    qkv = [rng.randn(2, 6, 4, 8).astype("float32") for _ in range(3)]
    dense = [dense_leaf(t) for t in qkv]
    ref = F.scaled_dot_product_attention(*dense, is_causal=True)
    (ref * ref).sum().backward()
    d = [dist_leaf(t, [S(0), S(2)]) for t in qkv]
    out = F.scaled_dot_product_attention(*d, is_causal=True)
    assert out.placements == [S(0), S(2)], out.placements
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)
    (out * out).sum().backward()
    for t, r in zip(d, dense):
        assert t.grad.placements == [S(0), S(2)], t.grad.placements
        np.testing.assert_allclose(t.grad.numpy(), r.grad.numpy(), rtol=1e-4, atol=1e-5)
    seq = [dist.shard_tensor(paddle.to_tensor(t), mesh, [R(), S(1)]) for t in qkv]
    assert F.scaled_dot_product_attention(*seq, is_causal=True).placements == [R(), R()]

    # embedding with ids on dp and the table split by columns (ColWiseParallel), then the loss
    # of a head split by vocabulary: cross entropy gathers the class axis
    ids = rng.randint(0, 10, (4, 3)).astype("int64")
    labels = rng.randint(0, 10, (4, 3)).astype("int64")
    table, head = rng.randn(10, 8).astype("float32"), rng.randn(8, 10).astype("float32")

    def loss_of(ids_t, table_t, head_t, labels_t, check=False):
        h = F.embedding(ids_t, table_t)
        if check:
            assert h.placements == [S(0), S(2)], h.placements
            h = dist.reshard(h, mesh, [S(0), R()])  # ColWiseParallel(gather_output=True)
        logits = paddle.matmul(h, head_t)
        flat = logits.reshape([-1, 10])
        lab = labels_t.reshape([-1])
        if check:
            assert flat.placements == [S(0), S(1)], flat.placements
            assert lab.unsqueeze(-1).placements == [S(0), R()]
            assert lab.unsqueeze(-1).squeeze(-1).placements == [S(0), R()]
        return F.cross_entropy(flat, lab)

    rt, rh = dense_leaf(table), dense_leaf(head)
    ref = loss_of(paddle.to_tensor(ids), rt, rh, paddle.to_tensor(labels))
    ref.backward()
    dt, dh = dist_leaf(table, [R(), S(1)]), dist_leaf(head, [R(), S(1)])
    loss = loss_of(dist.shard_tensor(paddle.to_tensor(ids), mesh, [S(0), R()]), dt, dh,
                   dist.shard_tensor(paddle.to_tensor(labels), mesh, [S(0), R()]), check=True)
    np.testing.assert_allclose(loss.numpy(), ref.numpy(), rtol=1e-6)
    loss.backward()
    assert dt.grad.placements == [R(), S(1)] and dh.grad.placements == [R(), S(1)]
    np.testing.assert_allclose(dt.grad.numpy(), rt.grad.numpy(), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(dh.grad.numpy(), rh.grad.numpy(), rtol=1e-5, atol=1e-7)
    err = capfd.readouterr().err
    assert "has no SPMD rule" not in err, err
