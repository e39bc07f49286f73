"""The launcher: `python -m skiff.distributed.launch --nproc_per_node N [--nnodes M --node_rank R
--master ADDR:PORT] [--log_dir log] script.py args`.

Each node's launcher starts N local ranks. The launcher of node 0 hosts the job's TCP store at
the master address (it outlives any rank, so a dead rank 0 still lets the others report); the
launchers exchange their ranks' endpoints through it and watch it for a failure on another node.
Every rank gets Paddle's variables (PADDLE_TRAINER_ID, PADDLE_TRAINERS_NUM,
PADDLE_TRAINER_ENDPOINTS, PADDLE_CURRENT_ENDPOINT, ...), torchrun's (RANK, WORLD_SIZE,
LOCAL_RANK, MASTER_ADDR, MASTER_PORT) and OMP_NUM_THREADS = cores / local ranks, and is pinned to
its share of the cores. Output goes to <log_dir>/workerlog.<rank>; rank 0's is also streamed
here. When a rank fails the others are stopped and its exit code is returned."""
import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time

__all__ = ["launch"]


def _parse(argv):
    p = argparse.ArgumentParser(
        prog="python -m skiff.distributed.launch",
        description="Start the ranks of a data/model parallel job on this node.")
    p.add_argument("--nproc_per_node", type=int, default=None,
                   help="ranks on this node (default: 1)")
    p.add_argument("--nnodes", type=int, default=1, help="number of nodes")
    p.add_argument("--node_rank", type=int, default=0, help="this node's index, 0..nnodes-1")
    p.add_argument("--master", default=None,
                   help="ADDR:PORT of node 0's launcher (required with --nnodes > 1)")
    p.add_argument("--log_dir", default="log", help="directory of workerlog.<rank>")
    p.add_argument("--devices", "--gpus", default=None,
                   help="accepted for Paddle compatibility: the count sets nproc_per_node")
    p.add_argument("--job_id", default="default", help="a name for the job (logs only)")
    p.add_argument("--timeout", type=float, default=900.0,
                   help="seconds to wait for the other nodes to join")
    p.add_argument("--grace", type=float, default=10.0,
                   help="seconds the other ranks get to exit on their own (with their error) "
                        "after one fails, before they are stopped")
    p.add_argument("training_script")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    if a.nproc_per_node is None:
        a.nproc_per_node = len(a.devices.split(",")) if a.devices else 1
    if a.nproc_per_node < 1:
        p.error(f"--nproc_per_node expected >= 1, got {a.nproc_per_node}")
    if a.nnodes < 1 or not 0 <= a.node_rank < a.nnodes:
        p.error(f"--node_rank expected 0 <= node_rank < nnodes ({a.nnodes}), got {a.node_rank}")
    if a.nnodes > 1 and not a.master:
        p.error("--master ADDR:PORT is required with --nnodes > 1")
    if a.master:
        host, sep, port = a.master.rpartition(":")
        if not sep or not port.isdigit() or not host:
            p.error(f"--master expected ADDR:PORT, got {a.master!r}")
        a.master_addr, a.master_port = host, int(port)
    else:
        a.master_addr, a.master_port = "127.0.0.1", 0
    return a


def _free_ports(host, n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((host if host != "0.0.0.0" else "", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def _node_ip(master_addr):
    if master_addr in ("127.0.0.1", "localhost"):
        return "127.0.0.1"
    from ..env import local_address
    return local_address(master_addr)


def _cores():
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return list(range(os.cpu_count() or 1))


def _pump(src, log, echo):
    # Copies a rank's output to its log file (and to our stdout for rank 0), line by line.
    for line in iter(src.readline, b""):
        log.write(line)
        log.flush()
        if echo:
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
    src.close()


class _Rank:
    def __init__(self, rank, local_rank, cmd, env, log_path, echo, cpus):
        self.rank = rank
        self.log = open(log_path, "wb")
        preexec = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, preexec_fn=preexec,
                                     start_new_session=True)
        self.pump = threading.Thread(target=_pump, args=(self.proc.stdout, self.log, echo),
                                     daemon=True)
        self.pump.start()

    def stop(self, sig):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                pass


def launch(argv=None):
    from ... import _C
    a = _parse(sys.argv[1:] if argv is None else argv)
    n, nnodes, node = a.nproc_per_node, a.nnodes, a.node_rank
    world = n * nnodes
    # Node 0's launcher hosts the store; a single node with no --master picks a free port.
    store = _C.comm.TCPStore(a.master_addr, a.master_port, is_master=(node == 0),
                             timeout=a.timeout)
    master_port = store.port
    ip = _node_ip(a.master_addr)
    endpoints = [f"{ip}:{p}" for p in _free_ports(ip, n)]
    store.set(f"launch/{a.job_id}/node/{node}", ",".join(endpoints))
    keys = [f"launch/{a.job_id}/node/{i}" for i in range(nnodes)]
    store.wait(keys)
    all_eps = ",".join(store.get(k).decode() for k in keys)

    os.makedirs(a.log_dir, exist_ok=True)
    cores = _cores()
    per_rank = max(1, len(cores) // n)
    ranks = []
    for local in range(n):
        rank = node * n + local
        env = dict(os.environ)
        env.update({
            "PADDLE_TRAINER_ID": str(rank), "PADDLE_TRAINERS_NUM": str(world),
            "PADDLE_TRAINER_ENDPOINTS": all_eps, "PADDLE_CURRENT_ENDPOINT": endpoints[local],
            "PADDLE_RANK_IN_NODE": str(local), "PADDLE_LOCAL_RANK": str(local),
            "PADDLE_LOCAL_SIZE": str(n), "PADDLE_GLOBAL_SIZE": str(world),
            "PADDLE_GLOBAL_RANK": str(rank), "PADDLE_NNODES": str(nnodes),
            "PADDLE_MASTER": f"{a.master_addr}:{master_port}", "PADDLE_DISTRI_BACKEND": "gloo",
            "PADDLE_JOB_ID": a.job_id,
            "RANK": str(rank), "WORLD_SIZE": str(world), "LOCAL_RANK": str(local),
            "LOCAL_WORLD_SIZE": str(n), "MASTER_ADDR": a.master_addr,
            "MASTER_PORT": str(master_port), "SKIFF_STORE_HOSTED": "1",
            "OMP_NUM_THREADS": str(per_rank), "PYTHONUNBUFFERED": "1",
        })
        cpus = set(cores[local * per_rank:(local + 1) * per_rank]) if len(cores) >= n else None
        cmd = [sys.executable, "-u", a.training_script] + a.training_script_args
        ranks.append(_Rank(rank, local, cmd, env, os.path.join(a.log_dir, f"workerlog.{rank}"),
                           rank == 0, cpus))
    return _monitor(store, a, ranks, node, nnodes)


def _monitor(store, a, ranks, node, nnodes):
    failed_key = f"launch/{a.job_id}/failed"
    stopping = []

    def on_signal(signum, frame):
        stopping.append(128 + signum)

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    code = 0
    try:
        while True:
            if stopping:
                code = stopping[0]
                break
            done = True
            for r in ranks:
                rc = r.proc.poll()
                if rc is None:
                    done = False
                elif rc != 0:
                    code = rc
                    print(f"[launch] rank {r.rank} exited with code {rc}; stopping the other "
                          f"ranks (its log: {os.path.join(a.log_dir, f'workerlog.{r.rank}')})",
                          file=sys.stderr, flush=True)
                    try:
                        store.set(failed_key, f"{r.rank}:{rc}")
                    except Exception:
                        pass
                    break
            if code or done:
                break
            if nnodes > 1 and store.check([failed_key]):
                who, _, rc = store.get(failed_key).decode().partition(":")
                print(f"[launch] rank {who} on another node failed with code {rc}; stopping",
                      file=sys.stderr, flush=True)
                code = int(rc) or 1
                break
            time.sleep(0.05)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if code:
        _stop_all(ranks, a.grace if not stopping else 0.0)
    for r in ranks:
        r.proc.wait()
        r.pump.join(timeout=5)
        r.log.close()
    if nnodes > 1:
        # Node 0 keeps the store up until every node is finished.
        try:
            store.set(f"launch/{a.job_id}/done/{node}", str(code))
            if node == 0:
                keys = [f"launch/{a.job_id}/done/{i}" for i in range(nnodes)]
                deadline = time.time() + a.timeout
                while not store.check(keys) and time.time() < deadline:
                    if code == 0 and store.check([failed_key]):
                        who, _, rc = store.get(failed_key).decode().partition(":")
                        code = int(rc) or 1
                    time.sleep(0.05)
                if code == 0 and store.check([failed_key]):
                    code = int(store.get(failed_key).decode().partition(":")[2]) or 1
        except Exception:
            pass
    return code


def _stop_all(ranks, grace):
    # First the survivors may fail on their own (their logs then name the missing rank).
    deadline = time.time() + grace
    while time.time() < deadline and any(r.proc.poll() is None for r in ranks):
        time.sleep(0.05)
    for r in ranks:
        r.stop(signal.SIGTERM)
    deadline = time.time() + 5.0
    while time.time() < deadline and any(r.proc.poll() is None for r in ranks):
        time.sleep(0.05)
    for r in ranks:
        r.stop(signal.SIGKILL)
