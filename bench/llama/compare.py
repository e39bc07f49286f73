#!/usr/bin/python3
"""Skiff vs PyTorch on the small Llama training step, alternating runs (the machine is shared:
speed drifts, ratios within one sitting are the measure). Torch runs under the tuned peer
environment (../shared/bench/peer_env.sh: OpenMP OpenBLAS, glibc keeping freed memory, 2
threads); Skiff runs as built. Prints a table with medians over --rounds rounds and the ratios.

    /usr/bin/python3 bench/llama/compare.py --rounds 3
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
PEER_ENV = os.environ.get("SKIFF_PEER_ENV",
                          os.path.abspath(os.path.join(ROOT, "..", "shared", "bench",
                                                       "peer_env.sh")))


def run(impl, extra):
    cmd = ["/usr/bin/python3", os.path.join(HERE, "llama_bench.py"), "--impl", impl] + extra
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    if impl == "torch" and os.path.exists(PEER_ENV):
        cmd = [PEER_ENV] + cmd
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        sys.exit(f"{impl} run failed (exit code {proc.returncode}):\n{proc.stderr[-3000:]}")
    if proc.returncode != 0:
        print(f"  (note: the {impl} process exited with code {proc.returncode} after reporting)")
    return json.loads(lines[-1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--threads", type=int, default=2,
                   help="threads for both sides (BENCH_THREADS for torch, OMP_NUM_THREADS)")
    args = p.parse_args()
    os.environ["BENCH_THREADS"] = str(args.threads)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    extra = ["--steps", str(args.steps)]
    res = {"skiff": [], "torch": []}
    for r in range(args.rounds):
        for impl in (("torch", "skiff") if r % 2 else ("skiff", "torch")):
            res[impl].append(run(impl, extra))
            x = res[impl][-1]
            print(f"round {r + 1} {impl:5s}: {x['ms_per_step']:.1f} ms/step "
                  f"(CPU {x['cpu_ms_per_step']:.1f} ms), "
                  f"{x['tokens_per_s']:,.0f} tok/s, peak RSS {x['rss_peak_mib']:.0f} MiB "
                  f"(+{x['train_mib']:.0f} MiB training), loss {x['loss_first']:.3f} -> "
                  f"{x['loss_last']:.3f}", flush=True)
    med = {k: {f: statistics.median(r[f] for r in v) for f in
               ("ms_per_step", "cpu_ms_per_step", "tokens_per_s", "rss_peak_mib", "train_mib")}
           for k, v in res.items()}
    s, t = med["skiff"], med["torch"]
    print()
    print(f"| small Llama train step, B=8 T=256, AdamW, {args.threads} thread(s) | Skiff | "
          "PyTorch (tuned) | Skiff / PyTorch |")
    print("|---|---|---|---|")
    print(f"| ms/step (median of {args.rounds} runs x {args.steps} steps) | "
          f"{s['ms_per_step']:.1f} | "
          f"{t['ms_per_step']:.1f} | {t['ms_per_step'] / s['ms_per_step']:.2f}x speed |")
    print(f"| tokens/s | {s['tokens_per_s']:,.0f} | {t['tokens_per_s']:,.0f} | "
          f"{s['tokens_per_s'] / t['tokens_per_s']:.2f}x |")
    pair = statistics.median(b["ms_per_step"] / a["ms_per_step"]
                             for a, b in zip(res["skiff"], res["torch"]))
    print(f"| speed, median of the per-round ratios (runs of a round are back to back) | | | "
          f"{pair:.2f}x |")
    print(f"| CPU ms/step (process time) | {s['cpu_ms_per_step']:.1f} | {t['cpu_ms_per_step']:.1f} "
          f"| {t['cpu_ms_per_step'] / s['cpu_ms_per_step']:.2f}x |")
    print(f"| peak RSS (VmHWM), MiB | {s['rss_peak_mib']:.0f} | {t['rss_peak_mib']:.0f} | "
          f"{s['rss_peak_mib'] / t['rss_peak_mib']:.2f}x |")
    print(f"| RSS added by training (VmHWM - RSS before step 1), MiB | {s['train_mib']:.0f} | "
          f"{t['train_mib']:.0f} | {s['train_mib'] / t['train_mib']:.2f}x |")


if __name__ == "__main__":
    sys.exit(main())
