#!/usr/bin/python3
"""The PyTorch peer of frontend_bench's mlp/* lines: the same MLP 784-1024-1024-10 training
step (batch 256, fp32, cross entropy, AdamW, grads set to None), same timing and memory method
(median of BENCH_REPS runs of 5 steps; peak RSS growth from before the model is built).
Run under ../shared/bench/peer_env.sh."""
import os
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "2")))
REPS = int(os.environ.get("BENCH_REPS", "7"))


def rss_mib():
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line[:5]] = int(line.split()[1]) / 1024
    return out["VmRSS"], out["VmHWM"]


def main():
    rss0 = rss_mib()[0]
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                          nn.Linear(1024, 10))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x = torch.randn(256, 784)
    y = torch.randint(0, 10, (256,))

    def step():
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    step()
    ts = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        for _ in range(5):
            step()
        ts.append((time.perf_counter() - t0) / 5)
    s = statistics.median(ts)
    print(f"mlp/train step 784-1024-1024-10 b256\t{1e3 * s:.4f}\tms")
    print(f"mlp/throughput\t{256 / s:.4f}\tsamples/s")
    print(f"mlp/peak RSS growth\t{rss_mib()[1] - rss0:.4f}\tMiB")


if __name__ == "__main__":
    main()
