#!/usr/bin/python3
"""Profiler cost on the small-Llama training step (examples/llama/model.py, train.py's default
sizes: vocab 1024, dim 192, 4 layers, 4 heads, SwiGLU 512; batch 8 x 128, AdamW): median ms/step
with no profiler, with a recording Profiler() (Paddle's defaults: every op with its kernel, grad
node, layer, optimizer step) and with record_shapes and profile_memory on too (op input shapes,
every allocator call), alternating rounds in one process so all sides see the same machine.
Prints one JSON line; the ratios are against no profiler (the target is <= 1.05).

    OMP_NUM_THREADS=1 PYTHONPATH=python /usr/bin/python3 bench/profiler_bench.py
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "llama"))

import skiff as paddle  # noqa: E402
from model import Llama, LlamaConfig  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--steps", type=int, default=3, help="steps per side per round")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--seq", type=int, default=128)
    args = p.parse_args()
    paddle.seed(0)
    cfg = LlamaConfig(vocab_size=1024, dim=192, n_layers=4, n_heads=4, hidden_dim=512,
                      max_seq_len=args.seq)
    model = Llama(cfg)
    opt = paddle.optimizer.AdamW(learning_rate=3e-4, parameters=model.parameters(),
                                 weight_decay=0.1)
    rng = np.random.default_rng(0)
    batch = paddle.to_tensor(rng.integers(0, 1024, (args.batch, args.seq + 1), dtype=np.int64))

    def step():
        loss = model.loss(batch[:, :-1], batch[:, 1:])
        loss.backward()
        opt.step()
        opt.clear_grad(set_to_zero=False)
        return float(loss)

    for _ in range(2):
        step()
    sides = {"off": None, "default": {}, "full": {"record_shapes": True, "profile_memory": True}}
    times = {k: [] for k in sides}
    events = 0
    for _ in range(args.rounds):
        for side, opts in sides.items():
            prof = None
            if opts is not None:
                prof = paddle.profiler.Profiler(on_trace_ready=lambda p: None, **opts)
                prof.start()
            for _ in range(args.steps):
                t0 = time.perf_counter()
                step()
                if prof is not None:
                    prof.step()
                times[side].append(time.perf_counter() - t0)
            if prof is not None:
                prof.stop()
                events = len(prof.profiler_result.events()) // (args.steps + 1)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(json.dumps({"ms_per_step_off": round(med["off"] * 1e3, 2),
                      "ms_per_step_default": round(med["default"] * 1e3, 2),
                      "ms_per_step_full": round(med["full"] * 1e3, 2),
                      "ratio_default": round(med["default"] / med["off"], 4),
                      "ratio_full": round(med["full"] / med["off"], 4),
                      "host_events_per_step": events, "steps_per_side": len(times["off"])}))


if __name__ == "__main__":
    main()
