#!/usr/bin/python3
"""Serving the small Llama: the predictor against Skiff eager and against tuned torch, in one
sitting with alternating rounds (the machine is shared; the ratios are the measure).

The model is the peer's (../shared/bench/PEERS.md: vocab 4096, dim 256, 4 layers, 4 heads,
SwiGLU 688, untied head; 5.26 M parameters), built from examples/llama/model.py with random
weights. Per round:
- forward B=1 T=256: Skiff eager under no_grad, the predictor (float32, bfloat16 matmuls,
  weight-only int8 and LLM.int8) on a `jit.save`d forward, torch under inference_mode
  (peer_torch.py llama);
- greedy decode, prompt 128 tokens -> +128, prefill counted (peer_torch.py's measure): the C++
  generator (build/bin/llama_generate on export.py's prefill/decode programs) in the same three
  precisions, against torch's KV-cache decode;
- serving: forward runs per second of 1 predictor on 1 thread against N clones on N threads
  (one math thread each);
- load time of the saved forward, and its planned against measured peak of run buffers.

    /usr/bin/python3 bench/inference_bench.py --rounds 3        # BENCH_THREADS=2
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED_BENCH = os.path.abspath(os.path.join(ROOT, "..", "shared", "bench"))
PEER_ENV = os.environ.get("SKIFF_PEER_ENV", os.path.join(SHARED_BENCH, "peer_env.sh"))
PEER_TORCH = os.environ.get("SKIFF_PEER_TORCH", os.path.join(SHARED_BENCH, "peer_torch.py"))
GENERATOR = os.path.join(ROOT, "build", "bin", "llama_generate")
T = 256
PROMPT, NEW = 128, 128


def timeit(fn, reps=7, min_time=0.3):
    """Median seconds per call over `reps` repetitions of a loop lasting >= min_time (as
    peer_torch.py times, so both sides are measured the same way)."""
    fn()
    fn()
    t0 = time.perf_counter()
    fn()
    inner = max(1, int(min_time / max(time.perf_counter() - t0, 1e-7)))
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        out.append((time.perf_counter() - t0) / inner)
    return statistics.median(out)


# ---- the Skiff side (run in its own process) ----

def _skiff_modules():
    sys.path.insert(0, os.path.join(ROOT, "python"))
    sys.path.insert(0, os.path.join(ROOT, "examples", "llama"))
    import skiff as paddle
    import skiff.inference as paddle_infer
    from model import Llama, LlamaConfig
    return paddle, paddle_infer, Llama, LlamaConfig


def _prepare(work):
    """Saves the forward program and the generator's programs of one random model into
    `work` (once per sitting: every round loads the same files)."""
    paddle, _, Llama, LlamaConfig = _skiff_modules()
    import corpus
    from export import export_forward, export_generator
    from tokenizer import ByteBPE
    paddle.seed(0)
    model = Llama(LlamaConfig())
    model.eval()

    export_forward(model, os.path.join(work, "forward"), 1, T)
    text = corpus.build_corpus(400_000)
    tok = ByteBPE.train(text, model.cfg.vocab_size)
    export_generator(model, tok, os.path.join(work, "serve"))
    paddle.save(model.state_dict(), os.path.join(work, "model.pdparams"))
    # A prompt of PROMPT tokens: the decoded text of the corpus' first PROMPT tokens.
    prompt = tok.decode(tok.encode(text[:4000])[:PROMPT])
    with open(os.path.join(work, "prompt.txt"), "w", encoding="utf-8") as f:
        f.write(prompt)


PRECISIONS = {"fp32": "float32", "bf16": "bfloat16 matmuls", "int8": "weight-only int8",
              "llm_int8": "LLM.int8 (int8 GEMMs)"}


def _predictor(paddle_infer, work, precision="fp32", threads=None):
    config = paddle_infer.Config(os.path.join(work, "forward.pdmodel"),
                                 os.path.join(work, "forward.pdiparams"))
    config.enable_weight_only_int8(precision == "int8")
    if precision == "llm_int8":
        config.enable_mkldnn_int8()
    if precision == "bf16":
        config.enable_mkldnn_bfloat16()
    if threads is not None:
        config.set_cpu_math_library_num_threads(threads)
    t0 = time.perf_counter()
    p = paddle_infer.create_predictor(config)
    return p, time.perf_counter() - t0


def _feed(p, ids):
    h = p.get_input_handle(p.get_input_names()[0])
    h.reshape(list(ids.shape))
    h.copy_from_cpu(ids)


def _serving(paddle_infer, work, ids, clones, seconds=1.5):
    """Forward runs per second of `clones` predictors (one clone each, one math thread each)
    running at once on their own threads."""
    base, _ = _predictor(paddle_infer, work, threads=1)
    preds = [base] + [base.clone() for _ in range(clones - 1)]
    counts = [0] * clones
    start = threading.Barrier(clones + 1)
    stop = threading.Event()

    def serve(i):
        p = preds[i]
        _feed(p, ids)
        p.run()
        start.wait()
        while not stop.is_set():
            _feed(p, ids)
            p.run()
            counts[i] += 1

    threads = [threading.Thread(target=serve, args=(i,)) for i in range(clones)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - t0)


def _generate(work, precision, threads):
    with open(os.path.join(work, "prompt.txt"), encoding="utf-8") as f:
        prompt = f.read()
    cmd = [GENERATOR, os.path.join(work, "serve"), "--prompt", prompt, "--greedy",
           "--max-new-tokens", str(NEW), "--threads", str(threads)]
    cmd += {"fp32": [], "bf16": ["--bf16"], "int8": ["--int8"],
            "llm_int8": ["--llm-int8"]}[precision]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"llama_generate failed ({r.returncode}): {r.stderr[-2000:]}")
    m = re.search(r"load ([\d.]+) s .*prompt (\d+) tokens, prefill ([\d.]+) ms; (\d+) decode "
                  r"steps, ([\d.]+) ms/token", r.stderr)
    if m is None:
        sys.exit(f"unexpected llama_generate output: {r.stderr[-2000:]}")
    load_s, n_prompt, prefill_ms, steps, ms_token = (float(g) for g in m.groups())
    total_s = (prefill_ms + steps * ms_token) / 1e3
    # peer_torch.py counts NEW tokens over prefill + decode: the first comes from prefill.
    return {"tok_s": (steps + 1) / total_s, "ms_token": ms_token, "prefill_ms": prefill_ms,
            "prompt_tokens": n_prompt, "load_s": load_s}


def run_skiff(work, threads):
    paddle, paddle_infer, Llama, LlamaConfig = _skiff_modules()
    model = Llama(LlamaConfig())
    model.set_state_dict(paddle.load(os.path.join(work, "model.pdparams")))
    model.eval()
    ids = np.random.default_rng(0).integers(0, model.cfg.vocab_size, (1, T)).astype(np.int64)
    x = paddle.to_tensor(ids)
    res = {}
    with paddle.no_grad():
        res["eager_fwd_ms"] = 1e3 * timeit(lambda: model(x))
        eager_logits = model(x).numpy()
    for key in PRECISIONS:
        p, load_s = _predictor(paddle_infer, work, key, threads)

        def run():
            _feed(p, ids)
            p.run()

        res[f"pred_{key}_fwd_ms"] = 1e3 * timeit(run)
        out = p.get_output_handle(p.get_output_names()[0]).copy_to_cpu()
        res[f"pred_{key}_max_abs_diff"] = float(np.abs(out - eager_logits).max())
        res[f"pred_{key}_load_s"] = load_s
        res[f"pred_{key}_planned_mib"] = p.planned_peak_bytes() / 2**20
        res[f"pred_{key}_measured_mib"] = p.measured_peak_bytes() / 2**20
        gen = _generate(work, key, threads)
        res[f"gen_{key}_tok_s"] = gen["tok_s"]
        res[f"gen_{key}_ms_token"] = gen["ms_token"]
        res["prompt_tokens"] = gen["prompt_tokens"]
    res["serve_1_per_s"] = _serving(paddle_infer, work, ids, 1)
    res[f"serve_{threads}_per_s"] = _serving(paddle_infer, work, ids, threads)
    return res


# ---- the torch side: peer_torch.py llama under the tuned environment ----

def run_torch(threads):
    env = dict(os.environ, BENCH_THREADS=str(threads))
    r = subprocess.run([PEER_ENV, "/usr/bin/python3", PEER_TORCH, "llama"], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"peer_torch.py failed ({r.returncode}): {r.stderr[-2000:]}")
    fwd = re.search(r"llama inference fwd B=1 T=256 fp32: median ([\d.]+) ms", r.stdout)
    kv = re.search(r"with KV cache \(prefill counted\): median ([\d.]+) tok/s", r.stdout)
    if fwd is None or kv is None:
        sys.exit(f"unexpected peer_torch.py output:\n{r.stdout[-3000:]}")
    return {"fwd_ms": float(fwd.group(1)), "kv_tok_s": float(kv.group(1))}


def _side(name, args, work):
    cmd = ["/usr/bin/python3", os.path.abspath(__file__), "--side", name, "--work", work,
           "--threads", str(args.threads)]
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode != 0 or not lines:
        sys.exit(f"{name} side failed ({r.returncode}):\n{r.stderr[-3000:]}")
    return json.loads(lines[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=int(os.environ.get("BENCH_THREADS", "2")))
    p.add_argument("--side", choices=("skiff", "torch", "prepare"), default=None,
                   help=argparse.SUPPRESS)
    p.add_argument("--work", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.side == "prepare":
        _prepare(args.work)
        return
    if args.side == "skiff":
        print(json.dumps(run_skiff(args.work, args.threads)))
        return
    if args.side == "torch":
        print(json.dumps(run_torch(args.threads)))
        return
    for path in (GENERATOR, PEER_ENV, PEER_TORCH):
        if not os.path.exists(path):
            sys.exit(f"{path} is missing (build first; the peer scripts live in ../shared/bench)")
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["/usr/bin/python3", os.path.abspath(__file__), "--side", "prepare",
                        "--work", work], check=True)
        res = {"skiff": [], "torch": []}
        for r in range(args.rounds):
            for side in (("torch", "skiff") if r % 2 else ("skiff", "torch")):
                res[side].append(run_torch(args.threads) if side == "torch"
                                 else _side("skiff", args, work))
                print(f"round {r + 1} {side}: {json.dumps(res[side][-1])}", flush=True)
    med = {side: {k: statistics.median(x[k] for x in xs) for k in xs[0]}
           for side, xs in res.items()}
    s, t = med["skiff"], med["torch"]
    n = args.threads
    print(f"\nmedians of {args.rounds} rounds, {n} threads; model 5.26 M parameters, "
          f"prompt {s['prompt_tokens']:.0f} tokens\n")
    print("| what | Skiff | torch 1.13 tuned | ratio |")
    print("|---|---|---|---|")
    print(f"| forward B=1 T={T}, eager | {s['eager_fwd_ms']:.2f} ms | {t['fwd_ms']:.2f} ms | "
          f"{s['eager_fwd_ms'] / t['fwd_ms']:.2f}x time |")
    for key, label in PRECISIONS.items():
        print(f"| forward B=1 T={T}, predictor {label} | {s[f'pred_{key}_fwd_ms']:.2f} ms | "
              f"{t['fwd_ms']:.2f} ms | {s[f'pred_{key}_fwd_ms'] / t['fwd_ms']:.2f}x time |")
    for key, label in PRECISIONS.items():
        print(f"| greedy decode +{NEW}, KV cache, C++ generator {label} | "
              f"{s[f'gen_{key}_tok_s']:.0f} tok/s ({s[f'gen_{key}_ms_token']:.2f} ms/token) | "
              f"{t['kv_tok_s']:.0f} tok/s | {s[f'gen_{key}_tok_s'] / t['kv_tok_s']:.2f}x |")
    print()
    for key in ("bf16", "int8", "llm_int8"):
        print(f"- {PRECISIONS[key]} decode against float32 decode: "
              f"{s[f'gen_{key}_tok_s'] / s['gen_fp32_tok_s']:.2f}x tokens/s")
    print(f"- serving: 1 predictor on 1 thread {s['serve_1_per_s']:.1f} runs/s; {n} clones on "
          f"{n} threads {s[f'serve_{n}_per_s']:.1f} runs/s "
          f"({s[f'serve_{n}_per_s'] / s['serve_1_per_s']:.2f}x)")
    for key in PRECISIONS:
        print(f"- {key}: load {1e3 * s[f'pred_{key}_load_s']:.0f} ms; run buffers planned "
              f"{s[f'pred_{key}_planned_mib']:.1f} MiB, measured "
              f"{s[f'pred_{key}_measured_mib']:.1f} MiB; logits vs eager max abs diff "
              f"{s[f'pred_{key}_max_abs_diff']:.2e}")


if __name__ == "__main__":
    main()
