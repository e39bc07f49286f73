#!/usr/bin/python3
"""Training steps eager against to_static, and against PyTorch (bench/jit_train_peer.py, run
under ../shared/bench/peer_env.sh in the same sitting). Prints one line per (model, mode):
microseconds per step (median of rounds that alternate the modes) and the peak of the caching
allocator over everything the mode holds (parameters, gradients, optimizer state, activations,
program buffers), measured with each mode built alone.

  modes:  eager         the model in eager mode
          static        to_static(model): forward program, backward program, eager optimizer
          static_step   the whole step (forward, loss, backward, optimizer) as one program
  models: mlp           batch 32, 8 layers of width 64, tanh, MSE, Adam (small-op heavy)
          llama         vocab 256, dim 64, 2 layers, 4 heads, SwiGLU 172, seq 32, batch 4, AdamW

--overhead also prints the executor's cost per instruction: a to_static function of 512 ops on
one-element tensors (no_grad), whose run time divided by its instruction count is almost all
executor and kernel-call overhead, next to the eager per-op time of the same function in the
same run.

Run: PYTHONPATH=python OMP_NUM_THREADS=1 /usr/bin/python3 bench/jit_train.py [--rounds 5]
     [--overhead] [--models mlp,llama|none]
"""
import argparse
import gc
import os
import statistics
import sys
import time

import numpy as np

import skiff as paddle
import skiff.nn as nn
import skiff.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples", "llama"))


class DeepMLP(nn.Layer):
    def __init__(self, width=64, layers=8):
        super().__init__()
        self.layers = nn.LayerList([nn.Linear(width, width) for _ in range(layers)])

    def forward(self, x):
        for layer in self.layers:
            x = paddle.tanh(layer(x))
        return x


def make(model_name):
    """(model, loss_fn(model, batch) -> loss, batch, optimizer factory)."""
    rng = np.random.default_rng(0)
    if model_name == "mlp":
        model = DeepMLP()
        batch = [paddle.to_tensor(rng.uniform(-1, 1, (32, 64)).astype("float32")) for _ in "xy"]
        return model, lambda m, x, y: F.mse_loss(m(x), y), batch, \
            lambda ps: paddle.optimizer.Adam(learning_rate=1e-3, parameters=ps)
    from model import Llama, LlamaConfig
    cfg = LlamaConfig(vocab_size=256, dim=64, n_layers=2, n_heads=4, hidden_dim=172,
                      max_seq_len=32)
    model = Llama(cfg)
    batch = [paddle.to_tensor(rng.integers(0, 256, (4, 32)).astype("int64")) for _ in "xy"]
    return model, lambda m, x, y: m.loss(x, y), batch, \
        lambda ps: paddle.optimizer.AdamW(learning_rate=1e-3, parameters=ps)


def build(model_name, mode):
    paddle.seed(0)
    model, loss_fn, batch, make_opt = make(model_name)
    opt = make_opt(model.parameters())

    def step(*b):
        loss = loss_fn(model, *b)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    if mode == "eager":
        return lambda: step(*batch)
    if mode == "static":
        static_model = paddle.jit.to_static(model)

        def static_forward_step():
            loss = loss_fn(static_model, *batch)
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss

        return static_forward_step
    whole = paddle.jit.to_static(step)
    return lambda: whole(*batch)


def measure(fn, reps):
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps * 1e6


def footprint(model_name, mode):
    """Peak bytes of everything one mode holds while it trains: parameters, gradients,
    optimizer state, activations, the program's buffers (built alone, from a clean slate)."""
    gc.collect()
    base = paddle.device.memory_allocated()
    paddle.device.reset_max_memory_allocated()
    step = build(model_name, mode)
    for _ in range(5):
        step()
    peak = paddle.device.max_memory_allocated() - base
    del step
    gc.collect()
    return peak


def chain(x, y):
    """512 ops on tiny tensors: what an instruction costs beyond its kernel's arithmetic."""
    for _ in range(128):
        x = paddle.add(x, y)
        x = paddle.multiply(x, y)
        x = paddle.tanh(x)
        x = paddle.subtract(x, y)
    return x


def overhead(rounds):
    """Microseconds per op: eager (the op API) and per instruction of the compiled program."""
    x = paddle.to_tensor([0.5], dtype="float32")
    y = paddle.to_tensor([0.25], dtype="float32")
    static = paddle.jit.to_static(chain)
    with paddle.no_grad():
        static(x, y)
        n = static.concrete_program._forward.num_instructions
        eager, compiled = [], []
        for _ in range(rounds):
            eager.append(measure(lambda: chain(x, y), 200) / 512)
            compiled.append(measure(lambda: static(x, y), 200) / n)
    e, c = statistics.median(eager), statistics.median(compiled)
    print(f"overhead eager {e:.3f} us/op, executor {c:.3f} us/instruction ({n} instructions), "
          f"executor/eager {c / e:.2f}x")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--models", default="mlp,llama")
    ap.add_argument("--modes", default="eager,static,static_step")
    ap.add_argument("--overhead", action="store_true")
    args = ap.parse_args()
    if args.overhead:
        overhead(args.rounds)
    for model_name in [m for m in args.models.split(",") if m and m != "none"]:
        modes = args.modes.split(",")
        peaks = {m: footprint(model_name, m) for m in modes}
        steps = {m: build(model_name, m) for m in modes}
        reps = 50 if model_name == "mlp" else 10
        for fn in steps.values():  # warm up: capture, allocator caches
            for _ in range(3):
                fn()
        times = {m: [] for m in modes}
        for _ in range(args.rounds):
            for m in modes:
                times[m].append(measure(steps[m], reps))
        base = statistics.median(times["eager"]) if "eager" in times else None
        for m in modes:
            med = statistics.median(times[m])
            ratio = f"  speed {base / med:.2f}x eager, memory {peaks[m] / peaks['eager']:.2f}x" \
                if base else ""
            print(f"{model_name:6s} {m:12s} {med:9.0f} us/step  peak {peaks[m] / 1e6:6.2f} MB"
                  f"{ratio}")


if __name__ == "__main__":
    main()
