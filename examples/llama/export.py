"""Saves a trained example Llama for serving: two inference programs with an explicit KV cache,
which the C++ generator (examples/cpp/generate.cc) and paddle.inference run.

  <out>/prefill.pdmodel/.pdiparams  ids [1, T], positions [T] int64
                                    -> logits [1, V], then k0, v0, k1, v1, ... [1, T, H, hd]
  <out>/decode.pdmodel/.pdiparams   token [1, 1], position [1] int64, k0, v0, ... [1, P, H, hd]
                                    -> logits [1, V], then the caches [1, P + 1, H, hd]
  <out>/tokenizer.json              the run's byte-level BPE (tokenizer.py's format)
  <out>/generator.json              what the generator needs to drive the programs

Both programs are Llama.forward_cached captured with two input signatures (T and P dynamic);
the caches hold keys after RoPE, so a decode step only embeds, rotates and attends one token.

Run (after train.py):
  PYTHONPATH=python /usr/bin/python3 examples/llama/export.py --run runs/llama
  build/bin/llama_generate runs/llama/serve --prompt "The " --max-new-tokens 100
"""
import argparse
import json
import os
import sys

import skiff as paddle
import skiff.nn as nn
from skiff.static import InputSpec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import Llama, LlamaConfig  # noqa: E402
from tokenizer import ByteBPE  # noqa: E402

FORMAT = "skiff-llama-generator"
FORMAT_VERSION = 1


def _flat(logits, caches):
    return [logits] + [t for kv in caches for t in kv]


class Prefill(nn.Layer):
    """The prompt: every position at once, causal attention, caches built from nothing."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids, positions):
        return _flat(*self.model.forward_cached(ids, positions))


class Decode(nn.Layer):
    """One token at `position` against the caches of every earlier position."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, token, position, *caches):
        pairs = [(caches[2 * i], caches[2 * i + 1]) for i in range(len(caches) // 2)]
        return _flat(*self.model.forward_cached(token, position, pairs))


class Forward(nn.Layer):
    """The whole-sequence forward (ids [B, T] -> logits [B, T, V]) as its own program, for
    serving without a cache (perplexity.py, bench/inference_bench.py)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids):
        return self.model(ids)


def export_forward(model, path, batch, seq_len):
    """jit.save of Forward for ids [batch, seq_len] (None: any) at `path` (a prefix)."""
    model.eval()
    paddle.jit.save(Forward(model), path, input_spec=[InputSpec([batch, seq_len], "int64", "ids")])


def cache_specs(cfg, length):
    hd = cfg.dim // cfg.n_heads
    specs = []
    for i in range(cfg.n_layers):
        for kind in ("k", "v"):
            specs.append(InputSpec([1, length, cfg.n_heads, hd], "float32", f"{kind}{i}"))
    return specs


def export_generator(model, tokenizer, out_dir):
    """Writes the two programs, the tokenizer and generator.json into out_dir."""
    cfg = model.cfg
    model.eval()
    os.makedirs(out_dir, exist_ok=True)
    paddle.jit.save(Prefill(model), os.path.join(out_dir, "prefill"),
                    input_spec=[InputSpec([1, None], "int64", "ids"),
                                InputSpec([None], "int64", "positions")])
    paddle.jit.save(Decode(model), os.path.join(out_dir, "decode"),
                    input_spec=[InputSpec([1, 1], "int64", "token"),
                                InputSpec([1], "int64", "position")] + cache_specs(cfg, None))
    tokenizer.save(os.path.join(out_dir, "tokenizer.json"))
    meta = {"format": FORMAT, "version": FORMAT_VERSION, "vocab_size": cfg.vocab_size,
            "n_layers": cfg.n_layers, "n_heads": cfg.n_heads, "head_dim": cfg.dim // cfg.n_heads,
            "max_seq_len": cfg.max_seq_len, "prefill": "prefill", "decode": "decode",
            "tokenizer": "tokenizer.json"}
    tmp = os.path.join(out_dir, "generator.json.tmp")
    with open(tmp, "w") as f:
        json.dump(meta, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, os.path.join(out_dir, "generator.json"))


def load_run(run_dir):
    """The model and tokenizer of a train.py run directory (its latest checkpoint)."""
    meta_path = os.path.join(run_dir, "ckpt", "meta.pkl")
    if not os.path.exists(meta_path):
        sys.exit(f"no checkpoint in {os.path.join(run_dir, 'ckpt')}: run train.py first")
    meta = paddle.load(meta_path)
    model = Llama(LlamaConfig(**meta["config"]))
    model.set_state_dict(paddle.load(os.path.join(run_dir, "ckpt", "model.pdparams")))
    return model, ByteBPE.load(os.path.join(run_dir, "tokenizer.json"))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run", default="runs/llama", help="train.py's run directory")
    p.add_argument("--out", default=None, help="where to write (default: <run>/serve)")
    args = p.parse_args(argv)
    out = args.out or os.path.join(args.run, "serve")
    model, tok = load_run(args.run)
    export_generator(model, tok, out)
    print(f"wrote {out}: prefill and decode programs, tokenizer.json, generator.json")


if __name__ == "__main__":
    main()
