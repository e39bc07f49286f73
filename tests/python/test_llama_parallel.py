"""examples/llama/train.py with automatic parallelism through the launcher: --nproc 2 (dp2),
--nproc 2 --mp 2 (mp2) and --nproc 4 --mp 2 (dp2 x mp2) train the small Llama with the losses of
the one-process run within 1e-4 per step, no op left without an SPMD rule, output from rank 0
only, and a dist.save_state_dict checkpoint; a distributed run resumes from its checkpoint on
another mesh. Each job runs under a timeout; the bad mesh arguments exit with their reason."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TRAIN = os.path.join(ROOT, "examples", "llama", "train.py")
COMMON = ["--corpus-bytes", "30000", "--vocab", "300", "--dim", "32", "--layers", "2",
          "--heads", "4", "--hidden", "64", "--seq-len", "16", "--batch-size", "4",
          "--warmup", "100", "--max-minutes", "1000", "--eval-every", "1000",
          "--ckpt-every", "1000", "--sample-tokens", "4", "--threads", "1"]


def _env():
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("PADDLE_", "OMPI_", "PMI_", "SLURM_", "MASTER_")) and
         k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "OMP_NUM_THREADS")}
    e["PYTHONPATH"] = os.path.join(ROOT, "python")
    e["SKIFF_COMM_TIMEOUT"] = "120"
    return e


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """A corpus cache and tokenizer every run copies (built once, by a 0-step run)."""
    d = tmp_path_factory.mktemp("data")
    r = subprocess.run([sys.executable, TRAIN, "--out", str(d), "--steps", "0", *COMMON],
                       env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr + r.stdout
    return d


def train(data_dir, out, extra, timeout=420):
    os.makedirs(out, exist_ok=True)
    for f in ("corpus.txt", "tokenizer.json"):
        shutil.copy(os.path.join(data_dir, f), out)
    r = subprocess.run([sys.executable, TRAIN, "--out", str(out), *COMMON, *extra], env=_env(),
                       capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{extra} exited with {r.returncode}:\n{r.stderr}\n{r.stdout}"
    return r


def losses(out):
    with open(os.path.join(out, "train_log.json")) as f:
        return json.load(f)["losses"]


@pytest.fixture(scope="module")
def reference(data_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("one")
    train(data_dir, out, ["--steps", "4"])
    got = losses(out)
    assert len(got) == 4 and all(np.isfinite(got)), got
    return got


def check_job(r, out, dp, mp):
    ranks = dp * mp
    logs = [open(os.path.join(out, "log", f"workerlog.{i}")).read() for i in range(ranks)]
    for i, log in enumerate(logs):
        assert "has no SPMD rule" not in log, f"rank {i}:\n{log}"
    # rank 0 logs (and the launcher streams it); the others stay quiet
    assert f"mesh dp {dp} x mp {mp}" in r.stdout and "--- sample" in r.stdout, r.stdout
    for i, log in enumerate(logs[1:], 1):
        assert "step " not in log and "training:" not in log, f"rank {i}:\n{log}"
    ckpt = os.path.join(out, "ckpt", "dist")
    assert any(f.endswith(".metadata") for f in os.listdir(ckpt)), os.listdir(ckpt)


@pytest.mark.parametrize("dp,mp", [(2, 1), (1, 2), (2, 2)], ids=["dp2", "mp2", "dp2_mp2"])
def test_parallel_losses_equal_one_process(data_dir, reference, tmp_path, dp, mp):
    out = tmp_path / "run"
    r = train(data_dir, out, ["--steps", "4", "--nproc", str(dp * mp), "--mp", str(mp)])
    assert "step     4/4" in r.stdout, r.stdout
    check_job(r, str(out), dp, mp)
    np.testing.assert_allclose(losses(out), reference, rtol=1e-4, atol=1e-4)


def test_distributed_checkpoint_resumes_on_another_mesh(data_dir, tmp_path):
    """3 steps on mp2 saved by dist.save_state_dict, resumed on dp2 for steps 4-5: the losses
    of the same 3 + 2 steps with a one-process checkpoint."""
    one, out = tmp_path / "one", tmp_path / "run"
    train(data_dir, one, ["--steps", "3"])
    train(data_dir, one, ["--steps", "5", "--resume"])
    train(data_dir, out, ["--steps", "3", "--nproc", "2", "--mp", "2"])
    r = train(data_dir, out, ["--steps", "5", "--nproc", "2", "--resume"])
    assert "resumed from step 3" in r.stdout and "step     5/5" in r.stdout, r.stdout
    check_job(r, str(out), 2, 1)
    assert len(losses(out)) == 2
    np.testing.assert_allclose(losses(out), losses(one), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("extra,message", [
    (["--mp", "2"], "--dp 1 x --mp 2 needs that many ranks: pass --nproc"),
    (["--nproc", "2", "--mp", "3"], "--mp 3 must divide the job's 2 ranks"),
    (["--nproc", "2", "--dp", "4"], "--dp 4 x --mp 1 must equal the job's 2 ranks (pass "
                                    "--nproc 4)"),
    (["--nproc", "2", "--batch-size", "3"], "--batch-size 3 must divide by --dp 2"),
])
def test_bad_mesh_arguments(data_dir, tmp_path, extra, message):
    os.makedirs(tmp_path / "run")
    for f in ("corpus.txt", "tokenizer.json"):
        shutil.copy(os.path.join(data_dir, f), tmp_path / "run")
    r = subprocess.run([sys.executable, TRAIN, "--out", str(tmp_path / "run"), *COMMON,
                        "--steps", "1", *extra], env=_env(), capture_output=True, text=True,
                       timeout=300)
    assert r.returncode != 0
    assert message in r.stderr, r.stderr
