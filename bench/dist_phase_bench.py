#!/usr/bin/python3
"""Per-phase step times of the small Llama (examples/llama/model.py, default sizes, AdamW) at
one per-rank batch: dense in one process, and through dist.parallelize on a dp mesh of every
rank (the eager distributed mode); median forward / backward / optimizer-step milliseconds.

    OMP_NUM_THREADS=1 /usr/bin/python3 bench/dist_phase_bench.py dense
    OMP_NUM_THREADS=1 PADDLE_TRAINER_ID=0 PADDLE_TRAINERS_NUM=1 \\
        /usr/bin/python3 bench/dist_phase_bench.py dist          # a one-process mesh
    OMP_NUM_THREADS=1 /usr/bin/python3 -m skiff.distributed.launch --nproc_per_node 2 \\
        --log_dir /tmp/dist_phase bench/dist_phase_bench.py dist  # dp2

--clip adds ClipGradByGlobalNorm(1.0), as examples/llama/train.py uses."""
import argparse
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "llama"))

import skiff as paddle  # noqa: E402
import skiff.distributed as dist  # noqa: E402
from model import Llama, LlamaConfig  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["dense", "dist"])
    p.add_argument("--batch", type=int, default=8, help="per rank")
    p.add_argument("--seq", type=int, default=128)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--clip", action="store_true")
    args = p.parse_args()
    paddle.seed(1)
    cfg = LlamaConfig(vocab_size=1024, dim=192, n_layers=4, n_heads=4, hidden_dim=512,
                      max_seq_len=args.seq)
    model = Llama(cfg)
    clip = paddle.nn.ClipGradByGlobalNorm(1.0) if args.clip else None
    opt = paddle.optimizer.AdamW(learning_rate=1e-3, parameters=model.parameters(),
                                 grad_clip=clip)
    ranks = 1
    if args.mode == "dist":
        dist.init_parallel_env()
        ranks = dist.get_world_size()
        mesh = dist.ProcessMesh(list(range(ranks)), dim_names=["dp"])
        model, opt = dist.parallelize(model, opt, mesh, {"dp_config": {"sharding_level": 0}})
    rng = np.random.default_rng(0)
    times = []
    for step in range(args.warmup + args.steps):
        b = rng.integers(0, cfg.vocab_size, (args.batch * ranks, args.seq + 1), dtype=np.int64)
        x, y = paddle.to_tensor(b[:, :-1]), paddle.to_tensor(b[:, 1:])
        if args.mode == "dist":
            x = dist.shard_tensor(x, mesh, [dist.Shard(0)])
            y = dist.shard_tensor(y, mesh, [dist.Shard(0)])
        t0 = time.perf_counter()
        logits = model(x)
        loss = paddle.nn.functional.cross_entropy(logits.reshape([-1, cfg.vocab_size]),
                                                  y.reshape([-1]))
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        opt.step()
        opt.clear_grad()
        float(loss)
        t3 = time.perf_counter()
        if step >= args.warmup:
            times.append((t1 - t0, t2 - t1, t3 - t2))
    fwd, bwd, upd = np.median(np.array(times), axis=0) * 1e3
    if args.mode == "dense" or dist.get_rank() == 0:
        print(f"{args.mode} ranks {ranks} batch {args.batch}/rank: forward {fwd:.1f} ms, "
              f"backward {bwd:.1f} ms, step {upd:.1f} ms", flush=True)


if __name__ == "__main__":
    main()
