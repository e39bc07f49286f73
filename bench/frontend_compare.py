#!/usr/bin/python3
"""Side-by-side table of the C++ front-end benchmarks against PyTorch 1.13 (tuned with
../shared/bench/peer_env.sh), alternating runs (ROUNDS, default 3) and taking medians:
  dispatch: build/bin/frontend_bench dispatch  vs  build/bin/torch_dispatch_peer (ATen C++)
  mlp:      build/bin/frontend_bench mlp       vs  bench/mlp_peer.py
Usage (after `ninja -C build frontend_bench torch_dispatch_peer`):
  /usr/bin/python3 bench/frontend_compare.py [dispatch] [mlp]
BASELINE=/path/to/an/older/frontend_bench compares against that binary instead of PyTorch
(before/after figures of a change in one sitting; keep a copy of the old build's binary).
"""
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER_ENV = os.path.join(ROOT, "..", "shared", "bench", "peer_env.sh")
if not os.path.exists(PEER_ENV):
    PEER_ENV = "/work/shared/bench/peer_env.sh"
ROUNDS = int(os.environ.get("ROUNDS", "3"))


def run(cmd, peer):
    env = dict(os.environ, BENCH_THREADS=os.environ.get("BENCH_THREADS", "2"))
    full = ([PEER_ENV] + cmd) if peer else cmd
    out = subprocess.run(full, check=True, capture_output=True, text=True, env=env).stdout
    rows = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            rows[parts[0]] = (float(parts[1]), parts[2])
    return rows


def collect(section):
    skiff_cmd = [os.path.join(ROOT, "build", "bin", "frontend_bench"), section]
    if os.environ.get("BASELINE"):
        peer_cmd = [os.environ["BASELINE"], section]
    elif section == "dispatch":
        peer_cmd = [os.path.join(ROOT, "build", "bin", "torch_dispatch_peer")]
    else:
        peer_cmd = ["/usr/bin/python3", os.path.join(ROOT, "bench", "mlp_peer.py")]
    ours, theirs = {}, {}
    for _ in range(ROUNDS):
        peer = not os.environ.get("BASELINE")
        for rows, cmd, peer in ((ours, skiff_cmd, False), (theirs, peer_cmd, peer)):
            for k, v in run(cmd, peer).items():
                rows.setdefault(k, []).append(v)
    return ours, theirs


def main():
    sections = sys.argv[1:] or ["dispatch", "mlp"]
    other = "baseline" if os.environ.get("BASELINE") else "torch"
    print(f"{'benchmark':45s} {'skiff':>12s} {other:>12s} {'unit':10s} ratio")
    for section in sections:
        ours, theirs = collect(section)
        for name, vals in ours.items():
            o = statistics.median(v for v, _ in vals)
            unit = vals[0][1]
            if name in theirs:
                t = statistics.median(v for v, _ in theirs[name])
                ratio = o / t
                label = f"x {other} throughput" if unit.endswith("/s") else f"x {other}"
                print(f"{name:45s} {o:12.3f} {t:12.3f} {unit:10s} {ratio:.2f} {label}")
            else:
                print(f"{name:45s} {o:12.3f} {'':>12s} {unit:10s}")


if __name__ == "__main__":
    main()
