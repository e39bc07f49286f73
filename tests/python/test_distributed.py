"""paddle.distributed on local processes: every collective on 2 and 4 ranks (sub-groups {0,2},
{1,3}), the store's timeouts, a killed or stuck rank named in the others' errors within the
timeout, DataParallel equal to one process, the launcher (one node, a failing rank, and two
launcher invocations joined as two nodes on loopback), and the environment conventions.

Each multi-process test hosts the job's TCP store itself on a free port (port 0) and tells the
ranks so (SKIFF_STORE_HOSTED=1), so parallel tests cannot collide on ports."""
import os
import socket
import subprocess
import sys
import time

import pytest

import skiff as paddle
import skiff.distributed as dist
from skiff.distributed import env as dist_env

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "dist_cases.py")
PYTHONPATH = os.path.join(os.path.dirname(os.path.dirname(HERE)), "python")


def _base_env():
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("PADDLE_", "OMPI_", "PMI_", "SLURM_", "MASTER_")) and
         k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "SKIFF_STORE_HOSTED")}
    e["PYTHONPATH"] = PYTHONPATH
    e["OMP_NUM_THREADS"] = "1"
    return e


def run_ranks(case, n, timeout=60, comm_timeout=20, args=()):
    """Starts n ranks of dist_cases.py CASE; returns [(returncode, stderr)] per rank."""
    store = paddle.distributed.TCPStore("127.0.0.1", 0, is_master=True, timeout=30)
    procs = []
    for r in range(n):
        e = _base_env()
        e.update(PADDLE_TRAINER_ID=str(r), PADDLE_TRAINERS_NUM=str(n), MASTER_ADDR="127.0.0.1",
                 MASTER_PORT=str(store.port), SKIFF_STORE_HOSTED="1",
                 SKIFF_COMM_TIMEOUT=str(comm_timeout))
        procs.append(subprocess.Popen([sys.executable, CASES, case, *args], env=e,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    results = []
    deadline = time.time() + timeout
    try:
        for p in procs:
            out, err = p.communicate(timeout=max(1.0, deadline - time.time()))
            results.append((p.returncode, err.decode() + out.decode()))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    return results


def assert_ok(results):
    for r, (rc, log) in enumerate(results):
        assert rc == 0, f"rank {r} exited with {rc}:\n{log}"


@pytest.mark.parametrize("n", [2, 4])
def test_collectives(n):
    assert_ok(run_ranks("collectives", n))


def test_killed_rank_makes_the_others_fail_with_its_name():
    start = time.time()
    results = run_ranks("killed", 3, timeout=30, comm_timeout=4)
    took = time.time() - start
    assert results[1][0] == -9
    for r in (0, 2):
        rc, log = results[r]
        assert rc == 17, log
        assert "group '_default_pg'" in log and "all_reduce #" in log, log
        assert "missing ranks [1] (exited: [1])" in log, log
    assert took < 15, f"the survivors took {took:.1f}s"


def test_stuck_rank_is_named_within_the_timeout():
    results = run_ranks("stuck", 3, timeout=30, comm_timeout=2)
    for r in (0, 1):
        rc, log = results[r]
        assert rc == 17, log
        assert "all_reduce #" in log and "missing ranks [2]" in log, log
        assert "every rank of the group to join within 2 s" in log, log
    assert results[2][0] == 0


def test_data_parallel_equals_one_process():
    assert_ok(run_ranks("data_parallel", 2))


def test_store_set_get_add_wait_and_timeouts():
    master = dist.TCPStore("127.0.0.1", 0, is_master=True, timeout=5)
    client = dist.TCPStore("127.0.0.1", master.port, timeout=5)
    client.set("k", b"v")
    assert master.get("k") == b"v"
    client.set("s", "text")
    assert master.get("s") == b"text"
    assert client.add("n", 5) == 5 and master.add("n", -2) == 3
    assert master.check(["k", "n"]) and not master.check(["k", "nope"])
    start = time.time()
    with pytest.raises(RuntimeError, match=r"timed out; missing \['absent'\]"):
        client.wait(["k", "absent"], timeout=0.3)
    assert time.time() - start < 2
    client.timeout = 0.3
    with pytest.raises(RuntimeError, match="absent"):
        client.get("absent")
    assert client.add("n", 1) == 4  # the connection stays usable after a timeout
    with pytest.raises(RuntimeError, match="store server at 127.0.0.1"):
        # Nobody listens on a port just released.
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        dist.TCPStore("127.0.0.1", port, timeout=0.3)


def test_single_process_group_and_errors():
    code = (
        "import skiff as paddle, skiff.distributed as dist\n"
        "g = dist.init_parallel_env()\n"
        "assert dist.get_rank() == 0 and dist.get_world_size() == 1 and g.nranks == 1\n"
        "t = paddle.ones([3]); dist.all_reduce(t); assert t.numpy().tolist() == [1, 1, 1]\n"
        "out = []; dist.all_gather(out, t); assert len(out) == 1\n"
        "try:\n    dist.all_reduce(t, op=9)\nexcept ValueError as e:\n"
        "    assert \"argument 'op' expected ReduceOp\" in str(e), e\nelse:\n    raise SystemExit(1)\n"
        "try:\n    dist.new_group([0, 5])\nexcept ValueError as e:\n"
        "    assert \"argument 'ranks' expected distinct ranks in [0, 1)\" in str(e), e\n"
        "else:\n    raise SystemExit(1)\n"
        "try:\n    dist.broadcast([1], 0)\nexcept TypeError as e:\n    assert 'Tensor' in str(e)\n"
        "else:\n    raise SystemExit(1)\n"
        "dist.destroy_process_group(); assert not dist.is_initialized()\n"
        "try:\n    dist.all_reduce(t)\nexcept RuntimeError as e:\n"
        "    assert 'init_parallel_env' in str(e)\nelse:\n    raise SystemExit(1)\n")
    r = subprocess.run([sys.executable, "-c", code], env=_base_env(), capture_output=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr.decode()


def _launch(args, timeout=90):
    return subprocess.run([sys.executable, "-m", "skiff.distributed.launch", *args],
                          env=_base_env(), capture_output=True, timeout=timeout)


def test_launch_one_node(tmp_path):
    r = _launch(["--nproc_per_node", "2", "--log_dir", str(tmp_path / "log"), CASES, "launched"])
    assert r.returncode == 0, r.stderr.decode() + r.stdout.decode()
    assert "rank 0 of 2 ok local_rank=0" in r.stdout.decode()  # rank 0 streamed
    assert "rank 1 of 2" not in r.stdout.decode()
    assert "rank 1 of 2 ok local_rank=1" in (tmp_path / "log" / "workerlog.1").read_text()


def test_launch_stops_the_job_and_returns_the_failing_code(tmp_path):
    start = time.time()
    r = _launch(["--nproc_per_node", "2", "--log_dir", str(tmp_path / "log"), CASES,
                 "launched", "fail"])
    assert r.returncode == 3, r.stderr.decode()
    assert "rank 1 exited with code 3" in r.stderr.decode()
    assert time.time() - start < 60


def test_launch_two_nodes_on_loopback(tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    procs = []
    for node in (0, 1):
        args = ["--nnodes", "2", "--node_rank", str(node), "--master", f"127.0.0.1:{port}",
                "--nproc_per_node", "2", "--log_dir", str(tmp_path / f"log{node}"), CASES,
                "launched"]
        procs.append(subprocess.Popen([sys.executable, "-m", "skiff.distributed.launch", *args],
                                      env=_base_env(), stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE))
    for node, p in enumerate(procs):
        out, err = p.communicate(timeout=90)
        assert p.returncode == 0, f"node {node}: {err.decode()} {out.decode()}"
    assert "rank 0 of 4 ok" in (tmp_path / "log0" / "workerlog.0").read_text()
    assert "rank 3 of 4 ok local_rank=1" in (tmp_path / "log1" / "workerlog.3").read_text()


@pytest.mark.parametrize("env,expect", [
    ({"RANK": "2", "WORLD_SIZE": "4", "LOCAL_RANK": "0", "MASTER_ADDR": "10.0.0.1",
      "MASTER_PORT": "29500"}, (2, 4, 0, "10.0.0.1", 29500, "torchrun")),
    ({"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "2",
      "OMPI_COMM_WORLD_LOCAL_RANK": "1", "MASTER_ADDR": "h", "MASTER_PORT": "1234"},
     (1, 2, 1, "h", 1234, "mpirun")),
    ({"PMI_RANK": "3", "PMI_SIZE": "8", "MASTER_ADDR": "h", "MASTER_PORT": "5"},
     (3, 8, 3, "h", 5, "pmi")),
    ({"SLURM_PROCID": "5", "SLURM_NTASKS": "8", "SLURM_LOCALID": "1", "SLURM_JOB_ID": "1234",
      "SLURM_JOB_NODELIST": "node[03-06]"}, (5, 8, 1, "node03", 21234, "slurm")),
    ({"PADDLE_TRAINER_ID": "1", "PADDLE_TRAINERS_NUM": "2",
      "PADDLE_TRAINER_ENDPOINTS": "127.0.0.1:6000,127.0.0.1:6001"},
     (1, 2, 1, "127.0.0.1", 6000, "paddle")),
])
def test_environment_conventions(monkeypatch, env, expect):
    for k in list(os.environ):
        if k.startswith(("PADDLE_", "OMPI_", "PMI_", "SLURM_", "MASTER_")) or k in (
                "RANK", "WORLD_SIZE", "LOCAL_RANK"):
            monkeypatch.delenv(k)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    d = dist_env.detect()
    assert (d["rank"], d["world_size"], d["local_rank"], d["master_addr"], d["master_port"],
            d["source"]) == expect
    pe = dist.ParallelEnv()
    assert pe.rank == expect[0] and pe.world_size == expect[1] and pe.nranks == expect[1]


def test_environment_errors(monkeypatch):
    for k in list(os.environ):
        if k.startswith(("PADDLE_", "MASTER_")) or k in ("RANK", "WORLD_SIZE"):
            monkeypatch.delenv(k)
    monkeypatch.setenv("RANK", "4")
    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(ValueError, match="expected 0 <= rank < world size"):
        dist_env.detect()
    monkeypatch.setenv("RANK", "1")
    with pytest.raises(ValueError, match="expected MASTER_ADDR/MASTER_PORT"):
        dist_env.detect()
