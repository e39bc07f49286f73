"""Rank programs for test_dist_checkpoint.py: save_state_dict on one mesh and load_state_dict
into other meshes and placements (argv[2]: the checkpoint directory); every loaded value must
equal the saved one bit for bit. Each exits non-zero with a message on a mismatch."""
import sys

import numpy as np

import skiff as paddle
import skiff.distributed as dist
from dtensor_cases import check

R, S, P = dist.Replicate, dist.Shard, dist.Partial


def values():
    """The saved values: numpy arrays, the same on every rank."""
    rng = np.random.RandomState(5)
    return {"w1": rng.randn(8, 16).astype("float32"), "w2": rng.randn(16, 4).astype("float32"),
            "b": rng.randn(16).astype("float32"), "uneven": rng.randn(7, 5).astype("float32"),
            "ids": rng.randint(0, 100, [6]).astype("int64"),
            "dense": rng.randn(2, 3).astype("float64")}


def state(mesh, placements):
    """{key: tensor} with the values laid out as `placements` says (None: a dense tensor)."""
    out = {}
    for k, v in values().items():
        t = paddle.to_tensor(v)
        out[k] = t if placements.get(k) is None else dist.shard_tensor(t, mesh, placements[k])
    return out


def zeros_like_layout(mesh, placements):
    out = {}
    for k, v in values().items():
        t = paddle.to_tensor(np.zeros_like(v))
        out[k] = t if placements.get(k) is None else dist.shard_tensor(t, mesh, placements[k])
    return out


def check_equal(sd, what):
    for k, v in values().items():
        t = sd[k]
        got = dist.unshard_dtensor(t).numpy() if t.is_dist() else t.numpy()
        check(got.dtype == v.dtype and np.array_equal(got, v), f"{what}: '{k}' differs")


def load_into(mesh, placements, path, what):
    sd = zeros_like_layout(mesh, placements)
    dist.load_state_dict(sd, path)
    for k, p in placements.items():
        if p is not None:
            check(sd[k].placements == p, f"{what}: '{k}' placements {sd[k].placements}")
    check_equal(sd, what)


def mp2():
    """Saved on mp2 (column/row shards, an uneven 7x5, a Partial value, a dense tensor) and
    loaded on mp2 with other placements and on dp2 (a [dp] mesh)."""
    dist.init_parallel_env()
    path = sys.argv[2]
    mp = dist.ProcessMesh([0, 1], dim_names=["mp"])
    saved = {"w1": [S(1)], "w2": [S(0)], "b": [S(0)], "uneven": [S(0)], "ids": [P()],
             "dense": None}
    dist.save_state_dict(state(mp, saved), path)
    load_into(mp, {"w1": [S(0)], "w2": [R()], "b": [S(0)], "uneven": [S(1)], "ids": [S(0)],
                   "dense": [R()]}, path, "mp2 -> mp2")
    dp = dist.ProcessMesh([0, 1], dim_names=["dp"])
    load_into(dp, {"w1": [R()], "w2": [R()], "b": [R()], "uneven": [R()], "ids": [R()],
                   "dense": None}, path, "mp2 -> dp2")


def dp2_mp2():
    """Saved on dp2 x mp2, loaded on mp4 (7 rows over 4: 2, 2, 2, 1) and saved again from there
    (argv[3]) for the one-process load of the test."""
    dist.init_parallel_env()
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    saved = {"w1": [S(0), S(1)], "w2": [R(), S(0)], "b": [S(0), R()], "uneven": [R(), S(1)],
             "ids": [S(0), P()], "dense": None}
    dist.save_state_dict(state(mesh, saved), sys.argv[2])
    mp4 = dist.ProcessMesh([0, 1, 2, 3], dim_names=["mp"])
    layout = {"w1": [S(1)], "w2": [S(0)], "b": [R()], "uneven": [S(0)], "ids": [S(0)],
              "dense": [R()]}
    load_into(mp4, layout, sys.argv[2], "dp2 x mp2 -> mp4")
    sd = zeros_like_layout(mp4, layout)
    dist.load_state_dict(sd, sys.argv[2])
    dist.save_state_dict(sd, sys.argv[3])


def mismatched_keys():
    """Ranks saving different keys fail alike, naming the difference."""
    dist.init_parallel_env()
    sd = {"a": paddle.to_tensor(np.ones(2, "float32"))}
    if dist.get_rank() == 1:
        sd["extra"] = paddle.to_tensor(np.ones(2, "float32"))
    try:
        dist.save_state_dict(sd, sys.argv[2])
    except ValueError as e:
        want = ("(InvalidArgument) save_state_dict: every rank must save the same keys in the "
                "same order; rank 1 differs from rank 0 (missing [], extra ['extra'])")
        check(str(e) == want, f"message {e}")
        return
    raise SystemExit("no error for mismatched keys")


if __name__ == "__main__":
    globals()[sys.argv[1]]()
