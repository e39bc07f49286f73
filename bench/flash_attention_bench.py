"""Attention forward+backward: Skiff's fused flash_attn against PyTorch 1.13 tuned (Debian's
torch has no scaled_dot_product_attention: its unfused softmax(q k^T * scale + mask) v, the
attention 1.13 users write), causal, batch 1, 8 heads, head_dim 64 (or ATTN_D), seqlen 1k and
4k (ATTN_SEQS). Each measurement runs in its own process (alternating Skiff / torch, ROUNDS
times, best time reported) so peak RSS growth is per configuration. Also prints Skiff's fraction
of the fp32 FMA peak, counted on causal FLOPs (7 S^2 D H B: forward 2 and backward 5 half
matmuls) and measured in the same run by ../shared/bench/peak.c when PEAK_BIN points to it
(or PEAK_GFLOPS is given).

  PYTHONPATH=python ../shared/bench/peer_env.sh /usr/bin/python3 bench/flash_attention_bench.py
"""
import os
import re
import subprocess
import sys
import time


def _rss_kib(field="VmHWM"):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return 0


def worker(which, s, d, reps):
    import numpy as np
    b, h = 1, 8
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((b, s, h, d)).astype(np.float32) for _ in range(4)]
    if which == "skiff":
        import skiff as paddle
        import skiff.nn.functional as F
        q, k, v = (paddle.to_tensor(a, stop_gradient=False) for a in arrays[:3])
        g = paddle.to_tensor(arrays[3])

        def step():
            out, _ = F.flash_attention(q, k, v, causal=True)
            out.backward(g)
            q.clear_grad(), k.clear_grad(), v.clear_grad()
        mem = paddle.device
    else:
        import torch
        torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "2")))
        q, k, v = (torch.tensor(a.transpose(0, 2, 1, 3).copy(), requires_grad=True)
                   for a in arrays[:3])
        g = torch.tensor(arrays[3].transpose(0, 2, 1, 3).copy())
        mask = torch.triu(torch.full((s, s), float("-inf")), 1)

        def step():
            scores = q @ k.transpose(-1, -2) / d ** 0.5 + mask
            out = torch.softmax(scores, -1) @ v
            out.backward(g)
            q.grad = k.grad = v.grad = None
        mem = None
    step()  # warm up (allocator caches, first touch)
    base_rss = _rss_kib("VmRSS")
    if mem is not None:
        mem.reset_max_memory_allocated()
        base_alloc = mem.memory_allocated()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    peak_rss = _rss_kib("VmHWM") - base_rss
    alloc = (mem.max_memory_allocated() - base_alloc) if mem is not None else -1
    print(f"RESULT {min(times):.6f} {peak_rss} {alloc}")


def run(which, s, d, reps):
    out = subprocess.run([sys.executable, __file__, "worker", which, str(s), str(d), str(reps)],
                         capture_output=True, text=True, check=True).stdout
    t, rss, alloc = re.search(r"RESULT (\S+) (\S+) (\S+)", out).groups()
    return float(t), int(rss), int(alloc)


def fma_peak():
    if "PEAK_GFLOPS" in os.environ:
        return float(os.environ["PEAK_GFLOPS"])
    peak_bin = os.environ.get("PEAK_BIN")
    if not peak_bin:
        return None
    out = subprocess.run([peak_bin], capture_output=True, text=True,
                         env=dict(os.environ, OMP_NUM_THREADS="2")).stdout
    m = re.search(r"fma512\s+threads=2: best (\S+) GFLOP/s", out)
    return float(m.group(1)) if m else None


def main():
    d = int(os.environ.get("ATTN_D", "64"))
    seqs = [int(x) for x in os.environ.get("ATTN_SEQS", "1024,4096").split(",")]
    rounds = int(os.environ.get("ROUNDS", "3"))
    peak = fma_peak()
    print(f"causal attention fwd+bwd, B=1 H=8 D={d}, fp32, best of {rounds} rounds"
          + (f", FMA peak {peak:.0f} GFLOP/s" if peak else ""))
    print(f"{'seq':>6} {'skiff ms':>9} {'torch ms':>9} {'speedup':>8} {'GFLOP/s':>8} "
          f"{'of peak':>8} {'skiff RSS+':>10} {'skiff alloc':>11} {'torch RSS+':>10}")
    for s in seqs:
        reps = 5 if s <= 2048 else 2
        best = {}
        for _ in range(rounds):
            for which in ("skiff", "torch"):
                r = run(which, s, d, reps)
                if which not in best or r[0] < best[which][0]:
                    best[which] = r
        (ts, rs, alloc), (tt, rt, _) = best["skiff"], best["torch"]
        gflops = 7 * s * s * d * 8 / ts / 1e9
        frac = f"{100 * gflops / peak:7.1f}%" if peak else "       -"
        print(f"{s:>6} {ts * 1e3:9.1f} {tt * 1e3:9.1f} {tt / ts:7.2f}x {gflops:8.1f} {frac} "
              f"{rs / 1024:8.1f}MB {alloc / 2**20:9.1f}MB {rt / 1024:8.1f}MB")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "worker":
        worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        main()
