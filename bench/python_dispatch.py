#!/usr/bin/env python3
"""Per-call cost of the Python front end: skiff.add / operators / a reduction / indexing on
1-element tensors against torch (the tuned peer), in one process, alternating runs.

Run after a build:
  PYTHONPATH=python ../shared/bench/peer_env.sh /usr/bin/python3 bench/python_dispatch.py
Prints microseconds per call (median of BENCH_REPS runs of N calls, Python loop included) and
the skiff/torch ratio (< 1: skiff is faster).

The second table is the cost of the Python functions themselves: each public function or
Tensor method (a Python function generated from the op record, skiff._op_functions) against the
binding it calls (skiff._C.ops.<op>, what skiff.<op> was before it became a Python function),
alternating in one run; `extra us` is the function's cost over the binding (target <= 0.15).
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


def function_vs_binding():
    ops = skiff._C.ops
    a, b, one = skiff.ones([1]), skiff.ones([1]), skiff.ones([1])
    cases = [
        ("skiff.add(a, b)", lambda: skiff.add(a, b), lambda: ops.add(a, b)),
        ("skiff.tanh(a)", lambda: skiff.tanh(a), lambda: ops.tanh(a)),
        ("skiff.sum(a)", lambda: skiff.sum(a), lambda: ops.sum(a)),
        ("a.sum()", lambda: a.sum(), lambda: ops.sum(a)),
        ("skiff.reshape(a, [1, 1])", lambda: skiff.reshape(a, [1, 1]),
         lambda: ops.reshape(a, [1, 1])),
        ("a.multiply_(one)", lambda: a.multiply_(one), lambda: ops.multiply_(a, one)),
        ("skiff.zeros_like(a)", lambda: skiff.zeros_like(a), lambda: ops.zeros_like(a)),
    ]
    print(f"\n{'function vs binding':<26}{'function us':>12}{'binding us':>12}{'extra us':>10}")
    worst = 0.0
    for name, fn, binding in cases:
        f_runs, b_runs = [], []
        for _ in range(REPS):
            f_runs.append(per_call_us(fn))
            b_runs.append(per_call_us(binding))
        f, bb = statistics.median(f_runs), statistics.median(b_runs)
        worst = max(worst, f - bb)
        print(f"{name:<26}{f:>12.3f}{bb:>12.3f}{f - bb:>10.3f}")
    print(f"largest extra cost of a Python function over its binding: {worst:.3f} us")


if __name__ == "__main__":
    main()
    function_vs_binding()
