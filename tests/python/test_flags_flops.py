"""paddle.get_flags/set_flags (a registry whose flags act), disable_signal_handler (the crash
handlers installed at import) and paddle.flops (Paddle's per-layer FLOPs rules and table)."""
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import skiff as paddle
from skiff import nn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------------------------- flags
def test_flags_signatures():
    for f in (paddle.get_flags, paddle.set_flags):
        assert inspect.isfunction(f)
        assert list(inspect.signature(f).parameters) == ["flags"]


def test_get_and_set_flags_as_paddle_tests_do():
    old = paddle.get_flags(["FLAGS_check_nan_inf", "FLAGS_call_stack_level"])
    try:
        paddle.set_flags({"FLAGS_check_nan_inf": True, "FLAGS_call_stack_level": 2})
        assert paddle.get_flags("FLAGS_check_nan_inf") == {"FLAGS_check_nan_inf": True}
        res = paddle.get_flags(("FLAGS_check_nan_inf", "FLAGS_call_stack_level"))
        assert res == {"FLAGS_check_nan_inf": True, "FLAGS_call_stack_level": 2}
    finally:
        paddle.set_flags(old)
    assert paddle.get_flags("FLAGS_check_nan_inf")["FLAGS_check_nan_inf"] is False


def test_check_nan_inf_flag_checks_layer_calls():
    layer = nn.Linear(2, 2)
    bad = paddle.to_tensor([[1.0, float("nan")]])
    layer(bad)  # off: no check
    paddle.set_flags({"FLAGS_check_nan_inf": True})
    try:
        with pytest.raises(RuntimeError, match="op 'Linear' var 'input0' holds 1 nan"):
            layer(bad)
        out = layer(paddle.ones([1, 2]))  # finite values pass
        assert out.shape == [1, 2]
        log = nn.Layer()
        log.forward = lambda x: paddle.log(x)
        with pytest.raises(RuntimeError, match="var 'output0' holds 0 nan and 3 inf"):
            log(paddle.zeros([3]))
    finally:
        paddle.set_flags({"FLAGS_check_nan_inf": False})
    layer(bad)


def test_flags_from_the_environment():
    code = "import skiff as p; print(p.get_flags('FLAGS_check_nan_inf')['FLAGS_check_nan_inf'])"
    env = dict(os.environ, FLAGS_check_nan_inf="1", PYTHONPATH=os.path.join(ROOT, "python"))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "True", out.stderr


def test_flags_bad_input():
    with pytest.raises(ValueError, match="Flag FLAGS_no_such_flag cannot get its value"):
        paddle.get_flags("FLAGS_no_such_flag")
    with pytest.raises(ValueError, match="Flag FLAGS_no_such_flag cannot set its value"):
        paddle.set_flags({"FLAGS_no_such_flag": 1})
    with pytest.raises(TypeError, match="Flags in get_flags should be a list, tuple or string"):
        paddle.get_flags(3)
    with pytest.raises(TypeError, match="flags in set_flags should be a dict"):
        paddle.set_flags(["FLAGS_check_nan_inf"])
    with pytest.raises(TypeError, match=r"\(InvalidType\) set_flags: flag 'FLAGS_check_nan_inf' "
                                        r"expected a bool"):
        paddle.set_flags({"FLAGS_check_nan_inf": "maybe"})
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) set_flags: flag "
                                         r"'FLAGS_call_stack_level' expected 0, 1 or 2, got 7"):
        paddle.set_flags({"FLAGS_call_stack_level": 7})
    # nothing was set by the failed calls
    assert paddle.get_flags("FLAGS_call_stack_level")["FLAGS_call_stack_level"] == 1
    with pytest.raises(ValueError):  # an unknown name next to a valid one sets neither
        paddle.set_flags({"FLAGS_check_nan_inf": True, "FLAGS_bogus": 1})
    assert paddle.get_flags("FLAGS_check_nan_inf")["FLAGS_check_nan_inf"] is False


# ----------------------------------------------------------------------- signal handlers
def _run(code):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120)


def test_crash_handler_installed_and_disabled():
    assert inspect.isfunction(paddle.disable_signal_handler)
    assert list(inspect.signature(paddle.disable_signal_handler).parameters) == []
    crash = "import ctypes; ctypes.string_at(0)"
    out = _run("import skiff, faulthandler; print(faulthandler.is_enabled()); " + crash)
    assert out.stdout.startswith("True")
    assert out.returncode != 0 and "Fatal Python error" in out.stderr
    out = _run("import skiff, faulthandler; skiff.disable_signal_handler(); "
               "print(faulthandler.is_enabled()); " + crash)
    assert out.stdout.startswith("False")
    assert out.returncode != 0 and "Fatal Python error" not in out.stderr


# ---------------------------------------------------------------------------------- flops
def test_flops_signature():
    assert inspect.isfunction(paddle.flops)
    sig = inspect.signature(paddle.flops)
    assert list(sig.parameters) == ["net", "input_size", "custom_ops", "print_detail"]
    assert sig.parameters["custom_ops"].default is None
    assert sig.parameters["print_detail"].default is False


def test_flops_lenet_equals_paddles_documented_table(capsys):
    with paddle.utils.unique_name.guard():  # layer names from conv2d_0, as in a fresh process
        net = paddle.vision.models.LeNet()  # the LeNet of Paddle's docstring
    net.train()
    total = paddle.flops(net, [1, 1, 28, 28], print_detail=True)
    assert total == 347560  # the number in Paddle's docstring
    assert net.training  # mode restored
    out = capsys.readouterr().out
    assert "Total Flops: 347560     Total Params: 61610" in out
    assert "|   Layer Name  |" not in out  # widths follow the widest cell
    assert "|  Layer Name  |   Input Shape   |   Output Shape  | Params | Flops  |" in out
    assert "|   conv2d_0   |  [1, 1, 28, 28] |  [1, 6, 28, 28] |   60   | 47040  |" in out
    assert "|   linear_2   |     [1, 84]     |     [1, 10]     |  850   |  840   |" in out
    assert "Cannot find suitable count function for" in out and "MaxPool2D" in out
    # the per-layer bookkeeping is gone afterwards
    assert not hasattr(net.features[0], "total_ops")
    assert all(not h for m in net.sublayers() for h in (m._forward_post_hooks,))


def test_flops_rules_against_hand_counts():
    paddle.seed(0)
    net = nn.Sequential(nn.Conv1D(3, 4, 3, bias_attr=False), nn.BatchNorm1D(4), nn.LeakyReLU(),
                        nn.AvgPool1D(2), nn.AdaptiveAvgPool1D(2), nn.Dropout(0.5))
    total = paddle.flops(net, [1, 3, 10])
    conv = 4 * 8 * (3 * 3)              # out.numel() * (in_ch / groups * k), no bias
    leaky = 4 * 8                       # x.numel()
    avg = 4 * 4                         # out.numel()
    adaptive = 4 * 2 * (2 + 1)          # out.numel() * (in // out + 1)
    assert total == conv + leaky + avg + adaptive  # BatchNorm1D has no rule in Paddle


def test_flops_custom_ops_and_to_static():
    def count_leaky_relu(m, x, y):
        m.total_ops += int(x[0].numel()) * 10

    net = nn.Sequential(nn.Linear(4, 5), nn.LeakyReLU())
    assert paddle.flops(net, [1, 4], custom_ops={nn.LeakyReLU: count_leaky_relu}) == 20 + 50
    static_net = paddle.jit.to_static(nn.Sequential(nn.Linear(4, 5)))
    assert paddle.flops(static_net, [2, 4]) == 4 * 10


def test_flops_bad_input():
    with pytest.warns(UserWarning, match="must be an instance of paddle.nn.Layer"):
        assert paddle.flops(object(), [1, 2]) == -1
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) flops: argument 'input_size'"):
        paddle.flops(nn.Linear(2, 2), [1, -2])
    with pytest.raises(TypeError, match=r"\(InvalidType\) flops: argument 'custom_ops'"):
        paddle.flops(nn.Linear(2, 2), [1, 2], custom_ops=[1])
    with pytest.raises(NotImplementedError, match=r"\(Unimplemented\) flops: argument 'net'"):
        paddle.flops(paddle.static.Program(), [1, 2])
    np.testing.assert_equal(paddle.flops(nn.Linear(2, 3), (1, 2)), 6)
