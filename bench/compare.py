#!/usr/bin/python3
"""Runs Skiff's op_table and the PyTorch peer alternately and prints the ratio table.

Usage: /usr/bin/python3 bench/compare.py [--rounds 3] [--build build]
Each round runs both programs once; the table shows medians over rounds and ratios against the
peers measured in the same run (machines here are shared and drift 30-50% over minutes, so only
ratios measured side by side mean anything).
"""
import argparse
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER_ENV = os.path.join(ROOT, "..", "shared", "bench", "peer_env.sh")

# (label, skiff metric, peer metric, higher_is_better, target)
ROWS = [
    *[(f"matmul {t} n={n}", f"skiff matmul {t} n={n}", f"onednn matmul {t} n={n}", True, 0.9)
      for t in ("fp32", "bf16") for n in (512, 1024, 2048)],
    *[(f"matmul {t} n={n}", f"skiff matmul {t} n={n}", f"torch matmul {t} n={n}", True, 1.0)
      for t in ("fp32", "bf16") for n in (512, 1024, 2048)],
    ("add 16M fp32 vs triad", "skiff add 16M fp32", "triad 16M fp32", True, 0.8),
    ("add 16M fp32 vs torch", "skiff add 16M fp32", "torch add 16M fp32", True, 1.0),
    ("softmax [4096,4096]", "skiff softmax [4096,4096] fp32", "torch softmax [4096,4096] fp32",
     False, 1.0),
    ("layer_norm [8192,1024]", "skiff layer_norm [8192,1024] fp32",
     "torch layer_norm [8192,1024] fp32", False, 1.0),
    ("sum all [4096,4096]", "skiff sum [4096,4096] fp32", "torch sum [4096,4096] fp32", False,
     1.0),
    ("sum rows [4096,4096]", "skiff sum rows [4096,4096] fp32", "torch sum rows [4096,4096] fp32",
     False, 1.0),
    ("transpose-copy [4096,4096]", "skiff transpose-copy [4096,4096] fp32",
     "torch transpose-copy [4096,4096] fp32", False, 1.0),
]


def run(cmd, env=None):
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
    res = {}
    for line in out.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            res[parts[0]] = (float(parts[1]), parts[2])
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("BENCH_THREADS", "2"))
    samples = {}
    for r in range(args.rounds):
        for res in (run([os.path.join(args.build, "bin", "op_table")], env),
                    run([PEER_ENV, "/usr/bin/python3", os.path.join(ROOT, "bench", "torch_peer.py")])):
            for k, (v, unit) in res.items():
                samples.setdefault(k, ([], unit))[0].append(v)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    med = {k: (statistics.median(v), u) for k, (v, u) in samples.items()}
    print("| op | Skiff | peer | ratio (>1 = Skiff better) | target |")
    print("|---|---|---|---|---|")
    for label, mine, peer, higher, target in ROWS:
        if mine not in med or peer not in med:
            print(f"| {label} | {med.get(mine, ('n/a',''))[0]} | {med.get(peer, ('n/a',''))[0]} | n/a | {target} |")
            continue
        (a, unit), (b, _) = med[mine], med[peer]
        ratio = a / b if higher else b / a
        peer_name = peer.split()[0]
        ok = "ok" if ratio >= target else "below"
        print(f"| {label} | {a:.2f} {unit} | {b:.2f} {unit} ({peer_name}) | {ratio:.2f}x | "
              f">= {target}x {ok} |")


if __name__ == "__main__":
    main()
