#!/usr/bin/env python3
"""Per-call cost of the Python front end: skiff.add / operators / a reduction / indexing on
1-element tensors against torch (the tuned peer), in one process, alternating runs.

Run after a build:
  PYTHONPATH=python ../shared/bench/peer_env.sh /usr/bin/python3 bench/python_dispatch.py
Prints microseconds per call (median of BENCH_REPS runs of N calls, Python loop included) and
the skiff/torch ratio (< 1: skiff is faster).
"""
import os
import statistics
import time

import skiff

try:
    import torch
    torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "2")))
except ImportError:
    torch = None

REPS = int(os.environ.get("BENCH_REPS", "7"))
N = int(os.environ.get("BENCH_N", "100000"))


def per_call_us(fn):
    t0 = time.perf_counter()
    for _ in range(N):
        fn()
    return (time.perf_counter() - t0) / N * 1e6


def main():
    a, b = skiff.ones([1]), skiff.ones([1])
    cases = [("add(a, b)", lambda: skiff.add(a, b)), ("a + b", lambda: a + b),
             ("a * 2.0", lambda: a * 2.0), ("sum(a)", lambda: skiff.sum(a)),
             ("a.reshape([1, 1])", lambda: a.reshape([1, 1])), ("a[0]", lambda: a[0])]
    peers = {}
    if torch is not None:
        ta, tb = torch.ones(1), torch.ones(1)
        peers = {"add(a, b)": lambda: torch.add(ta, tb), "a + b": lambda: ta + tb,
                 "a * 2.0": lambda: ta * 2.0, "sum(a)": lambda: torch.sum(ta),
                 "a.reshape([1, 1])": lambda: ta.reshape([1, 1]), "a[0]": lambda: ta[0]}
    empty = statistics.median(per_call_us(lambda: None) for _ in range(REPS))
    print(f"empty Python lambda call: {empty:.3f} us (included in every figure below)")
    print(f"{'call':<20}{'skiff us':>10}{'torch us':>10}{'ratio':>8}")
    for name, fn in cases:
        s_runs, t_runs = [], []
        for _ in range(REPS):  # alternate, the machine drifts
            s_runs.append(per_call_us(fn))
            if name in peers:
                t_runs.append(per_call_us(peers[name]))
        s = statistics.median(s_runs)
        if t_runs:
            t = statistics.median(t_runs)
            print(f"{name:<20}{s:>10.3f}{t:>10.3f}{s / t:>8.2f}")
        else:
            print(f"{name:<20}{s:>10.3f}{'-':>10}{'-':>8}")


if __name__ == "__main__":
    main()
