#!/usr/bin/python3
"""Trains the small Llama of model.py on the corpus of corpus.py and samples text.

    /usr/bin/python3 examples/llama/train.py                 # ~8 min on 2 cores, then samples
    /usr/bin/python3 examples/llama/train.py --resume        # continue from the last checkpoint
    /usr/bin/python3 examples/llama/train.py --sample-only --prompt "The"
    /usr/bin/python3 examples/llama/train.py --nproc 2           # data parallel on 2 ranks
    /usr/bin/python3 examples/llama/train.py --nproc 4 --mp 2    # dp2 x mp2

Everything it writes (corpus cache, tokenizer, checkpoints) goes to --out (default
runs/llama); checkpoints are written atomically every --ckpt-every steps and at the end.

With --nproc N the script starts itself as N ranks through the launcher (python -m
skiff.distributed.launch, logs in <out>/log; rank 0's output is streamed) and trains with
automatic parallelism on a dp x mp ProcessMesh (--mp, --dp): dist.parallelize shards the
linears by Paddle's Llama plan (column-parallel q/k/v/gate/up and embedding, row-parallel
o/down, the head's weight by vocabulary), shard_dataloader gives each dp rank its part of each
global batch of --batch-size sequences (the batches one process trains on, so the losses match
it), and checkpoints are written by dist.save_state_dict. Started by the launcher directly, the
job's world size is dp x mp."""
import argparse
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from omp_threads import choose_threads  # noqa: E402  (before skiff: sets OpenMP's threads)

_THREADS_NOTE = choose_threads(sys.argv[1:])

import skiff as paddle  # noqa: E402
from skiff.io import DataLoader, Dataset  # noqa: E402

from corpus import load_or_build  # noqa: E402
from model import Llama, LlamaConfig, flops_per_token, num_params  # noqa: E402
from tokenizer import ByteBPE  # noqa: E402
import parallel  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--out", default="runs/llama", help="run directory")
    p.add_argument("--vocab", type=int, default=1024, help="BPE vocabulary size")
    p.add_argument("--dim", type=int, default=192)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--hidden", type=int, default=512, help="SwiGLU hidden size")
    p.add_argument("--tie", action="store_true", help="tie the output head to the embedding")
    p.add_argument("--seq-len", type=int, default=128)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--steps", type=int, default=3000,
                   help="training steps (or fewer: see --max-minutes)")
    p.add_argument("--max-minutes", type=float, default=8.0,
                   help="stop training after this many minutes (then checkpoint and sample)")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--min-lr", type=float, default=3e-4)
    p.add_argument("--warmup", type=int, default=50)
    p.add_argument("--weight-decay", type=float, default=0.1)
    p.add_argument("--clip", type=float, default=1.0, help="global gradient norm clip")
    p.add_argument("--ckpt-every", type=int, default=200)
    p.add_argument("--eval-every", type=int, default=200)
    p.add_argument("--resume", action="store_true", help="continue from <out>/ckpt")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--to-static", action="store_true",
                   help="capture the whole training step (forward, backward, clip, AdamW) into "
                        "one program with paddle.jit.to_static")
    p.add_argument("--profile", action="store_true",
                   help="profile training steps 2-4 of this run: a Chrome trace (Perfetto) in "
                        "<out>/profile/ next to the checkpoint, and the summary tables printed")
    p.add_argument("--sample-only", action="store_true", help="load the checkpoint and sample")
    p.add_argument("--prompt", default="The ")
    p.add_argument("--sample-tokens", type=int, default=200)
    p.add_argument("--temperature", type=float, default=0.8)
    p.add_argument("--top-k", type=int, default=40)
    p.add_argument("--corpus-bytes", type=int, default=None, help="use only this much text")
    p.add_argument("--nproc", type=int, default=1,
                   help="ranks: N > 1 starts this script N times through the launcher")
    p.add_argument("--mp", type=int, default=1,
                   help="tensor-parallel degree (the mesh's 'mp' dim)")
    p.add_argument("--dp", type=int, default=None,
                   help="data-parallel degree (the mesh's 'dp' dim; default: ranks / mp)")
    p.add_argument("--threads", default="auto",
                   help="compute threads: a number, or auto (all cores unless the machine is "
                        "busy); OMP_NUM_THREADS wins")
    return p.parse_args(argv)


class TokenWindows(Dataset):
    """Non-overlapping windows of seq_len + 1 tokens: (input, target) shifted by one."""

    def __init__(self, tokens, seq_len):
        self.tokens = tokens
        self.seq_len = seq_len

    def __len__(self):
        return (len(self.tokens) - 1) // self.seq_len

    def __getitem__(self, i):
        s = i * self.seq_len
        w = self.tokens[s:s + self.seq_len + 1]
        return w[:-1], w[1:]


class Progress:
    """One status line: step, loss, tokens/s, ETA (a new line per update when not a TTY)."""

    def __init__(self, total, every=10, quiet=False):
        self.total = total
        self.tty = sys.stdout.isatty() and not quiet
        self.every = 1 if self.tty else every
        self.quiet = quiet  # ranks other than 0 of a distributed job

    def update(self, step, loss, tok_s, eta_s, extra=""):
        if self.quiet or (step % self.every and step != self.total):
            return
        frac = step / self.total
        bar = "#" * int(24 * frac) + "." * (24 - int(24 * frac))
        eta = f"{int(eta_s // 60)}m{int(eta_s % 60):02d}s"
        line = (f"step {step:5d}/{self.total} [{bar}] loss {loss:.4f} | {tok_s:,.0f} tok/s | "
                f"ETA {eta}{extra}")
        if self.tty:
            sys.stdout.write("\r" + line + "\033[K")
        else:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def newline(self):
        if self.tty:
            sys.stdout.write("\n")
            sys.stdout.flush()


def lr_at(step, time_frac, args):
    """Linear warm-up, then cosine decay to min_lr over whichever budget runs out first: the
    steps or the time limit (so a slow machine still ends its run annealed)."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    t = min(1.0, max((step - args.warmup) / max(1, args.steps - args.warmup), time_frac))
    return args.min_lr + 0.5 * (args.lr - args.min_lr) * (1 + math.cos(math.pi * t))


def prepare_data(args):
    os.makedirs(args.out, exist_ok=True)
    text = load_or_build(os.path.join(args.out, "corpus.txt"), args.corpus_bytes)
    tok_path = os.path.join(args.out, "tokenizer.json")
    if os.path.exists(tok_path):
        tok = ByteBPE.load(tok_path)
    else:
        t0 = time.time()
        tok = ByteBPE.train(text[:1_000_000], args.vocab)
        tok.save(tok_path)
        print(f"tokenizer: byte-level BPE, {tok.vocab_size} tokens, trained in "
              f"{time.time() - t0:.1f} s")
    tokens = np.array(tok.encode(text), dtype=np.int64)
    n_val = max(len(tokens) // 20, args.seq_len * 4)
    return tok, tokens[:-n_val], tokens[-n_val:], len(text)


def evaluate(model, val, args, batches=8):
    model.eval()
    ds = TokenWindows(val, args.seq_len)
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=False, drop_last=True)
    losses = []
    with paddle.no_grad():
        for i, (x, y) in enumerate(loader):
            if i >= batches:
                break
            losses.append(float(model.loss(x, y)))
    model.train()
    return float(np.mean(losses)) if losses else float("nan")


def save_checkpoint(model, opt, step, args, cfg, rng_state, job=None):
    """model.pdparams and opt.pdopt, or with a job one dist.save_state_dict directory (dist/,
    readable into any mesh), plus meta.pkl; meta.pkl is written last, so it names a complete
    checkpoint."""
    ckpt = os.path.join(args.out, "ckpt")
    os.makedirs(ckpt, exist_ok=True)
    if job is not None:
        job.save(model, opt, os.path.join(ckpt, "dist"))
    else:
        paddle.save(model.state_dict(), os.path.join(ckpt, "model.pdparams"))
        paddle.save(opt.state_dict(), os.path.join(ckpt, "opt.pdopt"))
    if job is None or job.is_main:
        paddle.save({"step": step, "config": cfg.to_dict(), "args": vars(args),
                     "numpy_rng": rng_state, "distributed": job is not None},
                    os.path.join(ckpt, "meta.pkl"))


def sample(model, tok, args, show=True):
    """Samples --sample-tokens after --prompt (every rank of a job runs it; `show` prints)."""
    rng = np.random.default_rng(args.seed)
    prompt_ids = tok.encode(args.prompt) or [0]
    idx = paddle.to_tensor(np.array([prompt_ids], dtype=np.int64))
    t0 = time.time()
    out = model.generate(idx, args.sample_tokens, temperature=args.temperature,
                         top_k=args.top_k, rng=rng)
    dt = time.time() - t0
    if not show:
        return
    print(f"\n--- sample (temperature {args.temperature}, top-k {args.top_k}, "
          f"{args.sample_tokens} tokens in {dt:.1f} s) ---")
    print(args.prompt + tok.decode(out.tolist()))
    print("---")


def start_profiler(args, progress):
    """Records steps [2, 5) of this run (step 1 prepares; later steps run unprofiled) with op
    input shapes and allocator events; the trace goes to <out>/profile/, the summary to stdout."""
    trace_dir = os.path.join(args.out, "profile")
    export = paddle.profiler.export_chrome_tracing(trace_dir, worker_name="llama")

    def on_trace_ready(prof):
        export(prof)
        progress.newline()
        prof.summary(sorted_by=paddle.profiler.SortedKeys.CPUTotal, op_detail=True,
                     time_unit="ms")
        print(f"profile: trace of steps 2-4 in {trace_dir} (open it in https://ui.perfetto.dev)")

    prof = paddle.profiler.Profiler(scheduler=(2, 5), on_trace_ready=on_trace_ready,
                                    record_shapes=True, profile_memory=True)
    prof.start()
    return prof


def start_job(args, argv):
    """The distributed job this process is a rank of (None for one process), or the exit code
    of the job it started through the launcher (--nproc N outside one)."""
    world = parallel.launched_world()
    if world == 1 and args.nproc > 1:
        parallel.mesh_sizes(args.nproc, args.nproc, args.dp, args.mp, args.batch_size)
        return parallel.relaunch(os.path.abspath(__file__), argv, args.nproc,
                                 os.path.join(args.out, "log"))
    if world == 1:
        if args.mp > 1 or (args.dp or 1) > 1:
            sys.exit(f"--dp {args.dp or 1} x --mp {args.mp} needs that many ranks: pass --nproc")
        return None
    if args.to_static:
        sys.exit("--to-static is not supported with --nproc (eager automatic parallelism only)")
    return parallel.Job(world, args.nproc, args.dp, args.mp, args.batch_size)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    job = start_job(args, argv)
    if isinstance(job, int):
        return job
    main_rank = job is None or job.is_main
    log = print if main_rank else (lambda *a, **k: None)
    paddle.seed(args.seed)
    np.random.seed(args.seed)
    t_start = time.time()
    if job is not None and not job.is_main:
        job.barrier()  # rank 0 builds the corpus cache and the tokenizer first
    tok, train, val, n_chars = prepare_data(args)
    if job is not None and job.is_main:
        job.barrier()
    meta_path = os.path.join(args.out, "ckpt", "meta.pkl")
    start_step = 0
    meta = None
    if args.resume or args.sample_only:
        if not os.path.exists(meta_path):
            sys.exit(f"no checkpoint in {os.path.join(args.out, 'ckpt')}: train first")
        meta = paddle.load(meta_path)
        if meta.get("distributed", False) != (job is not None):
            sys.exit("the checkpoint was written by a " +
                     ("distributed" if meta.get("distributed") else "one-process") +
                     " run: resume it the same way (--nproc)")
        cfg = LlamaConfig(**meta["config"])
        start_step = meta["step"]
    else:
        cfg = LlamaConfig(vocab_size=tok.vocab_size, dim=args.dim, n_layers=args.layers,
                          n_heads=args.heads, hidden_dim=args.hidden, max_seq_len=args.seq_len,
                          tie_embeddings=args.tie)
    model = Llama(cfg)
    log(f"corpus: {n_chars:,} characters -> {len(train) + len(val):,} tokens "
        f"({len(train):,} train, {len(val):,} validation)")
    log(f"threads: {_THREADS_NOTE}")
    log(f"model: {num_params(model) / 1e6:.2f} M parameters, dim {cfg.dim}, {cfg.n_layers} "
        f"layers, {cfg.n_heads} heads, SwiGLU {cfg.hidden_dim}, vocab {cfg.vocab_size}, "
        f"{'tied' if cfg.tie_embeddings else 'untied'} head")
    clip = paddle.nn.ClipGradByGlobalNorm(args.clip) if args.clip > 0 else None
    decay = {n for n, p in model.named_parameters() if len(p.shape) == 2}
    names = {p.name: n for n, p in model.named_parameters()}
    opt = paddle.optimizer.AdamW(learning_rate=args.lr, parameters=model.parameters(),
                                 beta1=0.9, beta2=0.95, weight_decay=args.weight_decay,
                                 grad_clip=clip,
                                 apply_decay_param_fun=lambda n: names.get(n) in decay)
    if job is not None:
        log(f"parallel: {job.describe()}")
        model, opt = job.parallelize(model, opt, cfg)
    if meta is not None:
        ckpt = os.path.join(args.out, "ckpt")
        if job is not None:
            job.load(model, opt, os.path.join(ckpt, "dist"), cfg.max_seq_len)
        else:
            model.set_state_dict(paddle.load(os.path.join(ckpt, "model.pdparams")))
            opt.set_state_dict(paddle.load(os.path.join(ckpt, "opt.pdopt")))
        if meta.get("numpy_rng") is not None:
            np.random.set_state(meta["numpy_rng"])
        log(f"resumed from step {start_step}")
    if args.sample_only:
        model.eval()
        sample(model, tok, args, main_rank)
        return None

    dataset = TokenWindows(train, args.seq_len)
    if job is not None:
        loader = job.loader(dataset, args.batch_size, shuffle=True)
    else:
        loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True, drop_last=True)
    tokens_per_step = args.batch_size * args.seq_len
    log(f"training: {args.steps} steps of {args.batch_size} x {args.seq_len} tokens, AdamW "
        f"lr {args.lr} (warm-up {args.warmup}, cosine to {args.min_lr} over the steps or the "
        f"time limit), at most "
        f"{args.max_minutes} min; initial validation loss {evaluate(model, val, args, 2):.3f} "
        f"(uniform guess: {math.log(cfg.vocab_size):.3f})")
    def train_step(x, y):
        loss = model.loss(x, y)
        loss.backward()
        opt.step()
        opt.clear_grad(set_to_zero=False)
        return loss

    if args.to_static:
        train_step = paddle.jit.to_static(train_step)
    progress = Progress(args.steps, quiet=not main_rank)
    prof = start_profiler(args, progress) if args.profile else None
    step = start_step
    t_train = time.time()
    done_tokens = 0
    ema = None
    stopped_early = False
    losses = []
    while step < args.steps:
        for x, y in loader:
            if step >= args.steps:
                break
            time_frac = (time.time() - t_start) / (args.max_minutes * 60)
            if job is not None:  # one learning rate and one last step for all ranks
                time_frac = job.agree(time_frac)
            if time_frac > 1 and step > start_step:
                stopped_early = True
                break
            opt.set_lr(lr_at(step, time_frac, args))
            loss = train_step(x, y)
            if prof is not None:
                prof.step(num_samples=tokens_per_step)
            step += 1
            done_tokens += tokens_per_step
            lv = float(loss)
            losses.append(lv)
            ema = lv if ema is None else 0.9 * ema + 0.1 * lv
            elapsed = time.time() - t_train
            tok_s = done_tokens / elapsed
            remaining_steps = args.steps - step
            eta = min(remaining_steps * tokens_per_step / tok_s,
                      max(0.0, args.max_minutes * 60 - (time.time() - t_start)))
            extra = ""
            if step % args.eval_every == 0 or step == args.steps:
                extra = f" | val {evaluate(model, val, args):.3f}"
            progress.update(step, ema, tok_s, eta, extra)
            if extra:
                progress.newline()
            if step % args.ckpt_every == 0:
                save_checkpoint(model, opt, step, args, cfg, np.random.get_state(), job)
        if stopped_early:
            break
    progress.newline()
    if prof is not None:
        prof.stop()
    save_checkpoint(model, opt, step, args, cfg, np.random.get_state(), job)
    train_s = time.time() - t_train
    val_loss = evaluate(model, val, args)
    log(f"trained {step - start_step} steps in {train_s / 60:.1f} min "
        f"({done_tokens / max(train_s, 1e-9):,.0f} tokens/s, "
        f"~{3 * flops_per_token(cfg, args.seq_len) * done_tokens / max(train_s, 1e-9) / 1e9:.1f}"
        f" GFLOP/s); validation loss {val_loss:.3f}"
        + (" (stopped at the time limit; --resume continues)" if stopped_early else ""))
    log(f"checkpoint: {os.path.join(args.out, 'ckpt')}")
    if main_rank:
        with open(os.path.join(args.out, "config.json"), "w") as f:
            json.dump(cfg.to_dict(), f, indent=1)
        with open(os.path.join(args.out, "train_log.json"), "w") as f:
            json.dump({"first_step": start_step, "losses": losses, "validation_loss": val_loss,
                       "tokens_per_s": done_tokens / max(train_s, 1e-9),
                       "ranks": 1 if job is None else job.dp * job.mp}, f)
    model.eval()
    sample(model, tok, args, main_rank)
    return None


if __name__ == "__main__":
    sys.exit(main())
