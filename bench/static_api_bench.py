#!/usr/bin/python3
"""A paddle.static training step (Program + Executor.run with a fetch list) against the same
model trained eagerly, in the same run: microseconds per step (median of rounds that alternate
the two) and their ratio. The model is jit_train.py's DeepMLP (batch 32, 8 tanh layers of width
64, MSE, Adam): small ops, so the per-run cost of the Python static API (feed checks, cache
lookup, lr refresh, fetch) shows.

Run: PYTHONPATH=python OMP_NUM_THREADS=1 /usr/bin/python3 bench/static_api_bench.py [--rounds 5]
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

import skiff as paddle
import skiff.nn.functional as F
from skiff import static

sys.path.insert(0, os.path.dirname(__file__))
from jit_train import DeepMLP  # noqa: E402


def eager_step_fn(x, y):
    paddle.seed(1)
    model = DeepMLP()
    opt = paddle.optimizer.Adam(1e-3, parameters=model.parameters())
    xt, yt = paddle.to_tensor(x), paddle.to_tensor(y)

    def step():
        loss = F.mse_loss(model(xt), yt)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return float(loss)
    return step


def static_step_fn(x, y):
    paddle.enable_static()
    try:
        paddle.seed(1)
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            xs = static.data("x", [None, 64], "float32")
            ys = static.data("y", [None, 64], "float32")
            loss = F.mse_loss(DeepMLP()(xs), ys)
            paddle.optimizer.Adam(1e-3).minimize(loss)
        exe = static.Executor()
        exe.run(startup)
    finally:
        paddle.disable_static()

    def step():
        return float(exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])[0])
    return step


def time_steps(step, n):
    t = time.perf_counter()
    for _ in range(n):
        step()
    return (time.perf_counter() - t) / n * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=100)
    args = ap.parse_args()
    rs = np.random.RandomState(0)
    x = rs.randn(32, 64).astype(np.float32)
    y = rs.randn(32, 64).astype(np.float32)
    steps = {"eager": eager_step_fn(x, y), "static": static_step_fn(x, y)}
    first = {k: [s() for _ in range(3)] for k, s in steps.items()}
    np.testing.assert_allclose(first["static"], first["eager"], rtol=1e-5)  # same training
    us = {k: [] for k in steps}
    for _ in range(args.rounds):
        for k, s in steps.items():
            us[k].append(time_steps(s, args.steps))
    ratios = [s / e for s, e in zip(us["static"], us["eager"])]
    for k in steps:
        print(f"deep_mlp {k:7s} {statistics.median(us[k]):8.1f} us/step")
    print(f"deep_mlp static/eager {statistics.median(ratios):.2f} (median of per-round ratios)")


if __name__ == "__main__":
    main()
