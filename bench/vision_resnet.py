#!/usr/bin/python3
"""ResNet-18 training step (batch 32, 3x64x64, 10 classes, SGD momentum 0.9, cross entropy):
Skiff's paddle.vision.models.resnet18 against the same network written here in PyTorch 1.13
(no torchvision), run alternately in one sitting; ms per step (median) split into forward+loss,
backward and the optimizer step, and the ratio.

    /usr/bin/python3 bench/vision_resnet.py              # both, ROUNDS=3 alternating
    /usr/bin/python3 bench/vision_resnet.py skiff        # one side only
    ../shared/bench/peer_env.sh /usr/bin/python3 bench/vision_resnet.py torch

The driver runs the torch side under ../shared/bench/peer_env.sh (tuned OpenBLAS, 2 threads)
and both sides with BENCH_THREADS threads (default 2).
"""
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

BATCH, SIZE, CLASSES = 32, 64, 10
WARMUP, REPS = 2, int(os.environ.get("BENCH_REPS", "5"))
THREADS = int(os.environ.get("BENCH_THREADS", "2"))
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _data():
    rng = np.random.RandomState(0)
    return (rng.randn(BATCH, 3, SIZE, SIZE).astype(np.float32),
            rng.randint(0, CLASSES, (BATCH, 1)).astype(np.int64))


def _measure(forward, backward, step):
    phases = {"forward": [], "backward": [], "optimizer": [], "total": []}
    for i in range(WARMUP + REPS):
        t0 = time.perf_counter()
        loss = forward()
        t1 = time.perf_counter()
        backward(loss)
        t2 = time.perf_counter()
        step()
        t3 = time.perf_counter()
        if i >= WARMUP:
            for k, v in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t3 - t0)):
                phases[k].append(1e3 * v)
    return {k: statistics.median(v) for k, v in phases.items()}


def run_skiff():
    os.environ.setdefault("OMP_NUM_THREADS", str(THREADS))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import skiff as paddle
    paddle.seed(0)
    net = paddle.vision.models.resnet18(num_classes=CLASSES)
    net.train()
    opt = paddle.optimizer.Momentum(0.01, momentum=0.9, parameters=net.parameters())
    x, y = (paddle.to_tensor(a) for a in _data())
    loss_fn = paddle.nn.CrossEntropyLoss()

    def step():
        opt.step()
        opt.clear_grad()
    return _measure(lambda: loss_fn(net(x), y), lambda l: l.backward(), step)


def run_torch():
    import torch
    import torch.nn as tnn
    torch.set_num_threads(THREADS)
    torch.manual_seed(0)

    class Block(tnn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = tnn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = tnn.BatchNorm2d(cout)
            self.conv2 = tnn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = tnn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = tnn.Sequential(tnn.Conv2d(cin, cout, 1, stride, bias=False),
                                           tnn.BatchNorm2d(cout))

        def forward(self, x):
            out = torch.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return torch.relu(out + (x if self.down is None else self.down(x)))

    class ResNet18(tnn.Module):
        def __init__(self):
            super().__init__()
            self.stem = tnn.Sequential(tnn.Conv2d(3, 64, 7, 2, 3, bias=False),
                                       tnn.BatchNorm2d(64), tnn.ReLU(), tnn.MaxPool2d(3, 2, 1))
            layers, cin = [], 64
            for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
                layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
                cin = cout
            self.layers = tnn.Sequential(*layers)
            self.fc = tnn.Linear(512, CLASSES)

        def forward(self, x):
            x = self.layers(self.stem(x))
            return self.fc(torch.flatten(tnn.functional.adaptive_avg_pool2d(x, 1), 1))

    net = ResNet18().train()
    assert sum(p.numel() for p in net.parameters()) == 11_181_642  # = Skiff's, 10 classes
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    xn, yn = _data()
    x, y = torch.from_numpy(xn), torch.from_numpy(yn[:, 0])

    def step():
        opt.step()
        opt.zero_grad(set_to_none=True)
    return _measure(lambda: tnn.functional.cross_entropy(net(x), y), lambda l: l.backward(),
                    step)


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("skiff", "torch"):
        res = run_skiff() if sys.argv[1] == "skiff" else run_torch()
        print(json.dumps(res))
        return
    rounds = int(os.environ.get("ROUNDS", "3"))
    env = dict(os.environ, BENCH_THREADS=str(THREADS), OMP_NUM_THREADS=str(THREADS))
    peer_env = os.path.join(ROOT, "..", "shared", "bench", "peer_env.sh")
    if not os.path.exists(peer_env):
        peer_env = "/work/shared/bench/peer_env.sh"
    cmds = {"skiff": [sys.executable, __file__, "skiff"],
            "torch": [peer_env, sys.executable, __file__, "torch"]}
    results = {"skiff": [], "torch": []}
    for r in range(rounds):
        for side in ("skiff", "torch") if r % 2 == 0 else ("torch", "skiff"):
            out = subprocess.run(cmds[side], env=env, check=True, capture_output=True,
                                 text=True).stdout
            results[side].append(json.loads(out.strip().splitlines()[-1]))
    print(f"ResNet-18 train step, batch {BATCH} x 3x{SIZE}x{SIZE}, SGD momentum, "
          f"{THREADS} threads, median of {REPS} steps, {rounds} alternating rounds "
          f"(load {os.getloadavg()[0]:.1f})")
    print(f"{'phase':<10} {'Skiff ms':>10} {'torch ms':>10} {'Skiff/torch':>12}")
    for k in ("forward", "backward", "optimizer", "total"):
        s = statistics.median(r[k] for r in results["skiff"])
        t = statistics.median(r[k] for r in results["torch"])
        print(f"{k:<10} {s:>10.1f} {t:>10.1f} {s / t:>11.2f}x")
    s = statistics.median(r["total"] for r in results["skiff"])
    t = statistics.median(r["total"] for r in results["torch"])
    print(f"throughput: Skiff {BATCH / s * 1e3:.0f} img/s, torch {BATCH / t * 1e3:.0f} img/s "
          f"(Skiff at {t / s:.2f}x torch's)")


if __name__ == "__main__":
    main()
