#!/usr/bin/python3
"""AdamW.step over many small parameters, where per-parameter overhead (not arithmetic)
decides: Skiff's fused list update against torch.optim.AdamW (foreach, torch's fast path) in
the same run, median milliseconds per step; torch on 2 threads as ../shared/bench/PEERS.md says
(the tensors are too small for either to use threads).

    PYTHONPATH=python /usr/bin/python3 bench/optimizer_many_params.py [--params 2000] [--size 4]
"""
import argparse
import time

import numpy as np


def median_ms(step, rounds):
    for _ in range(3):
        step()
    ts = []
    for _ in range(rounds):
        t = time.perf_counter()
        step()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts)) * 1e3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--params", type=int, default=2000)
    p.add_argument("--size", type=int, default=4, help="elements per parameter")
    p.add_argument("--rounds", type=int, default=20)
    args = p.parse_args()

    import skiff as paddle
    ps = [paddle.create_parameter([args.size], "float32") for _ in range(args.params)]
    for q in ps:
        q.grad = paddle.ones([args.size])
    opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=ps)
    skiff_ms = median_ms(opt.step, args.rounds)

    import torch
    torch.set_num_threads(2)
    tps = [torch.zeros(args.size, requires_grad=True) for _ in range(args.params)]
    for q in tps:
        q.grad = torch.ones(args.size)
    topt = torch.optim.AdamW(tps, lr=0.01, foreach=True)
    torch_ms = median_ms(topt.step, args.rounds)
    print(f"AdamW.step, {args.params} parameters of {args.size}: skiff {skiff_ms:.2f} ms, "
          f"torch (foreach) {torch_ms:.2f} ms, skiff/torch time {skiff_ms / torch_ms:.2f}x")


if __name__ == "__main__":
    main()
