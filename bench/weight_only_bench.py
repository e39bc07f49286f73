#!/usr/bin/python3
"""Weight-only quantized linear layers (paddle.nn.quant.weight_only_linear) against float32
linear layers: Skiff's F.linear (oneDNN GEMM) and torch 1.13's F.linear (tuned, under
../shared/bench/peer_env.sh), on a decode-sized batch (1 row: reading the weight is the whole
cost) and a prefill-sized one (64 rows), weight 4096 x 4096. Median ms per call and the weight
bytes read per second, in alternating rounds of one sitting.

    /usr/bin/python3 bench/weight_only_bench.py          # ROUNDS=3, BENCH_THREADS=2
    /usr/bin/python3 bench/weight_only_bench.py skiff    # one side only
"""
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

K = N = int(os.environ.get("BENCH_DIM", "4096"))
ROWS = (1, 64)
REPS = int(os.environ.get("BENCH_REPS", "20"))
THREADS = int(os.environ.get("BENCH_THREADS", "2"))
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _time(fn):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(ts)


def _inputs(rows):
    rng = np.random.default_rng(0)
    return (rng.standard_normal((rows, K)).astype(np.float32),
            (rng.standard_normal((K, N)) * 0.02).astype(np.float32))


def run_skiff():
    os.environ.setdefault("OMP_NUM_THREADS", str(THREADS))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import skiff as paddle
    from skiff.nn.quant import weight_only_linear, weight_quantize
    res = {}
    for rows in ROWS:
        xn, wn = _inputs(rows)
        x, w = paddle.to_tensor(xn), paddle.to_tensor(wn)
        with paddle.no_grad():
            res[f"fp32 linear m={rows}"] = _time(lambda: paddle.nn.functional.linear(x, w))
            for algo, wd in (("weight_only_int8", "int8"), ("weight_only_int4", "int4")):
                q, s = weight_quantize(w, algo=algo)
                res[f"{wd} weight-only m={rows}"] = _time(
                    lambda: weight_only_linear(x, q, weight_scale=s, weight_dtype=wd))
    return res


def run_torch():
    import torch
    torch.set_num_threads(THREADS)
    res = {}
    for rows in ROWS:
        xn, wn = _inputs(rows)
        x, wt = torch.from_numpy(xn), torch.from_numpy(wn.T.copy())
        with torch.no_grad():
            res[f"fp32 linear m={rows}"] = _time(lambda: torch.nn.functional.linear(x, wt))
    return res


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("skiff", "torch"):
        print(json.dumps(run_skiff() if sys.argv[1] == "skiff" else run_torch()))
        return
    rounds = int(os.environ.get("ROUNDS", "3"))
    env = dict(os.environ, BENCH_THREADS=str(THREADS), OMP_NUM_THREADS=str(THREADS))
    peer_env = os.path.join(ROOT, "..", "shared", "bench", "peer_env.sh")
    if not os.path.exists(peer_env):
        peer_env = "/work/shared/bench/peer_env.sh"
    cmds = {"skiff": [sys.executable, __file__, "skiff"],
            "torch": [peer_env, sys.executable, __file__, "torch"]}
    runs = {"skiff": [], "torch": []}
    for r in range(rounds):
        for side in ("skiff", "torch") if r % 2 == 0 else ("torch", "skiff"):
            out = subprocess.run(cmds[side], env=env, check=True, capture_output=True,
                                 text=True).stdout
            runs[side].append(json.loads(out.strip().splitlines()[-1]))
    med = {side: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
           for side, rs in runs.items()}
    print(f"weight {K} x {N}, {THREADS} threads, median of {REPS} calls, {rounds} alternating "
          f"rounds (load {os.getloadavg()[0]:.1f})")
    print(f"{'case':28s} {'Skiff ms':>9s} {'GB/s':>7s} {'torch fp32 ms':>14s} {'torch/Skiff':>12s}")
    bytes_of = {"fp32": 4.0, "int8": 1.0, "int4": 0.5}
    for name, ms in med["skiff"].items():
        kind, rows = name.split()[0], name.split("=")[1]
        gbs = K * N * bytes_of[kind] / (ms * 1e-3) / 1e9
        peer = med["torch"][f"fp32 linear m={rows}"]
        print(f"{name:28s} {ms:9.3f} {gbs:7.1f} {peer:14.3f} {peer / ms:11.2f}x")


if __name__ == "__main__":
    main()
