"""The skiff_infer command (tools/skiff_infer): a model saved by paddle.jit.save, run on .npy
inputs numpy wrote, writes .npy outputs numpy reads back equal to the eager outputs, and prints
the stage timings; bad models, bad .npy files, wrong shapes and bad flags exit non-zero with a
message naming the problem."""
import json
import os
import subprocess

import numpy as np
import pytest

import skiff as paddle
from skiff.static import InputSpec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("SKIFF_INFER", os.path.join(ROOT, "build", "bin", "skiff_infer"))


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 3)
        self.emb = paddle.nn.Embedding(6, 3)

    def forward(self, x, ids):
        return paddle.nn.functional.gelu(self.fc(x)) + self.emb(ids), x.sum(axis=-1)


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    d = tmp_path_factory.mktemp("model")
    paddle.seed(3)
    net = Net()
    net.eval()
    paddle.jit.save(net, str(d / "net"), input_spec=[InputSpec([None, 4], "float32", "x"),
                                                     InputSpec([None], "int64", "ids")])
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 4)).astype(np.float32)
    ids = np.array([0, 5, 2, 2, 1], dtype=np.int64)
    np.save(d / "x.npy", x)
    np.save(d / "ids.npy", ids)
    want = [t.numpy() for t in net(paddle.to_tensor(x), paddle.to_tensor(ids))]
    return d, want


def infer(*args):
    assert os.path.exists(BIN), f"skiff_infer not built at {BIN}"
    return subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, timeout=120)


def test_outputs_equal_eager_and_timings_are_printed(model, tmp_path):
    d, want = model
    out = tmp_path / "out"
    r = infer(d / "net", d / "x.npy", d / "ids.npy", "--output-dir", out, "--repeat", 3,
              "--threads", 2)
    assert r.returncode == 0, r.stderr
    assert "load: read" in r.stdout and "passes" in r.stdout and "build" in r.stdout
    assert "first run:" in r.stdout
    assert "steady state (3 runs, 2 threads): mean" in r.stdout
    files = sorted(os.listdir(out))
    assert len(files) == 2
    got = [np.load(out / f) for f in sorted(files, key=lambda f: r.stdout.index(f))]
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_named_inputs_model_forms_and_profile(model, tmp_path):
    d, want = model
    trace = tmp_path / "trace.json"
    for model_arg in (d, str(d / "net") + ".pdmodel"):
        out = tmp_path / "named"
        r = infer(model_arg, "--input", f"ids={d / 'ids.npy'}", "--input", f"x={d / 'x.npy'}",
                  "--output-dir", out, "--no-ir-optim", "--profile", trace, "--repeat", 2)
        assert r.returncode == 0, r.stderr
        first = sorted(os.listdir(out), key=lambda f: r.stdout.index(f))[0]
        np.testing.assert_allclose(np.load(out / first), want[0], rtol=1e-5, atol=1e-6)
    events = json.load(open(trace))
    assert "Predictor::Run" in json.dumps(events)


@pytest.mark.parametrize("write, message", [
    (lambda p: p.write_bytes(b"not an npy file at all"), "no .npy magic"),
    (lambda p: p.write_bytes(open(p.with_name("x.npy"), "rb").read()[:-5]), "(truncated)"),
    (lambda p: np.save(p, np.zeros((5, 4), np.float64)), "expected a tensor of float32 [-1, 4], "
                                                          "got float64 [5, 4]"),
    (lambda p: np.save(p, np.zeros((5, 7), np.float32)), "expected a tensor of float32 [-1, 4], "
                                                          "got float32 [5, 7]"),
    (lambda p: np.save(p, np.zeros((2, 2), np.float32).T), None),  # Fortran order: refused
])
def test_bad_inputs_exit_with_a_message(model, tmp_path, write, message):
    d, _ = model
    bad = tmp_path / "bad.npy"
    (tmp_path / "x.npy").write_bytes(open(d / "x.npy", "rb").read())
    write(bad)
    r = infer(d / "net", bad, d / "ids.npy")
    assert r.returncode == 1, r.stdout
    assert r.stderr.startswith("skiff_infer: (InvalidArgument) ")
    assert (message or "fortran_order True") in r.stderr


def test_bad_models_and_flags(model, tmp_path):
    d, _ = model
    r = infer(tmp_path / "nothing", d / "x.npy", d / "ids.npy")
    assert r.returncode == 1 and "(Unavailable) load inference model: argument 'prog_file' " \
                                  "expected an existing file" in r.stderr
    r = infer(d / "net", d / "x.npy")
    assert r.returncode == 1 and "argument 'inputs' expected 2 .npy files (for [x, ids]), got 1" \
        in r.stderr
    r = infer(d / "net", "--input", f"y={d / 'x.npy'}")
    assert r.returncode == 1 and "argument '--input' expected one of [x, ids], got 'y'" in r.stderr
    r = infer(d / "net", d / "missing.npy", d / "ids.npy")
    assert r.returncode == 1 and "(Unavailable) read npy" in r.stderr and "does not exist" in r.stderr
    for args, message in ((["--repeat", "0"], "--repeat expects an integer in [1, 1000000], got '0'"),
                          (["--repeat", "3x"], "got '3x'"), (["--frobnicate"], "unknown option"),
                          ([], "no MODEL given")):
        r = infer(*([] if not args or args[0] != "--repeat" else [d / "net"]), *args)
        assert r.returncode == 2 and message in r.stderr and "usage: skiff_infer" in r.stderr


@pytest.mark.parametrize("flag", ["--weight-only-int8", "--llm-int8"])
def test_int8_flags_quantize_the_linear(model, tmp_path, flag):
    """--weight-only-int8 (Config::EnableWeightOnlyInt8) and --llm-int8 (EnableMkldnnInt8): the
    linear runs on int8, so its output moves by the quantization error and no more; the integer
    path is unchanged."""
    d, want = model
    out = tmp_path / "out"
    r = infer(d / "net", d / "x.npy", d / "ids.npy", "--output-dir", out, flag, "--repeat", 1)
    assert r.returncode == 0, r.stderr
    got = [np.load(out / f) for f in sorted(os.listdir(out), key=lambda f: r.stdout.index(f))]
    err = np.abs(got[0] - want[0]).max()
    assert 0 < err < 0.02 * np.abs(want[0]).max()
    np.testing.assert_array_equal(got[1], want[1])  # x.sum: no weight, not rewritten
