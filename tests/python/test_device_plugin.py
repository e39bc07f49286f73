"""Device plugins through the Python API (docs/DEVICE_PLUGIN.md), on the emulated NPU
(plugins/emu_npu): every op of the op table runs on emu_npu:0 against the same op on the CPU
(the plugin's kernels, and the CPU fallback for the rest), the plugin's kernels also in
bfloat16/float16, the fallback warning, statistics and error policy, Paddle's custom-device
functions, and the small Llama training on the device with the CPU's losses."""
import os
import subprocess
import sys

import numpy as np
import pytest

import skiff
from op_table import CASES, flat, make_inputs, run_case

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLUGIN = os.environ.get("SKIFF_EMU_NPU_PLUGIN",
                        os.path.join(ROOT, "build", "lib", "libskiff_emu_npu.so"))
DEV = "emu_npu:0"
ops = skiff._C.ops
RANDOM = {"dropout", "uniform", "gaussian", "uniform_inplace", "gaussian_inplace", "randint",
          "randperm", "bernoulli", "multinomial"}
# The plugin's kernels by op (plugins/emu_npu/emu_kernels.cc).
PLUGIN_OPS = {"matmul", "add", "subtract", "multiply", "divide", "relu", "gelu", "silu",
              "softmax", "rms_norm", "embedding", "sum", "mean", "cast", "fused_adamw_"}


@pytest.fixture(scope="module", autouse=True)
def emu_npu():
    assert os.path.exists(PLUGIN), f"the emulated NPU plugin is not built: {PLUGIN}"
    assert skiff.device.load_plugin(PLUGIN) == "emu_npu"
    skiff.device.set_fallback_policy("silent")
    yield
    skiff.device.set_fallback_policy("warn")
    skiff.set_device("cpu")


def _f32(a):
    return a.astype(np.float32) if np.asarray(a).dtype.kind == "f" else a


def _compare(got, want, what, rtol=2e-4, atol=2e-5):
    got, want = flat(got), flat(want)
    assert len(got) == len(want), what
    for k, (g, w) in enumerate(zip(got, want)):
        if not isinstance(w, skiff.Tensor):
            assert g == w, f"{what} output {k}"
            continue
        assert str(g.place) == str(skiff.CustomPlace("emu_npu", 0)), f"{what} output {k}: {g.place}"
        assert g.dtype == w.dtype and g.shape == w.shape, f"{what} output {k}"
        gv, wv = g.cpu().numpy(), w.numpy()
        if wv.dtype.kind in "biu":
            np.testing.assert_array_equal(gv, wv, err_msg=f"{what} output {k}")
        else:
            np.testing.assert_allclose(gv.astype(np.float64), wv.astype(np.float64), rtol=rtol,
                                       atol=atol, err_msg=f"{what} output {k}")


@pytest.mark.parametrize("case", [c for c in CASES if c.op not in RANDOM], ids=repr)
def test_op_on_the_device_matches_the_cpu(case):
    """float32 inputs on emu_npu:0: the plugin's kernel, or the CPU fallback, gives the CPU's
    result, on the device."""
    arrays = [_f32(a) for a in make_inputs(case)]
    want = run_case(ops, case, [skiff.to_tensor(a) for a in arrays])
    skiff.set_device(DEV)  # tensors a case's call creates live on the device too
    try:
        got = run_case(ops, case, [skiff.to_tensor(a).to(DEV) for a in arrays])
    finally:
        skiff.set_device("cpu")
    _compare(got, want, case.op)


@pytest.mark.parametrize("case", [c for c in CASES if c.op in PLUGIN_OPS and c.np_fn], ids=repr)
def test_plugin_kernels_against_the_numpy_reference(case):
    arrays = make_inputs(case)
    out = flat(run_case(ops, case, [skiff.to_tensor(_f32(a)).to(DEV) for a in arrays]))
    ref = case.np_fn(*arrays)
    ref = list(ref) if isinstance(ref, (list, tuple)) else [ref]
    for k, (o, r) in enumerate(zip(out, ref)):
        np.testing.assert_allclose(o.cpu().numpy().astype(np.float64), r, rtol=2e-4, atol=2e-5,
                                   err_msg=f"{case.op} output {k}")


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("op", ["matmul", "add", "subtract", "multiply", "divide", "relu", "gelu",
                                "silu", "softmax", "rms_norm", "sum", "mean"])
def test_plugin_kernels_in_16_bit(op, dtype):
    rng = np.random.default_rng(1)
    x = skiff.to_tensor(rng.standard_normal((3, 8)).astype(np.float32)).astype(dtype)
    y = skiff.to_tensor(rng.uniform(0.5, 2.0, (3, 8)).astype(np.float32)).astype(dtype)
    w = skiff.to_tensor(rng.standard_normal((8,)).astype(np.float32)).astype(dtype)
    call = {
        "matmul": lambda x, y, w: ops.matmul(x, y, False, True),
        "rms_norm": lambda x, y, w: ops.rms_norm(x, w, 1e-6, -1),
        "softmax": lambda x, y, w: ops.softmax(x, -1),
        "sum": lambda x, y, w: ops.sum(x, [1]),
        "mean": lambda x, y, w: ops.mean(x, [0]),
    }.get(op, lambda x, y, w: getattr(ops, op)(x, y) if op in (
        "add", "subtract", "multiply", "divide") else getattr(ops, op)(x))
    skiff.device.reset_fallback_stats()
    got = call(x.to(DEV), y.to(DEV), w.to(DEV))
    want = call(x, y, w)
    # One rounding of the result differs at most: a 16-bit ulp (and matmul's sum order).
    _compare(got, want, f"{op} {dtype}", rtol=1e-2 if dtype == "bfloat16" else 2e-3, atol=1e-2)
    assert skiff.device.fallback_stats() == [], f"{op} {dtype} fell back"


def test_custom_device_functions():
    assert skiff.device.get_all_custom_device_type() == ["emu_npu"]
    assert skiff.device.get_available_custom_device() == ["emu_npu:0", "emu_npu:1"]
    assert skiff.is_compiled_with_custom_device("emu_npu")
    assert not skiff.is_compiled_with_custom_device("npu")
    assert "emu_npu" in skiff.device.get_all_device_type()
    place = skiff.CustomPlace("emu_npu", 1)
    assert place.is_custom_place() and place.get_device_id() == 1
    with pytest.raises(ValueError, match="loaded custom device types"):
        skiff.CustomPlace("npu", 0)
    info = skiff.device.plugin_info("emu_npu")
    assert info["abi_version"] == (1, 1) and info["device_name"] == "Emulated NPU"
    assert "matmul float32" in info["kernels"] and "matmul float64" not in info["kernels"]


def test_set_device_tensor_to_and_cpu():
    skiff.set_device(DEV)
    try:
        assert skiff.get_device() == DEV
        z = skiff.zeros([2, 3])  # a creation op: falls back, result on the device
        assert str(z.place) == "Place(emu_npu:0)"
    finally:
        skiff.set_device("cpu")
    x = skiff.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    d = x.to("emu_npu:0")
    assert str(d.place) == "Place(emu_npu:0)" and d.cpu().place.is_cpu_place()
    np.testing.assert_array_equal(d.cpu().numpy(), x.numpy())
    e = x.to(skiff.CustomPlace("emu_npu", 1))
    assert str(e.place) == "Place(emu_npu:1)"
    with pytest.raises(ValueError, match="all inputs on one place"):
        ops.add(d, e)
    # A transposed (strided) view on the device: into a plugin kernel and back to the host.
    np.testing.assert_allclose(ops.matmul(d, d.T, False, False).cpu().numpy(),
                               x.numpy() @ x.numpy().T, rtol=1e-6)
    np.testing.assert_array_equal(d.T.cpu().numpy(), x.numpy().T)


def test_autograd_on_the_device():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((4, 5)).astype(np.float32)
    b = rng.standard_normal((5, 3)).astype(np.float32)
    grads = []
    for place in ("cpu", DEV):
        x = skiff.to_tensor(a).to(place)
        y = skiff.to_tensor(b).to(place)
        x.stop_gradient = False
        y.stop_gradient = False
        loss = ops.mean(ops.silu(ops.matmul(x, y, False, False)), [], False)
        loss.backward()
        grads.append((x.grad.cpu().numpy(), y.grad.cpu().numpy()))
    for g, w in zip(grads[1], grads[0]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


_FALLBACK_SCRIPT = """
import numpy as np, skiff
skiff.device.load_plugin({plugin!r})
x = skiff.to_tensor(np.ones(3)).to('emu_npu:0')   # float64: no emu_npu kernel
try:
    for _ in range(3):
        y = x + x
    print('RESULT', y.cpu().numpy().tolist())
    s = [s for s in skiff.device.fallback_stats() if s['op'] == 'add']
    print('STATS', s[0]['dtype'], s[0]['count'], s[0]['time_ms'] >= 0)
except NotImplementedError as e:
    print('ERROR', e)
"""


def _run_script(env_value):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    env.pop("SKIFF_DEVICE_FALLBACK", None)
    if env_value:
        env["SKIFF_DEVICE_FALLBACK"] = env_value
    r = subprocess.run([sys.executable, "-c", _FALLBACK_SCRIPT.format(plugin=PLUGIN)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout, r.stderr


def test_fallback_warns_once_and_counts():
    out, err = _run_script(None)
    assert "RESULT [2.0, 2.0, 2.0]" in out
    assert "STATS float64 3 True" in out
    line = "add: no emu_npu kernel for float64 (it has bfloat16, float16, float32); running on CPU"
    assert err.count(line) == 1, err


def test_fallback_policy_error_refuses():
    out, err = _run_script("error")
    assert "ERROR" in out and "add: argument 'place' expected a emu_npu kernel for float64" in out, out
    assert "SKIFF_DEVICE_FALLBACK=error" in out
    assert "running on CPU" not in err


def test_fallback_policy_is_checked():
    with pytest.raises(ValueError, match="'warn', 'silent' or 'error'"):
        skiff.device.set_fallback_policy("sometimes")


def test_a_bad_plugin_path_is_an_error():
    with pytest.raises(OSError, match="loadable shared library"):
        skiff.device.load_plugin("/nonexistent/libnothing.so")


def _llama_losses(device, steps=3, to_static=False):
    sys.path.insert(0, os.path.join(ROOT, "examples", "llama"))
    from model import Llama, LlamaConfig
    skiff.set_device(device)
    try:
        skiff.seed(0)
        cfg = LlamaConfig(vocab_size=64, dim=32, n_layers=2, n_heads=2, hidden_dim=64,
                          max_seq_len=32)
        model = Llama(cfg)
        opt = skiff.optimizer.AdamW(3e-3, parameters=model.parameters(), weight_decay=0.1)
        assert str(model.parameters()[0].place) == str(skiff.Place(device))
        step_fn = model.loss
        if to_static:
            step_fn = skiff.jit.to_static(model.loss)
        rng = np.random.default_rng(0)
        losses = []
        for _ in range(steps):
            batch = rng.integers(0, 64, (4, 17))
            loss = step_fn(skiff.to_tensor(batch[:, :-1]), skiff.to_tensor(batch[:, 1:]))
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses
    finally:
        skiff.set_device("cpu")


def test_llama_trains_on_the_device_with_the_cpu_losses():
    want = _llama_losses("cpu")
    skiff.device.reset_fallback_stats()
    got = _llama_losses(DEV)
    np.testing.assert_allclose(got, want, rtol=1e-5)
    stats = skiff.device.fallback_stats()
    kernels = set(skiff.device.plugin_info("emu_npu")["kernels"])
    # The fallback table lists exactly the (op, dtype) pairs without a plugin kernel...
    fell_back = {f"{s['op']} {s['dtype']}" for s in stats}
    assert not (fell_back & kernels), sorted(fell_back & kernels)
    assert all(s["reason"].startswith("no emu_npu kernel for") for s in stats)
    # ...and the plugin's kernels did the model's main work.
    assert "linear float32" in fell_back
    for k in ("matmul float32", "rms_norm float32", "fused_adamw_ float32", "embedding float32"):
        assert k not in fell_back, k


def test_llama_to_static_on_the_device_matches_eager_on_the_cpu():
    want = _llama_losses("cpu")
    got = _llama_losses(DEV, to_static=True)
    np.testing.assert_allclose(got, want, rtol=1e-5)
