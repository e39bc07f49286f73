#!/usr/bin/python3
"""Validation perplexity of a trained example Llama in each precision it can be served in:
eager float32, eager bfloat16 (paddle.amp.auto_cast O1: matmuls in bf16, fp32 accumulation)
and the predictor on a saved forward program: float32, bfloat16 (Config.enable_mkldnn_bfloat16,
the same casts as auto_cast O1), weight-only int8 linears (Config.enable_weight_only_int8) and
LLM.int8 linears (Config.enable_mkldnn_int8: int8 activations too). The validation split is
train.py's (the last 5% of the corpus' tokens), cut into non-overlapping windows of the run's
sequence length.

    PYTHONPATH=python /usr/bin/python3 examples/llama/perplexity.py --run runs/llama
"""
import argparse
import math
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import skiff as paddle  # noqa: E402
import skiff.inference as paddle_infer  # noqa: E402

from corpus import load_or_build  # noqa: E402
from export import export_forward, load_run  # noqa: E402


def validation_windows(run_dir, tok, seq_len, batch):
    """train.py's validation tokens as [N, batch, seq_len + 1] windows (whole batches only)."""
    text = load_or_build(os.path.join(run_dir, "corpus.txt"), None)
    tokens = np.array(tok.encode(text), dtype=np.int64)
    n_val = max(len(tokens) // 20, seq_len * 4)
    val = tokens[-n_val:]
    n = (len(val) - 1) // seq_len
    n -= n % batch
    if n == 0:
        sys.exit(f"the validation split ({len(val)} tokens) is shorter than one batch")
    windows = np.stack([val[i * seq_len:i * seq_len + seq_len + 1] for i in range(n)])
    return windows.reshape(n // batch, batch, seq_len + 1)


def nll_of_logits(logits, targets):
    """Summed negative log-likelihood of targets under float32 logits [..., V] (numpy)."""
    z = logits.astype(np.float64)
    z -= z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -np.take_along_axis(logp, targets[..., None], axis=-1).sum()


def eager_nll(model, batches, dtype=None):
    total = 0.0
    with paddle.no_grad():
        for w in batches:
            x = paddle.to_tensor(w[:, :-1])
            if dtype is None:
                logits = model(x)
            else:
                with paddle.amp.auto_cast(dtype=dtype, level="O1"):
                    logits = model(x)
            total += nll_of_logits(logits.astype("float32").numpy(), w[:, 1:])
    return total


def predictor_nll(model_dir, batches, int8=False, bf16=False, llm_int8=False):
    config = paddle_infer.Config(os.path.join(model_dir, "forward.pdmodel"),
                                 os.path.join(model_dir, "forward.pdiparams"))
    config.enable_weight_only_int8(int8)
    if llm_int8:
        config.enable_mkldnn_int8()
    if bf16:
        config.enable_mkldnn_bfloat16()
    p = paddle_infer.create_predictor(config)
    ids = p.get_input_handle(p.get_input_names()[0])
    out = p.get_output_handle(p.get_output_names()[0])
    total = 0.0
    for w in batches:
        x = np.ascontiguousarray(w[:, :-1])
        ids.reshape(list(x.shape))
        ids.copy_from_cpu(x)
        p.run()
        total += nll_of_logits(out.copy_to_cpu(), w[:, 1:])
    return total


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run", default="runs/llama", help="train.py's run directory")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--max-batches", type=int, default=None, help="evaluate only this many")
    args = p.parse_args(argv)
    model, tok = load_run(args.run)
    model.eval()
    meta = paddle.load(os.path.join(args.run, "ckpt", "meta.pkl"))
    seq_len = int(meta["args"]["seq_len"])
    batches = validation_windows(args.run, tok, seq_len, args.batch_size)[:args.max_batches]
    n_tokens = batches.shape[0] * batches.shape[1] * seq_len
    print(f"run {args.run}: step {meta['step']}, {n_tokens:,} validation tokens in windows of "
          f"{seq_len}")
    rows = [("eager float32", eager_nll(model, batches)),
            ("eager bfloat16 (auto_cast O1)", eager_nll(model, batches, "bfloat16"))]
    with tempfile.TemporaryDirectory() as d:
        export_forward(model, os.path.join(d, "forward"), args.batch_size, seq_len)
        rows.append(("predictor float32", predictor_nll(d, batches)))
        rows.append(("predictor bfloat16 (enable_mkldnn_bfloat16)",
                     predictor_nll(d, batches, bf16=True)))
        rows.append(("predictor weight-only int8", predictor_nll(d, batches, int8=True)))
        rows.append(("predictor LLM.int8 (enable_mkldnn_int8)",
                     predictor_nll(d, batches, llm_int8=True)))
    base = rows[0][1] / n_tokens
    print("\n| precision | loss (nats/token) | perplexity | vs float32 |")
    print("|---|---|---|---|")
    for name, nll in rows:
        loss = nll / n_tokens
        print(f"| {name} | {loss:.5f} | {math.exp(loss):.3f} | "
              f"{100 * (math.exp(loss - base) - 1):+.2f}% |")


if __name__ == "__main__":
    main()
