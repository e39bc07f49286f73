"""paddle.distributed.save_state_dict / load_state_dict: a checkpoint saved on 2 ranks (mp2)
and 4 ranks (dp2 x mp2) loads bit for bit into other placements and meshes (mp2, dp2, mp4) and
into one process (rank programs in dist_checkpoint_cases.py); training saved on mp2 resumes on
dp2 as if uninterrupted; the file layout; loading runs no code; every bad input with Paddle's
class and message."""
import os
import pickle

import numpy as np
import pytest

import skiff as paddle
import skiff.distributed as dist
from dist_checkpoint_cases import check_equal, values, zeros_like_layout
from test_distributed import assert_ok


def run_case(case, n, *args):
    import test_distributed
    old = test_distributed.CASES
    test_distributed.CASES = old.replace("dist_cases.py", "dist_checkpoint_cases.py")
    try:
        return test_distributed.run_ranks(case, n, timeout=120, comm_timeout=60, args=args)
    finally:
        test_distributed.CASES = old


def load_in_one_process(path):
    dense = {k: None for k in values()}
    sd = zeros_like_layout(None, dense)
    dist.load_state_dict(sd, path)
    check_equal(sd, "one process")
    mesh = dist.ProcessMesh([0], dim_names=["x"])
    sd = zeros_like_layout(mesh, {k: [dist.Shard(0)] for k in values()})
    dist.load_state_dict(sd, path)
    check_equal(sd, "one process, [Shard(0)] on a 1-process mesh")


def test_mp2_to_mp2_dp2_and_one_process(tmp_path):
    assert_ok(run_case("mp2", 2, str(tmp_path)))
    assert sorted(os.listdir(tmp_path)) == ["0.metadata", "0_0.distcp", "1_0.distcp"]
    load_in_one_process(str(tmp_path))


def test_dp2_mp2_to_mp4_to_one_process(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert_ok(run_case("dp2_mp2", 4, str(a), str(b)))
    assert sorted(os.listdir(b)) == ["0.metadata"] + [f"{r}_0.distcp" for r in range(4)]
    load_in_one_process(str(a))
    load_in_one_process(str(b))


def test_training_saved_on_mp2_resumes_on_dp2(tmp_path):
    assert_ok(run_case("train_and_save_mp2", 2, str(tmp_path)))
    assert_ok(run_case("resume_dp2", 2, str(tmp_path)))


def test_set_value_of_a_dist_tensor_writes_its_piece():
    mesh = dist.ProcessMesh([0], dim_names=["x"])
    t = dist.shard_tensor(paddle.zeros([2, 3]), mesh, [dist.Shard(1)])
    v = np.arange(6, dtype="float32").reshape(2, 3)
    t.set_value(v)
    assert t.placements == [dist.Shard(1)] and np.array_equal(t.numpy(), v)
    t.set_value(dist.shard_tensor(paddle.to_tensor(v * 2), mesh, [dist.Replicate()]))
    assert np.array_equal(t.numpy(), v * 2)


def test_ranks_with_mismatched_keys_fail_alike(tmp_path):
    assert_ok(run_case("mismatched_keys", 2, str(tmp_path)))


def test_ids_replicated_pieces_and_newest_checkpoint(tmp_path):
    """A second save takes the next unique id; load reads the newest unless told; a replicated
    tensor is stored once."""
    path = str(tmp_path)
    dist.save_state_dict({"w": paddle.to_tensor(np.zeros(3, "float32"))}, path)
    dist.save_state_dict({"w": paddle.to_tensor(np.ones(3, "float32"))}, path)
    assert sorted(os.listdir(path)) == ["0.metadata", "0_0.distcp", "0_1.distcp", "1.metadata"]
    t = paddle.to_tensor(np.full(3, 7, "float32"))
    dist.load_state_dict({"w": t}, path)
    assert t.numpy().tolist() == [1, 1, 1]
    dist.load_state_dict({"w": t}, path, unique_id=0)
    assert t.numpy().tolist() == [0, 0, 0]
    meta = paddle.load(os.path.join(path, "0.metadata"), return_numpy=True)
    assert meta["tensors"]["w"]["pieces"] == [{"offset": [0], "shape": [3],
                                               "file": "0_0.distcp"}]


class _RunsCode:
    def __reduce__(self):
        return (os.system, ("touch ran_code",))


def test_loading_runs_no_code(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    dist.save_state_dict({"w": paddle.to_tensor(np.zeros(2, "float32"))}, "ck")
    with open("ck/1.metadata", "wb") as f:
        pickle.dump(_RunsCode(), f)
    with pytest.raises(ValueError, match="system"):
        dist.load_state_dict({"w": paddle.to_tensor(np.zeros(2, "float32"))}, "ck")
    assert not os.path.exists("ran_code")


def test_bad_inputs(tmp_path):
    path = str(tmp_path / "ck")
    w = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    with pytest.raises(TypeError, match="save_state_dict: argument 'state_dict' expected a "
                                        "dict, got list"):
        dist.save_state_dict([w], path)
    with pytest.raises(TypeError, match=r"save_state_dict: state_dict\['opt.lr'\] expected a "
                                        r"paddle.Tensor, got float"):
        dist.save_state_dict({"w": w, "opt": {"lr": 0.1}}, path)
    with pytest.raises(TypeError, match="argument 'path' expected a str or os.PathLike"):
        dist.save_state_dict({"w": w}, 3)
    with pytest.raises(NotImplementedError, match=r"async_save=True"):
        dist.save_state_dict({"w": w}, path, async_save=True)
    with pytest.raises(ValueError, match=r"coordinator_rank expected a rank in \[0, 1\), got 2"):
        dist.save_state_dict({"w": w}, path, coordinator_rank=2)
    with pytest.raises(RuntimeError, match=r"\(NotFound\) load_state_dict: the checkpoint "
                                           r"directory '.*nowhere' does not exist"):
        dist.load_state_dict({"w": w}, str(tmp_path / "nowhere"))
    os.makedirs(path)
    with pytest.raises(RuntimeError, match=r"\(NotFound\) load_state_dict: no checkpoint in"):
        dist.load_state_dict({"w": w}, path)
    dist.save_state_dict({"w": w, "b": paddle.to_tensor(np.ones(2, "float32"))}, path)
    with pytest.raises(RuntimeError, match=r"no checkpoint with unique_id 4 in .* \(found \[0\]\)"):
        dist.load_state_dict({"w": w}, path, unique_id=4)
    with pytest.raises(ValueError, match=r"load_state_dict: keys \['x'\] are not in the "
                                         r"checkpoint at .* \(it holds \['b', 'w'\]\)"):
        dist.load_state_dict({"w": w, "x": w}, path)
    with pytest.raises(ValueError, match=r"'w' has shape \[3, 2\], the checkpoint holds "
                                         r"\[2, 3\]"):
        dist.load_state_dict({"w": paddle.zeros([3, 2])}, path)
    with pytest.raises(ValueError, match="'w' has dtype float64, the checkpoint holds float32"):
        dist.load_state_dict({"w": paddle.zeros([2, 3], dtype="float64")}, path)
    one = dist.ProcessMesh([0], dim_names=["x"])
    with pytest.raises(NotImplementedError, match="'w' is Partial"):
        dist.load_state_dict({"w": dist.shard_tensor(w, one, [dist.Partial()])}, path)
    os.remove(os.path.join(path, "0_0.distcp"))
    target = paddle.zeros([2, 3])
    with pytest.raises(RuntimeError, match=r"\(NotFound\) load_state_dict: the checkpoint's "
                                           r"data file '.*0_0.distcp' is missing"):
        dist.load_state_dict({"w": target}, path)
    paddle.save({"b": np.ones(2, "float32")}, os.path.join(path, "0_0.distcp"))
    with pytest.raises(ValueError, match="the data file '0_0.distcp' lacks the piece of 'w'"):
        dist.load_state_dict({"w": target}, path)
    paddle.save({"tensors": 3}, os.path.join(path, "0.metadata"))
    with pytest.raises(ValueError, match="is not a version 1 checkpoint metadata file"):
        dist.load_state_dict({"w": target}, path)
