"""Compiled programs called from many threads at once (docs/RELIABILITY.md, promise 4): a
to_static forward and a jit.load'ed layer, 8 threads x 1000 calls each under no_grad, every
result bit for bit equal to the single-threaded one (the run releases the GIL; the executor
keeps per-run state)."""
import threading

import numpy as np

import skiff as paddle
import skiff.nn as nn
from skiff.static import InputSpec

THREADS, CALLS = 8, 1000


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        h = paddle.tanh(self.fc1(x))
        if paddle.sum(h) > 0:  # a guarded value read: one program per path
            h = h * h
        return self.fc2(h)


def _inputs():
    rng = np.random.default_rng(0)
    return [paddle.to_tensor(rng.uniform(-1, 1, (4, 8)).astype("float32")) for _ in range(4)]


def _hammer(fn, inputs):
    want = [fn(x).numpy() for x in inputs]
    bad, errors = [], []

    def work(t):
        try:
            for i in range(CALLS):
                k = (i + t) % len(inputs)
                got = fn(inputs[k]).numpy()
                if got.tobytes() != want[k].tobytes():
                    bad.append((t, i))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors[:3]
    assert not bad, f"{len(bad)} results differ from single-threaded, first {bad[:3]}"


def test_to_static_forward_from_threads():
    paddle.seed(0)
    net = paddle.jit.to_static(Net())
    net.eval()
    with paddle.no_grad():
        _hammer(net, _inputs())


def test_first_calls_race_to_capture():
    paddle.seed(1)
    net = paddle.jit.to_static(Net())
    x = _inputs()[0]
    results, errors = [], []

    def first():
        try:
            with paddle.no_grad():
                results.append(net(x).numpy())
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=first) for _ in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors[:3]
    assert all(r.tobytes() == results[0].tobytes() for r in results)
    assert net.forward.num_captures == 1


def test_jit_loaded_layer_from_threads(tmp_path):
    paddle.seed(2)
    net = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 4))
    path = str(tmp_path / "net")
    paddle.jit.save(net, path, input_spec=[InputSpec([None, 8], "float32", "x")])
    loaded = paddle.jit.load(path)
    with paddle.no_grad():
        _hammer(loaded, _inputs())
