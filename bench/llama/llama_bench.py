#!/usr/bin/python3
"""One side of the Llama training benchmark: `--impl skiff` (examples/llama/model.py) or
`--impl torch` (torch_llama.py), same sizes (vocab 4096, dim 256, 4 layers, 4 heads, SwiGLU 688,
untied head), same data (seeded random tokens), AdamW, batch 8 x 256. Prints one JSON line:
median ms/step (wall) and CPU ms/step (process time: on a shared machine
less sensitive to being descheduled), tokens/s, losses, peak memory.

Memory: `rss_peak_mib` is the process's RSS high-water mark (VmHWM) at the end;
`train_mib` is VmHWM minus the RSS before the first step (what training itself added: activations,
gradients, optimizer state, allocator caches). compare.py runs both sides alternately."""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB, DIM, LAYERS, HEADS, HIDDEN = 4096, 256, 4, 4, 688


def vm(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def data(batch, seq, steps):
    rng = np.random.default_rng(0)
    return [rng.integers(0, VOCAB, (batch, seq + 1), dtype=np.int64) for _ in range(steps)]


def run_torch(args, batches):
    import torch
    import torch.nn.functional as F
    sys.path.insert(0, HERE)
    from torch_llama import Llama
    torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "2")))
    torch.manual_seed(0)
    model = Llama(VOCAB, DIM, LAYERS, HEADS, HIDDEN)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
    tensors = [torch.from_numpy(b) for b in batches]

    def step(b):
        logits = model(b[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), b[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss.item()

    return _time(step, tensors, args)


def run_skiff(args, batches):
    sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "llama"))
    import skiff as paddle
    from model import Llama, LlamaConfig
    paddle.seed(0)
    cfg = LlamaConfig(vocab_size=VOCAB, dim=DIM, n_layers=LAYERS, n_heads=HEADS,
                      hidden_dim=HIDDEN, max_seq_len=1024)
    model = Llama(cfg)
    opt = paddle.optimizer.AdamW(learning_rate=3e-4, parameters=model.parameters(),
                                 weight_decay=0.1)
    tensors = [paddle.to_tensor(b) for b in batches]

    def step(b):
        loss = model.loss(b[:, :-1], b[:, 1:])
        opt.clear_grad(set_to_zero=False)
        loss.backward()
        opt.step()
        return float(loss)

    return _time(step, tensors, args)


def _time(step, batches, args):
    rss_before = vm("VmRSS")
    losses = []
    for b in batches[:args.warmup]:
        losses.append(step(b))
    times, cpu = [], []
    for b in batches[args.warmup:]:
        t0, c0 = time.perf_counter(), time.process_time()
        losses.append(step(b))
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    med = statistics.median(times)
    return {"impl": args.impl, "ms_per_step": med * 1e3, "min_ms": min(times) * 1e3,
            "cpu_ms_per_step": statistics.median(cpu) * 1e3,
            "tokens_per_s": args.batch * args.seq / med, "loss_first": losses[0],
            "loss_last": losses[-1], "rss_peak_mib": vm("VmHWM"),
            "train_mib": vm("VmHWM") - rss_before, "steps": len(times)}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--impl", choices=["skiff", "torch"], required=True)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--seq", type=int, default=256)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--steps", type=int, default=10)
    args = p.parse_args()
    batches = data(args.batch, args.seq, args.warmup + args.steps)
    res = run_torch(args, batches) if args.impl == "torch" else run_skiff(args, batches)
    print(json.dumps(res))


if __name__ == "__main__":
    main()
