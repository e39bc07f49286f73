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


def _build(mesh, mp):
    from auto_parallel_cases import make_model, mp_shard_fn
    model = dist.shard_layer(make_model(), mesh, mp_shard_fn(mp) if mp is not None else None)
    opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=model.parameters())
    return model, dist.shard_optimizer(opt)


def _train(model, opt, mesh, batch, steps):
    from auto_parallel_cases import data, loss_of
    losses = []
    for step in steps:
        x, y = data(step)
        loss = loss_of(model, dist.shard_tensor(x, mesh, batch), dist.shard_tensor(y, mesh, batch))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss.numpy()))
    return losses


def train_and_save_mp2():
    """The MLP trained 3 AdamW steps on mp2; model and optimizer states saved."""
    dist.init_parallel_env()
    mesh = dist.ProcessMesh([0, 1], dim_names=["mp"])
    model, opt = _build(mesh, 0)
    _train(model, opt, mesh, [R()], range(3))
    dist.save_state_dict({"model": model.state_dict(), "opt": opt.state_dict()}, sys.argv[2])


def resume_dp2():
    """A new job on dp2 (the same parameter names) loads train_and_save_mp2's checkpoint into
    its model and optimizer (Paddle's pattern: load into state_dict()s, then set_state_dict) and
    trains steps 3-4: losses and parameters equal 5 uninterrupted steps in one process."""
    from auto_parallel_cases import data, loss_of, make_model
    dist.init_parallel_env()
    mesh = dist.ProcessMesh([0, 1], dim_names=["dp"])
    model, opt = _build(mesh, None)
    _train(model, opt, mesh, [S(0)], [0])  # makes the optimizer states to load into
    osd = opt.state_dict()
    dist.load_state_dict({"model": model.state_dict(), "opt": osd}, sys.argv[2])
    opt.set_state_dict(osd)
    got = _train(model, opt, mesh, [S(0)], range(3, 5))
    ref_model = make_model()
    ref_opt = paddle.optimizer.AdamW(learning_rate=0.05, parameters=ref_model.parameters())
    ref = []
    for step in range(5):
        x, y = data(step)
        loss = loss_of(ref_model, paddle.to_tensor(x), paddle.to_tensor(y))
        loss.backward()
        ref_opt.step()
        ref_opt.clear_grad()
        ref.append(float(loss.numpy()))
    np.testing.assert_allclose(got, ref[3:], rtol=1e-5, atol=1e-5, err_msg="resumed losses")
    for (k, v), r in zip(model.state_dict().items(), ref_model.state_dict().values()):
        np.testing.assert_allclose(dist.unshard_dtensor(v).numpy(), r.numpy(), rtol=1e-5,
                                   atol=1e-5, err_msg=f"resumed parameter {k}")


if __name__ == "__main__":
    globals()[sys.argv[1]]()
