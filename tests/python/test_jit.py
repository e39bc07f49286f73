"""paddle.jit: to_static over functions and Layers (capture, guards, the forward/backward
programs under eager autograd), value-read errors, jit.save / jit.load."""
import os
import sys
import warnings

import numpy as np
import pytest

import skiff as paddle
import skiff.nn as nn
import skiff.nn.functional as F
from skiff.static import InputSpec

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "llama"))


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(8, 16)
        self.l2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def _batches(n, shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [[paddle.to_tensor(rng.standard_normal(s).astype("float32")) for s in shapes]
            for _ in range(n)]


def _train_mlp(static, steps=6):
    paddle.seed(7)
    m = MLP()
    if static:
        m = paddle.jit.to_static(m)
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=m.parameters())
    losses = []
    for x, y in _batches(steps, [(32, 8), (32, 4)]):
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses, m


def test_mlp_trains_to_the_same_losses_bit_for_bit():
    eager, _ = _train_mlp(False)
    static, m = _train_mlp(True)
    assert eager == static
    assert eager[-1] < eager[0]
    assert m.forward.num_captures == 1


@pytest.mark.parametrize("whole_step", [False, True])
def test_small_llama_trains_to_the_same_losses(whole_step):
    """to_static over the loss (forward program, eager backward and AdamW), or over the whole
    step (one program with the update)."""
    from model import Llama, LlamaConfig

    cfg = LlamaConfig(vocab_size=64, dim=32, n_layers=2, n_heads=2, hidden_dim=64,
                      max_seq_len=16)

    def train(static):
        paddle.seed(11)
        model = Llama(cfg)
        opt = paddle.optimizer.AdamW(learning_rate=3e-3, parameters=model.parameters())
        loss_fn = paddle.jit.to_static(model.loss) if static and not whole_step else model.loss

        def step(idx, tgt):
            loss = loss_fn(idx, tgt)
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss

        step_fn = paddle.jit.to_static(step) if static and whole_step else step
        rng = np.random.default_rng(3)
        losses = []
        for _ in range(4):
            idx = paddle.to_tensor(rng.integers(0, 64, (2, 16)).astype("int64"))
            tgt = paddle.to_tensor(rng.integers(0, 64, (2, 16)).astype("int64"))
            losses.append(float(step_fn(idx, tgt)))
        return losses, step_fn if whole_step else loss_fn

    eager, _ = train(False)
    static, fn = train(True)
    np.testing.assert_allclose(static, eager, rtol=1e-6)
    assert fn.num_captures == 1
    assert "op.matmul" in str(fn.concrete_program.main_program)


def test_guards_recapture_on_a_new_signature():
    calls = []

    @paddle.jit.to_static
    def f(x, scale):
        calls.append(1)
        return x * scale

    x = paddle.ones([2, 3])
    f(x, 2.0)
    f(paddle.zeros([2, 3]), 2.0)  # same signature: no new capture
    assert f.num_captures == 1 and len(calls) == 1
    f(paddle.ones([4, 3]), 2.0)  # new shape
    assert f.num_captures == 2
    f(paddle.ones([2, 3], dtype="float64"), 2.0)  # new dtype
    assert f.num_captures == 3
    np.testing.assert_allclose(f(x, 5.0).numpy(), np.full((2, 3), 5.0))  # a new constant
    assert f.num_captures == 4
    with paddle.no_grad():  # grad mode is part of the signature
        f(x, 5.0)
    assert f.num_captures == 5


def test_training_flag_is_a_guard():
    paddle.seed(1)
    net = paddle.jit.to_static(nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)))
    x = paddle.ones([8, 4])
    net(x)
    net.eval()
    a = net(x)
    b = net(x)
    assert net.forward.num_captures == 2
    np.testing.assert_array_equal(a.numpy(), b.numpy())  # eval: no dropout


def test_input_spec_none_dims_share_one_program_without_grad():
    m = paddle.jit.to_static(MLP(), input_spec=[InputSpec([None, 8], "float32", "x")])
    m.eval()
    with paddle.no_grad():
        for n in (1, 5, 9):
            y = m(paddle.randn([n, 8]))
            assert y.shape == [n, 4]
    assert m.forward.num_captures == 1
    assert "tensor<?x8xf32>" in str(m.forward.concrete_program.main_program)
    with pytest.raises(ValueError, match=r"input 0 expected a Tensor matching InputSpec"):
        m(paddle.randn([3, 7]))


def test_decorated_method_binds_each_instance():
    class Net(nn.Layer):
        def __init__(self, k):
            super().__init__()
            self.w = self.create_parameter([3], default_initializer=nn.initializer.Constant(k))

        @paddle.jit.to_static
        def forward(self, x):
            return x * self.w

    a, b = Net(2.0), Net(3.0)
    x = paddle.ones([3])
    np.testing.assert_allclose(a(x).numpy(), [2, 2, 2])
    np.testing.assert_allclose(b(x).numpy(), [3, 3, 3])
    assert a.forward.num_captures == 1 and b.forward.num_captures == 1


def test_buffers_dropout_and_gradients_match_eager():
    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.l1 = nn.Linear(8, 16)
            self.bn = nn.BatchNorm1D(16)
            self.dp = nn.Dropout(0.3)
            self.l2 = nn.Linear(16, 4)

        def forward(self, x):
            return self.l2(self.dp(F.relu(self.bn(self.l1(x)))))

    def run(static):
        paddle.seed(3)
        m = Net()
        if static:
            m = paddle.jit.to_static(m)
        outs = []
        for (x,) in _batches(3, [(16, 8)]):
            y = m(x)
            y.sum().backward()
            outs.append(y.numpy().copy())
        m.eval()
        outs.append(m(x).numpy().copy())
        return outs, m

    eager, me = run(False)
    static, ms = run(True)
    for a, b in zip(eager, static):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(me.bn._mean.numpy(), ms.bn._mean.numpy())
    # Eager backward runs the fused batch_norm_grad kernel; a captured gradient is the composed
    # (differentiable) rule: equal up to float rounding.
    np.testing.assert_allclose(me.l1.weight.grad.numpy(), ms.l1.weight.grad.numpy(), rtol=1e-5,
                               atol=1e-5)


def test_input_gradients_and_higher_order_inside_a_capture():
    @paddle.jit.to_static
    def f(x):
        y = (x * x * x).sum()
        (g,) = paddle.grad(y, x, create_graph=True)
        (h,) = paddle.grad(g.sum(), x)
        return g, h

    x = paddle.to_tensor([1.0, 2.0, 3.0])
    x.stop_gradient = False
    g, h = f(x)
    np.testing.assert_allclose(g.numpy(), [3, 12, 27])
    np.testing.assert_allclose(h.numpy(), [6, 12, 18])

    @paddle.jit.to_static
    def square(x):
        return x * x

    z = paddle.to_tensor([1.0, -2.0])
    z.stop_gradient = False
    square(z).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [2, -4])


def test_reading_a_value_names_the_line_and_suggests_cond():
    @paddle.jit.to_static(full_graph=True)
    def f(x):
        if x.sum() > 0:
            return x
        return -x

    with pytest.raises(paddle.jit.Dy2StaticError) as e:
        f(paddle.ones([2]))
    msg = str(e.value)
    assert "paddle.static.nn.cond" in msg and "if x.sum() > 0:" in msg
    assert f"{__file__}:" in msg

    @paddle.jit.to_static(full_graph=True)
    def g(x):
        return paddle.to_tensor(x.numpy() * 2)

    with pytest.raises(TypeError, match=r"Tensor.numpy reads the Tensor's value"):
        g(paddle.ones([2]))


def test_python_if_on_a_tensor_gets_one_guarded_program_per_path():
    @paddle.jit.to_static
    def f(x):
        if x.sum() > 0:
            return x * 2
        return -x

    np.testing.assert_allclose(f(paddle.ones([2])).numpy(), [2, 2])
    np.testing.assert_allclose(f(-paddle.ones([2])).numpy(), [1, 1])
    assert f.num_captures == 2
    # Both paths are cached: new values take the program whose guard they satisfy.
    np.testing.assert_allclose(f(paddle.full([2], 3.0)).numpy(), [6, 6])
    np.testing.assert_allclose(f(paddle.full([2], -3.0)).numpy(), [3, 3])
    assert f.num_captures == 2
    assert "guard0" in str(f.concrete_program.main_program)


def test_python_while_on_a_tensor_unrolls_per_trip_count():
    @paddle.jit.to_static
    def f(x, n):
        i = paddle.zeros([], dtype="int64")
        while i < n:
            x = x * 2
            i = i + 1
        return x

    three = paddle.to_tensor(3, dtype="int64")
    np.testing.assert_allclose(f(paddle.ones([2]), three).numpy(), [8, 8])
    np.testing.assert_allclose(f(paddle.ones([2]), paddle.to_tensor(5, dtype="int64")).numpy(),
                               [32, 32])
    np.testing.assert_allclose(f(paddle.ones([2]), three).numpy(), [8, 8])
    assert f.num_captures == 2


def test_guarded_paths_train_like_eager():
    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.l1 = nn.Linear(4, 8)
            self.dp = nn.Dropout(0.5)
            self.l2 = nn.Linear(8, 1)

        def forward(self, x):
            h = self.dp(F.relu(self.l1(x)))  # random draws before the guard
            if h.mean() > 0.9:
                h = h * 0.5
            return self.l2(h)

    def run(static):
        paddle.seed(9)
        m = Net()
        if static:
            m = paddle.jit.to_static(m)
        opt = paddle.optimizer.SGD(0.05, parameters=m.parameters())
        losses = []
        for (x,) in _batches(8, [(8, 4)], seed=2):
            loss = (m(x * 3) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses, m

    eager, _ = run(False)
    static, m = run(True)
    assert static == eager
    assert m.forward.num_captures == 2  # both paths taken


def test_a_failed_guard_writes_nothing():
    w = paddle.zeros([2])
    steps = []

    @paddle.jit.to_static
    def step(x):
        steps.append(1)
        with paddle.no_grad():
            w.add_(x)  # a buffer update, written after a run whose guards hold
        if x.sum() > 0:
            return x
        return -x

    step(paddle.ones([2]))
    np.testing.assert_allclose(w.numpy(), [1, 1])
    step(-paddle.ones([2]))  # the first program's guard fails: only the new one's run counts
    np.testing.assert_allclose(w.numpy(), [0, 0])
    step(paddle.ones([2]))
    np.testing.assert_allclose(w.numpy(), [1, 1])
    assert step.num_captures == 2 and len(steps) == 2


def test_float_reads_run_eagerly_with_a_warning():
    @paddle.jit.to_static
    def f(x):
        return x * float(x.mean())

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        np.testing.assert_allclose(f(paddle.full([2], 3.0)).numpy(), [9, 9])
    assert any("Running f eagerly" in str(m.message) for m in w)
    assert f.num_captures == 0


def test_too_many_paths_run_eagerly():
    @paddle.jit.to_static
    def f(x, k):
        for _ in range(int(k)):  # an int read: one path per value
            x = x + 1
        return x

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for k in range(12):
            got = f(paddle.zeros([1]), paddle.to_tensor(k, dtype="int64"))
            np.testing.assert_array_equal(got.numpy(), [k])
    assert f.num_captures == paddle.jit.static_function.MAX_PATHS
    assert any("more than 8 paths" in str(m.message) for m in w)


def test_nested_static_functions_are_inlined():
    @paddle.jit.to_static
    def inner(x):
        return x + 1

    @paddle.jit.to_static
    def outer(x):
        return inner(x) * 2

    np.testing.assert_allclose(outer(paddle.ones([2])).numpy(), [4, 4])
    assert outer.num_captures == 1 and inner.num_captures == 0


def test_enable_to_static_switch():
    @paddle.jit.to_static
    def f(x):
        return x + 1

    paddle.jit.enable_to_static(False)
    try:
        f(paddle.ones([2]))
        assert f.num_captures == 0
    finally:
        paddle.jit.enable_to_static(True)
    f(paddle.ones([2]))
    assert f.num_captures == 1


def test_parallel_executor_gives_the_sequential_results():
    paddle.seed(5)
    m = MLP()
    seq = paddle.jit.to_static(m.forward)
    par = paddle.jit.to_static(m.forward, parallel=True)
    x = paddle.randn([16, 8])
    np.testing.assert_array_equal(seq(x).numpy(), par(x).numpy())


def test_memory_of_a_long_chain_stays_bounded():
    @paddle.jit.to_static
    def chain(x):
        for _ in range(200):
            x = paddle.tanh(x) * 0.5
        return x

    x = paddle.randn([256, 256])
    with paddle.no_grad():
        chain(x)
    cp = chain.concrete_program
    one = 256 * 256 * 4
    assert 0 < cp.planned_peak_bytes <= 3 * one
    assert 0 < cp.measured_peak_bytes <= 3 * one


def test_no_leftover_state_after_a_failed_capture():
    @paddle.jit.to_static(full_graph=True)
    def bad(x):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        bad(paddle.ones([1]))
    assert not paddle._C.jit.is_capturing()
    np.testing.assert_allclose((paddle.ones([2]) + 1).numpy(), [2, 2])  # eager again


def test_jit_save_and_load_round_trip(tmp_path):
    paddle.seed(2)
    m = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 3))
    m.eval()
    path = str(tmp_path / "model")
    paddle.jit.save(m, path, input_spec=[InputSpec([None, 8], "float32", "x")])
    assert sorted(os.listdir(tmp_path)) == ["model.pdiparams", "model.pdmodel"]
    loaded = paddle.jit.load(path)
    for n in (1, 5):
        x = paddle.randn([n, 8])
        np.testing.assert_array_equal(loaded(x).numpy(), m(x).numpy())
    assert list(loaded.state_dict().keys()) == list(m.state_dict().keys())
    assert "op.layer_norm" in loaded.program
    with pytest.raises(ValueError, match=r"input 0 \(x\) expected a Tensor of float32"):
        loaded(paddle.randn([2, 7]))


def test_jit_save_uses_the_to_static_input_spec_and_bfloat16_params(tmp_path):
    net = nn.Linear(4, 2)
    net.to(dtype="bfloat16")
    net = paddle.jit.to_static(net, input_spec=[InputSpec([2, 4], "bfloat16")])
    path = str(tmp_path / "sub" / "lin")
    paddle.jit.save(net, path)
    loaded = paddle.jit.load(path)
    x = paddle.randn([2, 4]).astype("bfloat16")
    with paddle.no_grad():
        want = net(x)
    np.testing.assert_array_equal(loaded(x).astype("float32").numpy(),
                                  want.astype("float32").numpy())


def test_jit_save_and_load_errors(tmp_path):
    with pytest.raises(ValueError, match=r"argument 'input_spec' is required"):
        paddle.jit.save(nn.Linear(2, 2), str(tmp_path / "m"))
    with pytest.raises(ValueError, match=r"does not exist"):
        paddle.jit.load(str(tmp_path / "missing"))
    path = str(tmp_path / "m")
    paddle.jit.save(nn.Linear(2, 2), path, input_spec=[InputSpec([1, 2])])
    with open(path + ".pdiparams", "r+b") as f:
        f.truncate(12)
    with pytest.raises(OSError, match=r"m.pdiparams': expected a header of \d+ bytes .* "
                                      r"\(a truncated file\?\)"):
        paddle.jit.load(path)


def _mlp_train_step(opt_name, lr, seed):
    """A small MLP, its `opt_name` optimizer and an eager training step (loss, backward, step,
    clear_grad) over them."""
    paddle.seed(seed)
    m = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 4))
    opt = getattr(paddle.optimizer, opt_name)(learning_rate=lr, parameters=m.parameters())

    def step(x, y):
        loss = F.mse_loss(m(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return m, opt, step


@pytest.mark.parametrize("opt_name", ["SGD", "Momentum", "Adam", "AdamW"])
@pytest.mark.parametrize("scheduled", [False, True])
def test_whole_training_step_as_one_program(opt_name, scheduled):
    def train(static):
        lr = paddle.optimizer.lr.StepDecay(0.05, step_size=2, gamma=0.5) if scheduled else 0.05
        _, opt, step = _mlp_train_step(opt_name, lr, seed=4)
        if static:
            step = paddle.jit.to_static(step)
        losses = []
        for x, y in _batches(6, [(16, 8), (16, 4)]):
            losses.append(float(step(x, y)))
            if scheduled:
                lr.step()
        return losses, step, opt

    eager, _, opt_e = train(False)
    static, step, opt_s = train(True)
    assert static == eager
    assert step.num_captures == 1
    program = str(step.concrete_program.main_program)
    assert "fused_" in program and step.concrete_program.backward_program is None
    if opt_name.startswith("Adam"):  # the step counters advanced once per run
        assert list(opt_s._steps.values()) == list(opt_e._steps.values()) == [6] * 4


@pytest.mark.parametrize("opt_name", ["SGD", "Momentum", "AdamW"])
def test_whole_step_writes_parameters_where_they_live(opt_name):
    # The fused update of the captured step writes each parameter's own buffer once per run
    # (a resolved in-place call), so no copy or rebinding follows the run.
    m, _, step = _mlp_train_step(opt_name, 0.05, seed=3)
    step = paddle.jit.to_static(step)
    batches = _batches(4, [(16, 8), (16, 4)])
    step(*batches[0])  # the capture
    ptrs = [p.data_ptr() for p in m.parameters()]
    for x, y in batches[1:]:
        versions = [p._inplace_version() for p in m.parameters()]
        before = [p.numpy().copy() for p in m.parameters()]
        step(x, y)
        assert [p.data_ptr() for p in m.parameters()] == ptrs
        assert [p._inplace_version() for p in m.parameters()] == [v + 1 for v in versions]
        assert all(not np.array_equal(p.numpy(), b) for p, b in zip(m.parameters(), before))


def test_cnn_with_dict_outputs_and_keyword_constants():
    class CNN(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(3, 8, 3, padding=1)
            self.bn = nn.BatchNorm2D(8)
            self.pool = nn.MaxPool2D(2)
            self.fc = nn.Linear(8 * 4 * 4, 10)

        def forward(self, x, scale=1.0):
            h = self.pool(F.relu(self.bn(self.conv(x))))
            h = h.reshape([x.shape[0], -1])
            return {"logits": self.fc(h) * scale, "feat": h}

    def run(static):
        paddle.seed(0)
        m = CNN()
        if static:
            m = paddle.jit.to_static(m)
        opt = paddle.optimizer.Momentum(0.01, parameters=m.parameters())
        rng = np.random.default_rng(1)
        losses = []
        for _ in range(3):
            x = paddle.to_tensor(rng.standard_normal((4, 3, 8, 8)).astype("float32"))
            y = paddle.to_tensor(rng.integers(0, 10, (4,)).astype("int64"))
            out = m(x, scale=0.5)
            loss = F.cross_entropy(out["logits"], y) + out["feat"].mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses

    assert run(True) == run(False)


def test_static_forward_outputs_are_freed_with_or_without_backward():
    import gc

    m = paddle.jit.to_static(nn.Linear(64, 64))
    x = paddle.randn([16, 64])
    sizes = []
    for i in range(12):
        y = m(x)
        if i % 2:
            y.sum().backward()
        del y
        gc.collect()
        sizes.append(paddle.device.memory_allocated())
    # Allocated bytes include the best-fit allocator's unsplit remainders (< 512 bytes a block),
    # which move with the allocation pattern; one leaked output alone would be 4 KiB a call.
    assert max(sizes[3:]) - min(sizes[3:]) < 16 * 64 * 4, sizes


def test_run_time_errors_name_the_line_the_op_was_captured_from():
    @paddle.jit.to_static(input_spec=[InputSpec([None]), InputSpec([None])])
    def f(x, y):
        z = x * 2
        return z + y  # the failing line

    with paddle.no_grad():
        np.testing.assert_allclose(f(paddle.ones([3]), paddle.ones([3])).numpy(), [3, 3, 3])
        with pytest.raises(ValueError) as e:
            f(paddle.ones([3]), paddle.ones([4]))
    with open(__file__) as src:
        line = 1 + next(i for i, text in enumerate(src) if text.endswith("# the failing line\n"))
    assert "add: argument 'y' expected a shape broadcastable" in str(e.value)
    assert f"the op was captured at {__file__}:{line})" in str(e.value)
    assert f'loc("{__file__}":{line}:0)' in str(f.concrete_program.main_program)


def test_guarded_training_step_counts_optimizer_steps_once():
    """A step whose update depends on the loss's value: two guarded programs; a run whose guard
    fails must leave no trace (no parameter update, no Adam step counted)."""

    def train(static):
        paddle.seed(6)
        m = nn.Linear(4, 1)
        opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=m.parameters())

        def step(x, y):
            loss = F.mse_loss(m(x), y)
            loss.backward()
            if loss > 1.0:
                opt.step()
            opt.clear_grad()
            return loss

        if static:
            step = paddle.jit.to_static(step)
        losses = []
        for i, (x, y) in enumerate(_batches(10, [(8, 4), (8, 1)], seed=4)):
            losses.append(float(step(x, y * (3.0 if i % 3 == 0 else 0.3))))
        return losses, list(opt._steps.values()), step

    eager, eager_steps, _ = train(False)
    static, static_steps, step = train(True)
    assert static == eager
    assert static_steps == eager_steps and 0 < eager_steps[0] < 10
    assert step.num_captures == 2


def test_not_to_static_functions_are_captured_as_written():
    @paddle.jit.not_to_static
    def helper(x):
        return x * 2

    @paddle.jit.to_static
    def f(x):
        return helper(x) + 1

    np.testing.assert_allclose(f(paddle.ones([2])).numpy(), [3, 3])
    assert "op.multiply" in str(f.concrete_program.main_program)
