#!/usr/bin/python3
"""Profiler cost on the small-Llama training step (examples/llama/model.py, train.py's default
sizes: vocab 1024, dim 192, 4 layers, 4 heads, SwiGLU 512; batch 8 x 128, AdamW): median ms/step
with no profiler and with a recording Profiler (record_shapes and profile_memory on: every op,
kernel, grad node, layer, allocator call), alternating rounds in one process so both sides see
the same machine. Prints one JSON line; `ratio` is on / off (the target is <= 1.05).

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
    off, on, events = [], [], 0
    for _ in range(args.rounds):
        for _ in range(args.steps):
            t0 = time.perf_counter()
            step()
            off.append(time.perf_counter() - t0)
        prof = paddle.profiler.Profiler(on_trace_ready=lambda p: None, record_shapes=True,
                                        profile_memory=True)
        prof.start()
        for _ in range(args.steps):
            t0 = time.perf_counter()
            step()
            prof.step()
            on.append(time.perf_counter() - t0)
        prof.stop()
        events = len(prof.profiler_result.events()) // args.steps
    m_off, m_on = statistics.median(off), statistics.median(on)
    print(json.dumps({"ms_per_step_off": round(m_off * 1e3, 2),
                      "ms_per_step_on": round(m_on * 1e3, 2), "ratio": round(m_on / m_off, 4),
                      "host_events_per_step": events, "steps_per_side": len(off)}))


if __name__ == "__main__":
    main()
