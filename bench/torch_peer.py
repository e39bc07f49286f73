#!/usr/bin/python3
"""PyTorch (Debian's 1.13) timings of the ops in op_table.cc, same timing method.

Run through ../shared/bench/peer_env.sh so torch is tuned as bench/PEERS.md says.
Prints "name<TAB>median<TAB>unit" lines.
"""
import os
import statistics
import sys
import time

import torch

torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "2")))
REPS = int(os.environ.get("BENCH_REPS", "7"))


def time_call(fn):
    fn()
    fn()
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    inner = max(1, int(0.2 / max(one, 1e-7)))
    ts = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        ts.append((time.perf_counter() - t0) / inner)
    return statistics.median(ts)


def report(name, value, unit):
    print(f"{name}\t{value:.3f}\t{unit}", flush=True)


def gemm():
    torch.manual_seed(0)
    for dtype, tag in ((torch.float32, "fp32"), (torch.bfloat16, "bf16")):
        for n in (512, 1024, 2048):
            a = torch.randn(n, n).to(dtype)
            b = torch.randn(n, n).to(dtype)
            s = time_call(lambda: torch.mm(a, b))
            report(f"torch matmul {tag} n={n}", 2 * n ** 3 / s * 1e-9, "GFLOP/s")


def memory():
    n = 16 * 1024 * 1024
    a, b = torch.randn(n), torch.randn(n)
    s = time_call(lambda: torch.add(a, b))
    report("torch add 16M fp32", 3 * 4 * n / s * 1e-9, "GB/s")
    x = torch.randn(4096, 4096)
    report("torch softmax [4096,4096] fp32", time_call(lambda: torch.softmax(x, -1)) * 1e3, "ms")
    report("torch sum [4096,4096] fp32", time_call(lambda: torch.sum(x)) * 1e3, "ms")
    report("torch sum rows [4096,4096] fp32", time_call(lambda: torch.sum(x, 1)) * 1e3, "ms")
    report("torch transpose-copy [4096,4096] fp32",
           time_call(lambda: x.t().contiguous()) * 1e3, "ms")
    y = torch.randn(8192, 1024)
    w, bias = torch.randn(1024), torch.randn(1024)
    report("torch layer_norm [8192,1024] fp32",
           time_call(lambda: torch.nn.functional.layer_norm(y, (1024,), w, bias, 1e-5)) * 1e3,
           "ms")


if __name__ == "__main__":
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    if only in ("", "gemm"):
        gemm()
    if only in ("", "memory"):
        memory()
