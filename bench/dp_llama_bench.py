#!/usr/bin/python3
"""Data-parallel scaling of the small Llama (examples/llama/model.py, its default sizes): the
same per-rank batch on 1 rank (one core) and on 2 ranks (one core each, DataParallel through
the launcher), AdamW; prints tokens/s of each and the speed-up (weak scaling: 2 ranks process
twice the tokens per step).

    /usr/bin/python3 bench/dp_llama_bench.py            # runs both through the launcher
    /usr/bin/python3 bench/dp_llama_bench.py --ranks 2  # one side only

With --rank-worker it is the program each rank runs (started by the launcher)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def worker(args):
    import numpy as np
    sys.path.insert(0, os.path.join(ROOT, "examples", "llama"))
    import skiff as paddle
    import skiff.distributed as dist
    from model import Llama, LlamaConfig
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    paddle.seed(1)
    cfg = LlamaConfig(vocab_size=1024, dim=192, n_layers=4, n_heads=4, hidden_dim=512,
                      max_seq_len=args.seq)
    model = Llama(cfg)
    net = paddle.DataParallel(model) if n > 1 else model
    opt = paddle.optimizer.AdamW(learning_rate=1e-3, parameters=model.parameters())
    rng = np.random.default_rng(rank)
    times = []
    for step in range(args.warmup + args.steps):
        batch = rng.integers(0, cfg.vocab_size, (args.batch, args.seq + 1), dtype=np.int64)
        x, y = paddle.to_tensor(batch[:, :-1]), paddle.to_tensor(batch[:, 1:])
        t0 = time.perf_counter()
        logits = net(x)
        loss = paddle.nn.functional.cross_entropy(logits.reshape([-1, cfg.vocab_size]),
                                                  y.reshape([-1]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        float(loss)
        if step >= args.warmup:
            times.append(time.perf_counter() - t0)
    dist.barrier()
    med = sorted(times)[len(times) // 2]
    if rank == 0:
        print(json.dumps({"ranks": n, "ms_per_step": med * 1e3,
                          "tokens_per_s": n * args.batch * args.seq / med}), flush=True)


def run(ranks, args):
    with tempfile.TemporaryDirectory() as logs:
        cmd = [sys.executable, "-m", "skiff.distributed.launch", "--nproc_per_node", str(ranks),
               "--log_dir", logs, os.path.abspath(__file__), "--rank-worker",
               "--steps", str(args.steps), "--batch", str(args.batch), "--seq", str(args.seq)]
        # One core per rank: the launcher splits the cores it may use between its ranks.
        cores = sorted(os.sched_getaffinity(0))[:ranks]
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
        env.pop("OMP_NUM_THREADS", None)
        out = subprocess.run(["taskset", "-c", ",".join(map(str, cores))] + cmd, env=env,
                             capture_output=True, text=True, timeout=1800)
        if out.returncode:
            sys.exit(f"{ranks} ranks failed:\n{out.stderr}\n{out.stdout}")
        return json.loads([l for l in out.stdout.splitlines() if l.startswith("{")][-1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rank-worker", action="store_true")
    p.add_argument("--ranks", type=int, default=None)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--batch", type=int, default=8, help="per rank")
    p.add_argument("--seq", type=int, default=128)
    args = p.parse_args()
    if args.rank_worker:
        return worker(args)
    sides = [args.ranks] if args.ranks else [1, 2]
    results = [run(r, args) for r in sides]
    for r in results:
        print(f"{r['ranks']} rank(s), one core each: {r['ms_per_step']:.1f} ms/step, "
              f"{r['tokens_per_s']:,.0f} tokens/s")
    if len(results) == 2:
        print(f"speed-up: {results[1]['tokens_per_s'] / results[0]['tokens_per_s']:.2f}x "
              f"(target >= 1.8x)")


if __name__ == "__main__":
    main()
