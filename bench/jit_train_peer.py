#!/usr/bin/python3
"""PyTorch 1.13 peer of bench/jit_train.py: the same two training steps (deep MLP with Adam, tiny
Llama with AdamW), eager, microseconds per step (median of rounds) and the peak RSS growth.
Run in the same sitting as jit_train.py:
  OMP_NUM_THREADS=1 BENCH_THREADS=1 ../shared/bench/peer_env.sh /usr/bin/python3 bench/jit_train_peer.py
"""
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "llama"))
from torch_llama import Llama  # noqa: E402

torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "1")))
torch.manual_seed(0)


def mlp():
    layers = [torch.nn.Linear(64, 64) for _ in range(8)]
    model = torch.nn.Sequential(*[m for layer in layers for m in (layer, torch.nn.Tanh())])
    x, y = torch.rand(32, 64) * 2 - 1, torch.rand(32, 64) * 2 - 1
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return model, lambda: F.mse_loss(model(x), y), opt, 50


def llama():
    model = Llama(256, 64, 2, 4, 172, maxlen=32)
    idx = torch.randint(0, 256, (4, 32))
    tgt = torch.randint(0, 256, (4, 32))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    return model, lambda: F.cross_entropy(model(idx).reshape(-1, 256), tgt.reshape(-1)), opt, 10


for name, make in (("mlp", mlp), ("llama", llama)):
    model, loss_fn, opt, reps = make()

    def step():
        loss = loss_fn()
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    for _ in range(5):
        step()
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            step()
        times.append((time.perf_counter() - t0) / reps * 1e6)
    print(f"{name:6s} torch        {statistics.median(times):9.0f} us/step")
