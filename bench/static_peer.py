#!/usr/bin/python3
"""PyTorch 1.13 peer of bench/static_bench.cc: the same MLP training step (batch 32, 4 layers of
width 64, tanh, MSE, SGD lr 0.01), eager, in microseconds per step (median of 7).
Run: ../shared/bench/peer_env.sh /usr/bin/python3 bench/static_peer.py
"""
import os
import statistics
import time

import torch

torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "2")))
B, W, L, LR = 32, 64, 4, 0.01
params = []
for _ in range(L):
    params += [(torch.rand(W, W) * 0.2 - 0.1).requires_grad_(),
               (torch.rand(W) * 0.2 - 0.1).requires_grad_()]
x, y = torch.rand(B, W) * 2 - 1, torch.rand(B, W) * 2 - 1


def step():
    h = x
    for i in range(L):
        h = torch.tanh(h @ params[2 * i] + params[2 * i + 1])
    loss = ((h - y) ** 2).mean()
    grads = torch.autograd.grad(loss, params)
    with torch.no_grad():
        for p, g in zip(params, grads):
            p.sub_(g * LR)
    return loss


for _ in range(20):
    step()
ts = []
for _ in range(7):
    n = 200
    t0 = time.perf_counter()
    for _ in range(n):
        step()
    ts.append((time.perf_counter() - t0) / n * 1e6)
print(f"torch_mlp_step\t{statistics.median(ts):.1f}\tus")
