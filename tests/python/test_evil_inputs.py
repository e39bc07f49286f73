"""Evil inputs (issue 12): one row per case a hostile or careless user tried. Each row asserts the
exception type (Paddle's error class) and that the message starts with the user's op and names
the argument; rows whose right answer is a value check the value. docs/RELIABILITY.md lists what
is promised and which test holds it.

Messages may carry Paddle's error-class prefix ("(InvalidArgument) ...") or not; `_msg` accepts
both."""
import json
import math
import os
import pickle
import re
import stat

import numpy as np
import pytest

import skiff as paddle
from skiff import _C


def _msg(text):
    """A regex for a message that starts (after an optional error-class prefix) with `text`."""
    return r"^(\([A-Za-z]+\) )?" + re.escape(text)


def _raises(exc, text, fn):
    with pytest.raises(exc, match=_msg(text)) as info:
        fn()
    return str(info.value)


# --- numel overflow and silent zero size -------------------------------------------------------
# (call, exception, message start). Every shape here used to wrap: numel 0 (a "successful"
# empty tensor) or a tiny allocation indexed far out of bounds (a segfault).
HUGE = 1 << 40
OVERFLOW_ROWS = [
    ("ones [(1<<62)+1, 4]", lambda: paddle.ones([(1 << 62) + 1, 4]), ValueError,
     "ones: argument 'shape'"),
    ("zeros [1<<32, 1<<32]", lambda: paddle.zeros([1 << 32, 1 << 32]), ValueError,
     "zeros: argument 'shape'"),
    ("zeros [1<<40, 1<<40]", lambda: paddle.zeros([HUGE, HUGE]), ValueError,
     "zeros: argument 'shape'"),
    ("zeros [2**31]*3", lambda: paddle.zeros([2 ** 31] * 3), ValueError,
     "zeros: argument 'shape'"),
    ("full [1<<32, 1<<32]", lambda: paddle.full([1 << 32, 1 << 32], 1.0), ValueError,
     "full: argument 'shape'"),
    ("randn [1<<40, 1<<40]", lambda: paddle.randn([HUGE, HUGE]), ValueError,
     "gaussian: argument 'shape'"),
    ("zeros with a zero dim and overflowing strides", lambda: paddle.zeros([0, HUGE, HUGE]),
     ValueError, "zeros: argument 'shape'"),
    ("bytes beyond any device", lambda: paddle.zeros([HUGE, 1 << 20]), MemoryError,
     "zeros: argument 'shape'"),
    ("eye 1<<40", lambda: paddle.eye(HUGE), ValueError, "eye: argument 'num_rows'"),
    ("reshape to an overflowing shape", lambda: paddle.reshape(paddle.ones([4]), [1 << 62, 8]),
     ValueError, "reshape: argument 'shape'"),
    ("expand to an overflowing shape",
     lambda: paddle.expand(paddle.ones([1, 1]), [HUGE, HUGE]), ValueError,
     "expand: argument 'shape'"),
    ("broadcast_to an overflowing shape",
     lambda: paddle.broadcast_to(paddle.ones([1, 1]), [1 << 32, 1 << 32]), ValueError,
     "broadcast_to: argument 'shape'"),
    ("sum of an overflowing expand",
     lambda: paddle.sum(paddle.expand(paddle.ones([1, 1]), [HUGE, HUGE])), ValueError,
     "expand: argument 'shape'"),
]


@pytest.mark.parametrize("what,fn,exc,text", OVERFLOW_ROWS, ids=[r[0] for r in OVERFLOW_ROWS])
def test_numel_overflow(what, fn, exc, text):
    msg = _raises(exc, text, fn)
    assert "fits in int64" in msg or "2^56 bytes" in msg


def test_overflowing_shape_then_index_or_setitem_never_segfaults():
    # The reproductions: each fails at creation, before any index is formed.
    _raises(ValueError, "ones: argument 'shape'", lambda: paddle.ones([(1 << 62) + 1, 4])[HUGE])
    with pytest.raises(ValueError, match=_msg("zeros: argument 'shape'")):
        x = paddle.zeros([1 << 32, 1 << 32])
        x[7, 7] = 1


def test_large_but_valid_shapes_still_work():
    assert paddle.zeros([0, HUGE]).shape == [0, HUGE]
    assert paddle.ones([1 << 20, 0, 1 << 20]).size == 0
    assert paddle.reshape(paddle.ones([0, 4]), [-1, HUGE]).shape == [0, HUGE]


# --- view aliasing ------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [lambda s: paddle.expand(s, [3, 3]),
                                  lambda s: paddle.broadcast_to(s, [3, 3]),
                                  lambda s: s.expand([3, 3]),
                                  lambda s: s.expand_as(paddle.zeros([3, 3])),
                                  lambda s: paddle.broadcast_tensors([s, paddle.zeros([3, 3])])[0]],
                         ids=["expand", "broadcast_to", "Tensor.expand", "expand_as",
                              "broadcast_tensors"])
def test_expanded_results_are_their_own_tensors(make):
    src = paddle.ones([1, 3])
    e = make(src)
    e[0, 0] = 5
    np.testing.assert_array_equal(src.numpy(), np.ones([1, 3]))
    want = np.ones([3, 3])
    want[0, 0] = 5
    np.testing.assert_array_equal(e.numpy(), want)
    e.add_(paddle.ones([3, 3]))  # in-place ops on the result work (a stride-0 view refused them)
    src[0, 1] = 7  # and writing the source does not write the result
    assert e.numpy()[1, 1] == 2


def test_expand_still_differentiates():
    x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    (paddle.expand(x, [4, 3]) * 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[8.0, 8.0, 8.0]])


# --- empty reductions ---------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [paddle.std, paddle.var])
def test_std_var_of_empty_is_nan(fn):
    assert math.isnan(float(fn(paddle.zeros([0]))))
    assert math.isnan(float(fn(paddle.zeros([0]), unbiased=False)))
    r = fn(paddle.zeros([0, 3]), axis=0)
    assert r.shape == [3] and np.isnan(r.numpy()).all()
    assert fn(paddle.zeros([0, 3]), axis=1).shape == [0]
    assert math.isnan(float(fn(paddle.ones([1]))))  # n - 1 == 0 (unbiased), as numpy


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_reductions_of_empty_match_max(name):
    fn = getattr(paddle, name)
    x = paddle.zeros([0, 3])
    assert paddle.max(x, axis=1).shape == [0]
    r = fn(x, axis=1)
    assert r.shape == [0] and r.dtype == paddle.int64
    assert fn(x, axis=1, keepdim=True).shape == [0, 1]
    # An empty axis with elements to produce has no answer, as for max.
    _raises(ValueError, f"{name}: argument 'x'", lambda: fn(x, axis=0))
    _raises(ValueError, "max", lambda: paddle.max(x, axis=0))


# --- leaf hooks ---------------------------------------------------------------------------------
def test_leaf_hook_replaces_the_gradient():
    x = paddle.to_tensor([1.0], stop_gradient=False)
    seen = []
    x.register_hook(lambda g: (seen.append(g.numpy().copy()), g * 10)[1])
    (x * 2).sum().backward()
    np.testing.assert_array_equal(seen, [[2.0]])
    np.testing.assert_array_equal(x.grad.numpy(), [20.0])
    (x * 3).sum().backward()  # a second graph: the hook still runs (a new accumulator)
    np.testing.assert_array_equal(x.grad.numpy(), [50.0])


def test_parameter_hook_and_removal():
    lin = paddle.nn.Linear(2, 1)
    calls = []
    h = lin.weight.register_hook(lambda g: calls.append(1))  # None keeps the gradient
    lin(paddle.ones([3, 2])).sum().backward()
    assert calls == [1]
    g0 = lin.weight.grad.numpy().copy()
    h.remove()
    lin.clear_gradients()
    lin(paddle.ones([3, 2])).sum().backward()
    assert calls == [1]
    np.testing.assert_array_equal(lin.weight.grad.numpy(), g0)


def test_raising_leaf_hook_propagates():
    x = paddle.to_tensor([1.0], stop_gradient=False)

    def bad(g):
        raise KeyError("from the hook")

    x.register_hook(bad)
    with pytest.raises(KeyError, match="from the hook"):
        (x * 2).sum().backward()


def test_leaf_hook_in_grad():
    x = paddle.to_tensor([3.0], stop_gradient=False)
    x.register_hook(lambda g: g + 1)
    (g,) = paddle.grad((x * x).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [7.0])


# --- paddle.load runs no code -------------------------------------------------------------------
class _Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_load_refuses_code_and_names_the_global(tmp_path):
    marker = tmp_path / "ran"
    path = tmp_path / "x.pdparams"
    path.write_bytes(pickle.dumps({"w": _Evil(marker)}, protocol=2))
    msg = _raises(ValueError, "load: ", lambda: paddle.load(str(path)))
    assert "'posix.system'" in msg and "x.pdparams" in msg and "weights_only=False" in msg
    assert not marker.exists()
    with pytest.raises(pickle.UnpicklingError):
        paddle.load(str(path))
    assert not marker.exists()


@pytest.mark.parametrize("payload,name", [
    (b"cbuiltins\neval\n(S'1+1'\ntR.", "builtins.eval"),
    (b"\x80\x04\x8c\x08builtins\x94\x8c\x07getattr\x94\x93.", "builtins.getattr"),
    (b"csubprocess\nPopen\n(S'true'\ntR.", "subprocess.Popen"),
    (b"\x80\x02c__builtin__\nexec\nq\x00.", "__builtin__.exec"),
], ids=["eval", "getattr", "subprocess", "py2 exec"])
def test_load_refuses_other_globals(tmp_path, payload, name):
    path = tmp_path / "x.pdparams"
    path.write_bytes(payload)
    assert f"'{name}'" in _raises(ValueError, "load: ", lambda: paddle.load(str(path)))


def test_load_opt_in_to_arbitrary_pickles(tmp_path):
    import collections
    path = tmp_path / "c.pkl"
    path.write_bytes(pickle.dumps(collections.Counter("aab")))
    _raises(ValueError, "load: ", lambda: paddle.load(str(path)))
    assert paddle.load(str(path), weights_only=False) == collections.Counter("aab")
    _raises(TypeError, "load: argument 'weights_only'",
            lambda: paddle.load(str(path), weights_only="no"))


def test_load_still_reads_everything_save_writes(tmp_path):
    lin = paddle.nn.Linear(3, 2)
    obj = {"model": lin.state_dict(), "step": 3, "lr": 0.5, "name": "x", "flags": (True, None),
           "arr": np.arange(4, dtype=np.int32), "np_scalar": np.float32(2.5),
           "dtype": np.dtype("float16"), "nested": [{"b": b"bytes", "s": {1, 2}, "c": 1 + 2j}]}
    for protocol in (2, 3, 4):
        path = tmp_path / f"all{protocol}.pdparams"
        paddle.save(obj, str(path), protocol=protocol)
        back = paddle.load(str(path))
        np.testing.assert_array_equal(back["model"]["weight"].numpy(), lin.weight.numpy())
        assert back["step"] == 3 and back["name"] == "x" and back["flags"] == (True, None)
        np.testing.assert_array_equal(back["arr"], np.arange(4, dtype=np.int32))
        assert back["np_scalar"] == np.float32(2.5) and back["dtype"] == np.dtype("float16")
        assert back["nested"][0] == {"b": b"bytes", "s": {1, 2}, "c": 1 + 2j}
    # A Parameter pickled on its own (its __reduce__), and an OrderedDict.
    import collections
    path = tmp_path / "p.pkl"
    path.write_bytes(pickle.dumps(collections.OrderedDict(w=lin.weight)))
    back = paddle.load(str(path))
    np.testing.assert_array_equal(back["w"].numpy(), lin.weight.numpy())


def test_load_reads_cpp_safetensors(tmp_path):
    path = str(tmp_path / "model.safetensors")
    w = paddle.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    _C.save_safetensors([("w", w), ("b", paddle.ones([2], dtype="int64"))], path)
    back = paddle.load(path)
    assert list(back) == ["w", "b"]
    np.testing.assert_array_equal(back["w"].numpy(), w.numpy())
    assert back["b"].dtype == paddle.int64
    arrays = paddle.load(path, return_numpy=True)
    assert isinstance(arrays["w"], np.ndarray)
    with open(path, "r+b") as f:  # a damaged header: an error naming the file
        f.seek(8)
        f.write(b"{\"w\":[")
    with pytest.raises((ValueError, OSError), match="model.safetensors"):
        paddle.load(path)


# --- damaged models -----------------------------------------------------------------------------
class _Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)


@pytest.fixture
def saved_model(tmp_path):
    prefix = str(tmp_path / "m")
    paddle.jit.save(_Net(), prefix, [paddle.static.InputSpec([None, 3], "float32", "x")])
    return prefix


def _rewrite_meta(prefix, change):
    params, meta = _C.load_safetensors(prefix + ".pdiparams")
    meta = dict(meta)
    change(meta)
    _C.save_safetensors(list(params), prefix + ".pdiparams", meta)


LOADERS = [("jit.load", lambda p: paddle.jit.load(p)),
           ("static.load_inference_model",
            lambda p: paddle.static.load_inference_model(p, None))]


@pytest.mark.parametrize("op,load", LOADERS, ids=[o for o, _ in LOADERS])
def test_damaged_pdmodel(saved_model, op, load):
    load(saved_model)  # intact: loads
    model = saved_model + ".pdmodel"
    text = open(model, "rb").read()
    open(model, "wb").write(b"\xff\xfe" + text)
    assert "m.pdmodel" in _raises(ValueError, f"{op}: ", lambda: load(saved_model))
    # No builtin.shadow_output: nothing to return.
    lines = [ln for ln in text.decode().splitlines() if "shadow_output" not in ln]
    open(model, "w").write("\n".join(lines) + "\n")
    msg = _raises(ValueError, f"{op}: ", lambda: load(saved_model))
    assert "m.pdmodel" in msg
    open(model, "wb").write(text)
    open(model, "w").write("this is not a program {")
    assert "m.pdmodel" in _raises(ValueError, f"{op}: ", lambda: load(saved_model))


@pytest.mark.parametrize("op,load", LOADERS, ids=[o for o, _ in LOADERS])
@pytest.mark.parametrize("change,words", [
    (lambda m: m.update({"skiff.outputs": json.dumps({"count": 3, "single": False})}),
     "declares 3 outputs"),
    (lambda m: m.update({"skiff.outputs": "{not json"}), "not JSON"),
    (lambda m: m.update({"skiff.outputs": json.dumps([1])}), "skiff.outputs"),
    (lambda m: m.pop("skiff.inputs"), "no metadata 'skiff.inputs'"),
    (lambda m: m.update({"skiff.inputs": json.dumps([{"name": "x", "shape": "3",
                                                       "dtype": "float32"}])}), "skiff.inputs"),
    (lambda m: m.update({"skiff.inputs": json.dumps([{"name": "y", "shape": [-1, 3],
                                                       "dtype": "float32"}])}), "names inputs"),
    (lambda m: m.update({"skiff.inputs": json.dumps([{"name": "x", "shape": [-1, 3],
                                                       "dtype": "float33"}])}), "dtype"),
    (lambda m: m.update({"skiff.state_names": json.dumps([1, 2])}), "skiff.state_names"),
], ids=["wrong output count", "not json", "outputs not a dict", "no inputs",
        "shape not a list", "input name", "dtype", "state names"])
def test_damaged_metadata(saved_model, op, load, change, words):
    _rewrite_meta(saved_model, change)
    msg = _raises(ValueError, f"{op}: ", lambda: load(saved_model))
    assert "m.pdiparams" in msg and words in msg


@pytest.mark.parametrize("op,load", LOADERS, ids=[o for o, _ in LOADERS])
@pytest.mark.parametrize("version,words", [
    ("2", "format version '2' (written by skiff 9.0.0), newer than this Skiff"),
    ("0", "format version '0' (written by skiff 9.0.0), unknown to this Skiff"),
    ("v1", "format version 'v1' (written by skiff 9.0.0), unknown to this Skiff"),
    (None, "no metadata 'skiff.format'"),
], ids=["newer", "older", "not a number", "missing"])
def test_model_format_version(saved_model, op, load, version, words):
    # A model of another format version is refused naming both versions (docs/FORMATS.md).
    def change(m):
        m["skiff.producer"] = "skiff 9.0.0"
        if version is None:
            m.pop("skiff.format")
        else:
            m["skiff.format"] = version
    _rewrite_meta(saved_model, change)
    msg = _raises(ValueError, f"{op}: ", lambda: load(saved_model))
    assert "m.pdiparams" in msg and words in msg
    if version is not None:
        assert "reads format version 1" in msg and paddle.__version__ in msg


def test_saved_model_names_its_format(saved_model):
    _, meta = _C.load_safetensors(saved_model + ".pdiparams")
    assert meta["skiff.format"] == "1"
    assert meta["skiff.producer"] == f"skiff {paddle.__version__}"


# --- unclear errors -----------------------------------------------------------------------------
def test_batch_norm_channel_mismatch():
    bn = paddle.nn.BatchNorm2D(3)
    msg = _raises(ValueError, "batch_norm: argument 'x'", lambda: bn(paddle.ones([2, 4, 5, 5])))
    assert "3 channels" in msg and "got 4" in msg
    bn.eval()
    _raises(ValueError, "batch_norm: argument 'x'", lambda: bn(paddle.ones([2, 4, 5, 5])))


def test_mse_and_l1_loss_shape_mismatch():
    F = paddle.nn.functional
    msg = _raises(ValueError, "mse_loss: argument 'label'",
                  lambda: F.mse_loss(paddle.ones([4, 3]), paddle.ones([4, 2])))
    assert "[4, 3]" in msg and "[4, 2]" in msg
    _raises(ValueError, "mse_loss: argument 'label'",
            lambda: paddle.nn.MSELoss()(paddle.ones([4, 3]), paddle.ones([5, 3])))
    _raises(ValueError, "l1_loss: argument 'label'",
            lambda: F.l1_loss(paddle.ones([4, 3]), paddle.ones([2])))
    assert float(F.mse_loss(paddle.ones([4, 3]), paddle.zeros([3]))) == 1.0  # broadcasting ok


@pytest.mark.parametrize("bad", [5, -1, 99])
def test_nll_loss_label_out_of_range(bad):
    logp = paddle.nn.functional.log_softmax(paddle.randn([4, 5]), axis=1)
    label = paddle.to_tensor([0, 1, bad, 2], dtype="int64")
    msg = _raises(ValueError, "nll_loss: argument 'label'",
                  lambda: paddle.nn.functional.nll_loss(logp, label))
    assert "[0, 5)" in msg and f"got {bad}" in msg
    # ignore_index is not a class: allowed anywhere.
    ok = paddle.to_tensor([0, 1, -100, 2], dtype="int64")
    assert np.isfinite(float(paddle.nn.functional.nll_loss(logp, ok)))


def test_set_state_dict_with_a_string():
    lin = paddle.nn.Linear(2, 2)
    msg = _raises(TypeError, "set_state_dict: argument 'state_dict'",
                  lambda: lin.set_state_dict({"weight": "abc"}))
    assert "'weight'" in msg and "str" in msg
    _raises(TypeError, "set_state_dict: argument 'state_dict'", lambda: lin.set_state_dict(3))


def test_grad_of_a_number():
    x = paddle.to_tensor([1.0], stop_gradient=False)
    msg = _raises(TypeError, "grad: argument 'outputs'", lambda: paddle.grad(3.0, x))
    assert "float" in msg
    _raises(TypeError, "grad: argument 'inputs'", lambda: paddle.grad(x * 2, "x"))


@pytest.mark.parametrize("data", [[[1, 2], [3]], [[1.0], [2.0, 3.0]], [[1, 2], 3]])
def test_to_tensor_ragged(data):
    msg = _raises(ValueError, "to_tensor: argument 'data'", lambda: paddle.to_tensor(data))
    assert "ragged" in msg or "same length" in msg or "shape" in msg


# --- leftovers: temporaries and file modes ------------------------------------------------------
def test_stale_temporaries_are_cleaned_on_the_next_save(tmp_path):
    path = tmp_path / "w.pdparams"
    dead = 2 ** 22 + 12345  # above the default pid_max: no such process
    for name in (f"w.pdparams.tmp.{dead}.abc", f"w.pdparams.tmp.{dead}.def"):
        (tmp_path / name).write_bytes(b"partial")
    live = tmp_path / f"w.pdparams.tmp.{os.getppid()}.xyz"  # a running writer's file stays
    live.write_bytes(b"in progress")
    other = tmp_path / f"other.pdparams.tmp.{dead}.abc"  # another target's file stays
    other.write_bytes(b"x")
    paddle.save({"a": 1}, str(path))
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(["w.pdparams", live.name, other.name])
    # The C++ writer cleans its own path's temporaries the same way.
    st = tmp_path / "c.safetensors"
    (tmp_path / f"c.safetensors.tmp.{dead}.q").write_bytes(b"partial")
    _C.save_safetensors([("w", paddle.ones([1]))], str(st))
    assert not (tmp_path / f"c.safetensors.tmp.{dead}.q").exists()


def test_python_and_cpp_writers_use_one_file_mode(tmp_path):
    old = os.umask(0o022)
    try:
        paddle.save({"a": 1}, str(tmp_path / "p.pdparams"))
        _C.save_safetensors([("w", paddle.ones([1]))], str(tmp_path / "c.safetensors"))
        modes = {stat.S_IMODE(os.stat(tmp_path / n).st_mode)
                 for n in ("p.pdparams", "c.safetensors")}
        assert modes == {0o644}
        os.umask(0o077)
        paddle.save({"a": 1}, str(tmp_path / "q.pdparams"))
        _C.save_safetensors([("w", paddle.ones([1]))], str(tmp_path / "d.safetensors"))
        modes = {stat.S_IMODE(os.stat(tmp_path / n).st_mode)
                 for n in ("q.pdparams", "d.safetensors")}
        assert modes == {0o600}
    finally:
        os.umask(old)
