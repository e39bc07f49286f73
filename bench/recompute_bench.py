"""Activation memory saved by recompute on the example Llama (examples/llama/model.py): peak
bytes allocated (paddle.device.max_memory_allocated) over one forward + backward, with every
block run plainly and with every block under paddle.distributed.fleet.utils.recompute, and the
step time of each. The gradients of both are compared (they must be equal up to float32
rounding).

  PYTHONPATH=python /usr/bin/python3 bench/recompute_bench.py [--layers 4 --dim 256 --seq 256 --batch 8]
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples",
                                "llama"))
import skiff as paddle  # noqa: E402
from model import Llama, LlamaConfig  # noqa: E402


def step(model, idx, tgt):
    model.clear_gradients()
    base = paddle.device.memory_allocated()
    paddle.device.reset_max_memory_allocated()
    t0 = time.perf_counter()
    loss = model.loss(idx, tgt)
    loss.backward()
    dt = time.perf_counter() - t0
    peak = paddle.device.max_memory_allocated() - base
    grads = [p.grad.numpy().copy() for p in model.parameters()]
    return peak, dt, float(loss), grads


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--dim", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--vocab", type=int, default=4096)
    args = ap.parse_args()
    paddle.seed(0)
    cfg = LlamaConfig(vocab_size=args.vocab, dim=args.dim, n_layers=args.layers,
                      n_heads=args.heads, hidden_dim=int(args.dim * 2.6875) // 8 * 8,
                      max_seq_len=args.seq)
    model = Llama(cfg)
    rng = np.random.default_rng(0)
    idx = paddle.to_tensor(rng.integers(0, args.vocab, (args.batch, args.seq)), "int64")
    tgt = paddle.to_tensor(rng.integers(0, args.vocab, (args.batch, args.seq)), "int64")
    results = {}
    for rc in (False, True, False, True):  # the second round is timed warm
        model.recompute_blocks = rc
        results[rc] = step(model, idx, tgt)
    (p0, t0, l0, g0), (p1, t1, l1, g1) = results[False], results[True]
    diff = max(float(np.abs(a - b).max()) for a, b in zip(g0, g1))
    print(f"llama layers={args.layers} dim={args.dim} seq={args.seq} batch={args.batch}")
    print(f"  plain      peak {p0 / 2**20:8.1f} MiB  fwd+bwd {t0 * 1e3:7.1f} ms  loss {l0:.6f}")
    print(f"  recompute  peak {p1 / 2**20:8.1f} MiB  fwd+bwd {t1 * 1e3:7.1f} ms  loss {l1:.6f}")
    print(f"  saved {(p0 - p1) / 2**20:.1f} MiB ({100 * (p0 - p1) / p0:.0f}% of the peak), "
          f"time x{t1 / t0:.2f}, max |grad diff| {diff:.2e}")


if __name__ == "__main__":
    main()
