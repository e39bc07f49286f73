"""paddle.static on the capture machinery: Programs, program_guard, data, Executor, startup
initialization, append_backward/gradients, optimizer.minimize, errors."""
import numpy as np
import pytest

import skiff as paddle
from skiff import nn, static
import skiff.nn.functional as F


@pytest.fixture
def static_mode():
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()


def _data(n=16, seed=0):
    rs = np.random.RandomState(seed)
    x = rs.randn(n, 4).astype(np.float32)
    y = (x @ rs.randn(4, 1) + 0.5).astype(np.float32)
    return x, y


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def _optimizer(kind, lr, params):
    if kind == "sgd":
        return paddle.optimizer.SGD(lr, parameters=params)
    if kind == "momentum":
        return paddle.optimizer.Momentum(lr, momentum=0.9, parameters=params)
    if kind == "adam":
        return paddle.optimizer.Adam(lr, parameters=params)
    return paddle.optimizer.AdamW(lr, parameters=params, weight_decay=0.01)


def _static_losses(kind, steps, scheduler=False, batch=16):
    x, y = _data()
    paddle.seed(2024)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [batch, 4], "float32")
        ys = static.data("y", [batch, 1], "float32")
        model = MLP()
        loss = F.mse_loss(model(xs), ys)
        lr = paddle.optimizer.lr.StepDecay(0.05, step_size=2, gamma=0.5) if scheduler else 0.05
        opt = _optimizer(kind, lr, None)
        opt.minimize(loss)
    exe = static.Executor()
    exe.run(startup)
    out = []
    for _ in range(steps):
        (value,) = exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])
        out.append(float(value))
        if scheduler:
            lr.step()
    return out


def _dygraph_losses(kind, steps, scheduler=False):
    x, y = _data()
    paddle.seed(2024)
    model = MLP()
    lr = paddle.optimizer.lr.StepDecay(0.05, step_size=2, gamma=0.5) if scheduler else 0.05
    opt = _optimizer(kind, lr, model.parameters())
    out = []
    for _ in range(steps):
        loss = F.mse_loss(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        out.append(float(loss))
        if scheduler:
            lr.step()
    return out


@pytest.mark.parametrize("kind", ["sgd", "momentum", "adam", "adamw"])
def test_static_mlp_trains_like_dygraph(kind):
    paddle.enable_static()
    try:
        static_losses = _static_losses(kind, 6)
    finally:
        paddle.disable_static()
    dygraph_losses = _dygraph_losses(kind, 6)
    assert static_losses[-1] < static_losses[0]
    np.testing.assert_allclose(static_losses, dygraph_losses, rtol=1e-6)


@pytest.mark.parametrize("kind", ["sgd", "momentum", "adam", "adamw"])
def test_minimize_updates_parameters_in_their_buffers(static_mode, kind):
    # Executor.run of a minimize program writes the parameters' own buffers (the fused update
    # runs in place on the resolved executor path): same data pointers, one write per run.
    x, y = _data()
    paddle.seed(1)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [16, 4], "float32")
        ys = static.data("y", [16, 1], "float32")
        loss = F.mse_loss(MLP()(xs), ys)
        _optimizer(kind, 0.05, None).minimize(loss)
    exe = static.Executor()
    exe.run(startup)
    params = main.all_parameters()
    assert len(params) == 4
    exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])
    ptrs = [p.data_ptr() for p in params]
    for _ in range(3):
        versions = [p._inplace_version() for p in params]
        exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])
        assert [p.data_ptr() for p in params] == ptrs
        assert [p._inplace_version() for p in params] == [v + 1 for v in versions]


@pytest.mark.parametrize("kind", ["sgd", "adam"])
def test_dynamic_batch_dim_trains_like_dygraph(kind):
    # data("x", [None, 4]): the mean's gradient divides by the batch size found at run time
    paddle.enable_static()
    try:
        static_losses = _static_losses(kind, 4, batch=None)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(static_losses, _dygraph_losses(kind, 4), rtol=1e-6)


def test_classifier_with_none_batch_dropout_cross_entropy(static_mode):
    paddle.seed(5)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 8], "float32")
        label = static.data("label", [None, 1], "int64")
        net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 3))
        logits = net(x)
        loss = F.cross_entropy(logits, label)
        pred = paddle.argmax(logits, axis=1)
        acc = static.accuracy(F.softmax(logits), label)
        scheduler = paddle.optimizer.lr.CosineAnnealingDecay(0.01, 10)
        paddle.optimizer.AdamW(scheduler, grad_clip=nn.ClipGradByGlobalNorm(1.0)).minimize(loss)
    exe = static.Executor()
    exe.run(startup)
    rs = np.random.RandomState(0)
    xs = rs.randn(64, 8).astype(np.float32)
    ys = xs[:, :3].argmax(1).reshape(-1, 1).astype(np.int64)
    losses = []
    for _ in range(30):
        value, p, a = exe.run(main, feed={"x": xs, "label": ys}, fetch_list=[loss, pred, acc])
        losses.append(float(value))
        scheduler.step()
    assert losses[-1] < 0.6 * losses[0]
    assert (p == ys[:, 0]).mean() > 0.8
    assert float(a) == (p == ys[:, 0]).mean()
    (small,) = exe.run(main, feed={"x": xs[:10], "label": ys[:10]}, fetch_list=[loss])
    assert np.isfinite(small)


def test_compiled_program_runs_in_parallel_like_sequential():
    x, y = _data()
    results = []
    for parallel in (False, True):
        paddle.enable_static()
        try:
            paddle.seed(9)
            main, startup = static.Program(), static.Program()
            with static.program_guard(main, startup):
                xs = static.data("x", [None, 4], "float32")
                ys = static.data("y", [None, 1], "float32")
                h = F.dropout(F.relu(MLP()(xs)), p=0.2)
                loss = F.mse_loss(h, ys)
                paddle.optimizer.Momentum(0.05).minimize(loss)
            exe = static.Executor()
            exe.run(startup)
            strategy = static.BuildStrategy()
            strategy.num_threads = 4
            program = static.CompiledProgram(main, strategy) if parallel else main
            results.append([float(exe.run(program, feed={"x": x, "y": y}, fetch_list=[loss])[0])
                            for _ in range(4)])
        finally:
            paddle.disable_static()
    assert results[0] == results[1]


def test_dropout_model_matches_dygraph_from_the_same_seed():
    # The startup program reseeds and draws the initial values as the dygraph constructor
    # does; the main program's dropout then draws what dygraph's forward draws.
    x, y = _data()

    def net():
        return nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 1))

    paddle.enable_static()
    try:
        paddle.seed(3)
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            xs = static.data("x", [None, 4], "float32")
            ys = static.data("y", [None, 1], "float32")
            loss = F.mse_loss(net()(xs), ys)
            paddle.optimizer.Adam(0.01).minimize(loss)
        exe = static.Executor()
        exe.run(startup)
        static_losses = [float(exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])[0])
                         for _ in range(5)]
    finally:
        paddle.disable_static()
    paddle.seed(3)
    model = net()
    opt = paddle.optimizer.Adam(0.01, parameters=model.parameters())
    dygraph_losses = []
    for _ in range(5):
        loss = F.mse_loss(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        dygraph_losses.append(float(loss))
    np.testing.assert_allclose(static_losses, dygraph_losses, rtol=1e-6)


def test_lr_scheduler_is_read_each_run():
    paddle.enable_static()
    try:
        static_losses = _static_losses("sgd", 6, scheduler=True)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(static_losses, _dygraph_losses("sgd", 6, scheduler=True),
                               rtol=1e-6)


def test_startup_reinitializes_parameters(static_mode):
    paddle.seed(7)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [16, 4], "float32")
        lin = nn.Linear(4, 3)
        loss = paddle.mean(lin(xs) ** 2)
        paddle.optimizer.SGD(0.5).minimize(loss)
    exe = static.Executor()
    exe.run(startup)
    w0 = lin.weight.numpy().copy()
    assert np.abs(w0).max() > 0  # Xavier uniform, not the zeros it was allocated with
    exe.run(main, feed={"x": _data()[0]}, fetch_list=[loss])
    assert not np.allclose(lin.weight.numpy(), w0)
    exe.run(startup)
    np.testing.assert_array_equal(lin.weight.numpy(), w0)
    np.testing.assert_array_equal(lin.bias.numpy(), np.zeros(3, np.float32))


def test_append_backward_matches_eager_grads(static_mode):
    x, y = _data(8)
    paddle.seed(3)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [8, 4], "float32")
        ys = static.data("y", [8, 1], "float32")
        model = MLP()
        loss = F.mse_loss(model(xs), ys)
        pairs = static.append_backward(loss)
    assert [p.name for p, _ in pairs] == [p.name for p in model.parameters()]
    exe = static.Executor()
    exe.run(startup)
    grads = exe.run(main, feed={"x": x, "y": y}, fetch_list=[g for _, g in pairs])
    weights = [p.numpy().copy() for p in model.parameters()]
    paddle.disable_static()
    try:
        eager = MLP()
        for p, w in zip(eager.parameters(), weights):
            p.set_value(w)
        F.mse_loss(eager(paddle.to_tensor(x)), paddle.to_tensor(y)).backward()
        for g, p in zip(grads, eager.parameters()):
            np.testing.assert_allclose(g, p.grad.numpy(), rtol=1e-5, atol=1e-7)
    finally:
        paddle.enable_static()


def test_append_backward_parameter_list_and_no_grad_set(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [2, 4], "float32")
        model = MLP()
        loss = paddle.sum(model(xs))
        pairs = static.append_backward(loss, parameter_list=[model.fc1.weight.name,
                                                             model.fc2.weight],
                                       no_grad_set={model.fc2.weight.name})
    assert [p.name for p, _ in pairs] == [model.fc1.weight.name]


def test_gradients_with_respect_to_an_input(static_mode):
    main = static.Program()
    with static.program_guard(main):
        xs = static.data("x", [3], "float32")
        xs.stop_gradient = False
        y = paddle.sum(xs * xs * xs)
        (gx,) = static.gradients(y, xs)
        (ggx,) = static.gradients(paddle.sum(gx), xs)  # second order: 6x
        z = xs * 2.0
        (gz,) = static.gradients([z], [xs], target_gradients=[paddle.ones([3]) * 3.0])
    x = np.array([1.0, -2.0, 0.5], np.float32)
    g, gg, g3 = static.Executor().run(main, feed={"x": x}, fetch_list=[gx, ggx, gz])
    np.testing.assert_allclose(g, 3 * x * x, rtol=1e-6)
    np.testing.assert_allclose(gg, 6 * x, rtol=1e-6)
    np.testing.assert_allclose(g3, np.full(3, 6.0), rtol=1e-6)


def test_program_guard_nesting(static_mode):
    outer, inner = static.Program(), static.Program()
    default = static.default_main_program()
    with static.program_guard(outer):
        assert static.default_main_program() is outer
        a = static.data("a", [2], "float32")
        with static.program_guard(inner):
            assert static.default_main_program() is inner
            b = static.data("b", [2], "float32")
            b2 = b * 3.0
        assert static.default_main_program() is outer
        a2 = a + 1.0
    assert static.default_main_program() is default
    assert "op.multiply" in str(inner) or "op.scale" in str(inner)
    assert '"a"' in str(outer) and '"b"' not in str(outer)
    exe = static.Executor()
    (ra,) = exe.run(outer, feed={"a": np.ones(2, np.float32)}, fetch_list=[a2])
    (rb,) = exe.run(inner, feed={"b": np.ones(2, np.float32)}, fetch_list=[b2])
    np.testing.assert_array_equal(ra, [2.0, 2.0])
    np.testing.assert_array_equal(rb, [3.0, 3.0])


def test_default_program_without_guard(static_mode):
    main = static.default_main_program()
    x = static.data("x_default", [2], "float32")
    y = F.relu(x)
    (r,) = static.Executor().run(feed={"x_default": np.array([-1.0, 2.0], np.float32)},
                                 fetch_list=[y])
    np.testing.assert_array_equal(r, [0.0, 2.0])
    assert main is static.default_main_program()


def test_fetch_by_name_and_cache(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [3, 4], "float32")
        lin = nn.Linear(4, 2)
        loss = paddle.mean(lin(xs))
        loss.name = "the_loss"
        pairs = static.append_backward(loss)
    exe = static.Executor()
    exe.run(startup)
    x = np.ones([3, 4], np.float32)
    names = ["the_loss", "x", lin.weight.name, lin.weight.name + "@GRAD"]
    r1 = exe.run(main, feed={"x": x}, fetch_list=names)
    r2 = exe.run(main, feed={"x": x}, fetch_list=[loss, xs, lin.weight, pairs[0][1]])
    for a, b in zip(r1, r2):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(r1[1], x)
    np.testing.assert_array_equal(r1[2], lin.weight.numpy())
    np.testing.assert_allclose(r1[3], np.full([4, 2], 0.5), rtol=1e-6)
    exe.run(main, feed={"x": x}, fetch_list=names)
    # startup, and main once: names resolve to the same tensors, reruns hit the cache
    assert len(exe._cache) == 2
    tensors = exe.run(main, feed={"x": x}, fetch_list=[loss], return_numpy=False)
    assert isinstance(tensors[0], paddle.Tensor) and not tensors[0].is_symbolic


def test_names_are_per_program(static_mode):
    lin = None
    programs = []
    for scale in (1.0, 2.0):
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            xs = static.data("x", [2, 4], "float32")
            lin = lin or nn.Linear(4, 1)
            static.append_backward(paddle.sum(lin(xs)) * scale)
        programs.append(main)
    exe = static.Executor()
    exe.run(startup)
    x = np.ones([2, 4], np.float32)
    g1, g2 = (exe.run(p, feed={"x": x}, fetch_list=[lin.weight.name + "@GRAD"])[0]
              for p in programs)
    np.testing.assert_allclose(g1, np.full([4, 1], 2.0))
    np.testing.assert_allclose(g2, np.full([4, 1], 4.0))


def test_parameters_made_eagerly_are_the_programs_too():
    lin = nn.Linear(2, 1)  # dygraph: initialized now
    w0 = lin.weight.numpy().copy()
    paddle.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main):
            loss = paddle.mean(lin(static.data("x", [3, 2], "float32")))
            paddle.optimizer.SGD(0.5).minimize(loss)
        assert [p.name for p in main.all_parameters()] == [lin.weight.name, lin.bias.name]
        static.Executor().run(main, feed={"x": np.ones([3, 2], np.float32)}, fetch_list=[loss])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(lin.weight.numpy(), w0 - 0.5, rtol=1e-6)


def test_program_grows_between_runs(static_mode):
    main = static.Program()
    with static.program_guard(main):
        xs = static.data("x", [2], "float32")
        y = xs * 2.0
    exe = static.Executor()
    x = np.array([1.0, 2.0], np.float32)
    np.testing.assert_array_equal(exe.run(main, feed={"x": x}, fetch_list=[y])[0], [2.0, 4.0])
    with static.program_guard(main):
        z = y + 1.0
    np.testing.assert_array_equal(exe.run(main, feed={"x": x}, fetch_list=[z])[0], [3.0, 5.0])
    assert len(exe._cache) == 1  # the entry of the smaller program was dropped
    np.testing.assert_array_equal(exe.run(main, feed={"x": x}, fetch_list=[y])[0], [2.0, 4.0])


def test_unneeded_inputs_need_no_feed(static_mode):
    main = static.Program()
    with static.program_guard(main):
        a = static.data("a", [2], "float32")
        b = static.data("b", [2], "float32")
        s = a + b
        t = a * 2.0
    exe = static.Executor()
    (r,) = exe.run(main, feed={"a": np.ones(2, np.float32)}, fetch_list=[t])
    np.testing.assert_array_equal(r, [2.0, 2.0])
    with pytest.raises(ValueError, match="needs input 'b'"):
        exe.run(main, feed={"a": np.ones(2, np.float32)}, fetch_list=[s])


def test_clone_for_test_does_not_train(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [16, 4], "float32")
        lin = nn.Linear(4, 1)
        loss = paddle.mean(lin(xs) ** 2)
        test_program = main.clone(for_test=True)
        paddle.optimizer.SGD(0.1).minimize(loss)
    exe = static.Executor()
    exe.run(startup)
    x = _data()[0]
    w0 = lin.weight.numpy().copy()
    (l_test,) = exe.run(test_program, feed={"x": x}, fetch_list=[loss])
    np.testing.assert_array_equal(lin.weight.numpy(), w0)
    (l_train,) = exe.run(main, feed={"x": x}, fetch_list=[loss])
    assert float(l_test) == float(l_train)
    assert not np.allclose(lin.weight.numpy(), w0)
    assert "fused_sgd_" not in str(test_program) and "fused_sgd_" in str(main)
    with pytest.raises(NotImplementedError, match="cloned Program"):
        with static.program_guard(test_program):
            pass


def test_batch_norm_running_stats_under_none_batch_match_dygraph():
    xs = np.random.RandomState(1).randn(6, 3, 4, 4).astype(np.float32)
    paddle.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [None, 3, 4, 4], "float32")
            bn = nn.BatchNorm2D(3)
            y = bn(x)
        exe = static.Executor()
        exe.run(startup)
        for _ in range(2):
            (out,) = exe.run(main, feed={"x": xs}, fetch_list=[y])
        static_stats = bn._mean.numpy().copy(), bn._variance.numpy().copy()
    finally:
        paddle.disable_static()
    eager = nn.BatchNorm2D(3)
    for _ in range(2):
        want = eager(paddle.to_tensor(xs))
    np.testing.assert_allclose(out, want.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(static_stats[0], eager._mean.numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(static_stats[1], eager._variance.numpy(), rtol=1e-6)


def test_clone_for_test_runs_dropout_in_inference(static_mode):
    main = static.Program()
    with static.program_guard(main):
        x = static.data("x", [2, 1000], "float32")
        y = F.dropout(x, p=0.5)
    test_program = main.clone(for_test=True)
    exe = static.Executor()
    ones = np.ones([2, 1000], np.float32)
    (train,) = exe.run(main, feed={"x": ones}, fetch_list=[y])
    (test,) = exe.run(test_program, feed={"x": ones}, fetch_list=[y])
    assert 0.3 < (train == 0).mean() < 0.7
    np.testing.assert_array_equal(test, ones)


def test_clone_for_test_runs_batch_norm_on_running_statistics(static_mode):
    # Paddle's clone(for_test=True) sets is_test on every op that has it: batch_norm too.
    main, startup = static.Program(), static.Program()
    xs = np.random.RandomState(5).randn(4, 3, 2, 2).astype(np.float32) * 3 + 1
    with static.program_guard(main, startup):
        x = static.data("x", [4, 3, 2, 2], "float32")
        bn = nn.BatchNorm2D(3)
        y = bn(x)
    exe = static.Executor()
    exe.run(startup)
    exe.run(main, feed={"x": xs}, fetch_list=[y])  # updates the running statistics once
    (test,) = exe.run(main.clone(for_test=True), feed={"x": xs}, fetch_list=[y])
    mean, var = bn._mean.numpy(), bn._variance.numpy()
    want = (xs - mean.reshape(1, 3, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-5)
    np.testing.assert_allclose(test, want, rtol=1e-5, atol=1e-5)
    assert not np.allclose(mean, 0)  # the statistics moved: batch statistics would differ


def test_truncated_normal_initializer_in_a_startup_program(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        attr = paddle.ParamAttr(initializer=nn.initializer.TruncatedNormal(0.0, 1.0))
        lin = nn.Linear(64, 64, weight_attr=attr)
        lin(static.data("x", [1, 64], "float32"))
    static.Executor().run(startup)
    w = lin.weight.numpy()
    assert np.abs(w).max() <= 2.0 and 0.7 < w.std() < 1.0  # truncated at 2 std


def test_static_nn_fc(static_mode):
    paddle.seed(1)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [None, 2, 3], "float32")
        y = static.nn.fc(xs, size=5, activation="relu")
    assert len(main.all_parameters()) == 2
    exe = static.Executor()
    exe.run(startup)
    w, b = main.all_parameters()
    x = np.random.RandomState(0).randn(4, 2, 3).astype(np.float32)
    (r,) = exe.run(main, feed={"x": x}, fetch_list=[y])
    np.testing.assert_allclose(r, np.maximum(x.reshape(4, 6) @ w.numpy() + b.numpy(), 0),
                               rtol=1e-5, atol=1e-6)


def test_block_ops_and_global_var(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [2], "float32")
        counter = static.create_global_var([1], 5.0, "float32", persistable=True, name="steps")
        counter.add_(paddle.ones([1]))  # written back after each run
        y = F.relu(x) + counter
    types = [op.type for op in main.global_block().ops]
    assert types[0] == "data" and "relu" in types and "add" in types
    exe = static.Executor()
    exe.run(startup)
    x0 = np.array([-1.0, 2.0], np.float32)
    for k in range(3):
        (r,) = exe.run(main, feed={"x": x0}, fetch_list=[y])
        np.testing.assert_array_equal(r, [6.0 + k, 8.0 + k])
    np.testing.assert_array_equal(exe.run(main, feed={"x": x0}, fetch_list=["steps"])[0], [9.0])
    exe.run(startup)
    np.testing.assert_array_equal(counter.numpy(), [5.0])


def test_static_nn_layer_functions_train(static_mode):
    paddle.seed(4)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        img = static.data("img", [None, 1, 6, 6], "float32")
        ids = static.data("ids", [None, 3], "int64")
        label = static.data("label", [None, 1], "int64")
        h = static.nn.conv2d(img, num_filters=4, filter_size=3, padding=1, act="relu")
        h = static.nn.batch_norm(h)
        e = static.nn.embedding(ids, size=[10, 4])
        feats = paddle.concat([paddle.flatten(h, 1), paddle.flatten(e, 1)], axis=1)
        logits = static.nn.fc(feats, size=3)
        loss = F.cross_entropy(logits, label)
        paddle.optimizer.Adam(0.01).minimize(loss)
    assert len(main.all_parameters()) == 2 + 4 + 1 + 2  # conv, bn (+2 stats), emb, fc
    exe = static.Executor()
    exe.run(startup)
    rs = np.random.RandomState(0)
    feed = {"img": rs.randn(16, 1, 6, 6).astype(np.float32),
            "ids": rs.randint(0, 10, [16, 3]).astype(np.int64),
            "label": rs.randint(0, 3, [16, 1]).astype(np.int64)}
    losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(15)]
    assert losses[-1] < 0.5 * losses[0]
    with pytest.raises(ValueError, match="argument 'size'"):
        static.nn.embedding(ids, size=[10])


def test_global_block_and_scope(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [None, 4], "float32")
        lin = nn.Linear(4, 2)
        lin(xs)
    block = main.global_block()
    assert [p.name for p in block.all_parameters()] == [lin.weight.name, lin.bias.name]
    assert block.var("x") is xs
    assert block.has_var(lin.bias.name) and not block.has_var("nope")
    with static.program_guard(main, startup):
        assert static.global_scope().find_var(lin.weight.name).get_tensor() is lin.weight


def _regression_program(seed=11):
    paddle.seed(seed)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = static.data("x", [None, 4], "float32")
        ys = static.data("y", [None, 1], "float32")
        model = MLP()
        pred = model(xs)
        loss = F.mse_loss(pred, ys)
        paddle.optimizer.Adam(0.01).minimize(loss)
    return main, startup, pred, loss


def test_save_and_load_restore_parameters_and_optimizer_state(static_mode, tmp_path):
    x, y = _data()
    main, startup, _, loss = _regression_program()
    exe = static.Executor()
    exe.run(startup)
    for _ in range(3):
        exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])
    path = str(tmp_path / "ckpt")
    static.save(main, path)
    expected = [float(exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])[0])
                for _ in range(3)]
    exe.run(startup)  # back to the initial values (and zero moments, step 0)
    static.load(main, path)
    got = [float(exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])[0]) for _ in range(3)]
    assert got == expected
    assert "op.fused_adam_" in open(path + ".pdmodel").read()
    other, _, _, _ = _regression_program()
    with pytest.raises(ValueError, match="no tensor for"):
        static.load(other, path)
    state = static.load_program_state(path)
    assert all(isinstance(v, np.ndarray) for v in state.values())
    weight = main.all_parameters()[0]
    state[weight.name] = np.zeros(weight.shape, np.float32)
    static.set_program_state(main, state)
    np.testing.assert_array_equal(weight.numpy(), 0.0)


def test_inference_model_round_trip(static_mode, tmp_path):
    x, y = _data()
    main, startup, pred, loss = _regression_program()
    exe = static.Executor()
    exe.run(startup)
    exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])
    prefix = str(tmp_path / "infer")
    static.save_inference_model(prefix, [main.global_block().var("x")], [pred], exe,
                                program=main)
    (want,) = exe.run(main.clone(for_test=True), feed={"x": x}, fetch_list=[pred])
    program, feed_names, fetch_targets = static.load_inference_model(prefix, exe)
    assert feed_names == ["x"]
    (got,) = exe.run(program, feed={"x": x[:5]}, fetch_list=fetch_targets)
    np.testing.assert_allclose(got, want[:5], rtol=1e-6)
    assert "fused_adam_" not in str(program) and "op.data" in str(program)
    paddle.disable_static()
    try:
        layer = paddle.jit.load(prefix)  # the format of paddle.jit.save
        np.testing.assert_allclose(layer(paddle.to_tensor(x)).numpy(), want, rtol=1e-6)
    finally:
        paddle.enable_static()
    with pytest.raises(ValueError, match="needs input 'x'"):
        exe.run(program, feed={}, fetch_list=fetch_targets)
    with pytest.raises(ValueError, match="need input 'y', which is not in feed_vars"):
        static.save_inference_model(prefix, ["x"], [loss], exe, program=main)


# ---------------------------------------------------------------------- errors
def test_error_fetch_of_another_program(static_mode):
    p1, p2 = static.Program(), static.Program()
    with static.program_guard(p1):
        a = static.data("a", [2], "float32") + 1.0
    with static.program_guard(p2):
        static.data("b", [2], "float32")
    with pytest.raises(ValueError, match="another program"):
        static.Executor().run(p2, feed={"b": np.ones(2, np.float32)}, fetch_list=[a])


def test_error_op_mixing_programs(static_mode):
    p1, p2 = static.Program(), static.Program()
    with static.program_guard(p1):
        a = static.data("a", [2], "float32")
    with static.program_guard(p2):
        with pytest.raises(ValueError, match="another program"):
            paddle.add(a, a)


def test_error_unknown_feed_and_names(static_mode):
    main = static.Program()
    with static.program_guard(main):
        y = static.data("x", [2], "float32") * 2.0
    exe = static.Executor()
    with pytest.raises(ValueError, match="feed 'z' is not an input of the program"):
        exe.run(main, feed={"x": np.ones(2, np.float32), "z": np.ones(2, np.float32)},
                fetch_list=[y])
    with pytest.raises(ValueError, match="no variable named 'missing'"):
        exe.run(main, feed={"x": np.ones(2, np.float32)}, fetch_list=["missing"])
    with pytest.raises(TypeError, match="fetch_list"):
        exe.run(main, feed={"x": np.ones(2, np.float32)}, fetch_list=[3])


def test_error_feed_shape_and_dtype(static_mode):
    main = static.Program()
    with static.program_guard(main):
        y = static.data("x", [None, 3], "float32") * 2.0
    exe = static.Executor()
    with pytest.raises(ValueError, match=r"feed 'x' expected shape \[-1, 3\], got \[2, 4\]"):
        exe.run(main, feed={"x": np.ones([2, 4], np.float32)}, fetch_list=[y])
    with pytest.raises(ValueError, match="feed 'x' expected dtype float32, got float64"):
        exe.run(main, feed={"x": np.ones([2, 3])}, fetch_list=[y])
    with pytest.raises(ValueError, match="already has an input named 'x'"):
        with static.program_guard(main):
            static.data("x", [1], "float32")


def test_error_data_in_dynamic_mode():
    paddle.enable_static()
    main = static.Program()
    with static.program_guard(main):
        x = static.data("x", [2], "float32")
    paddle.disable_static()
    with pytest.raises(ValueError, match="relu: argument 'x' .*static-graph variable"):
        F.relu(x)
    with pytest.raises(RuntimeError, match="only in static mode"):
        static.data("y", [2], "float32")


def test_error_backward_of_a_dense_tensor():
    t = paddle.ones([1])  # dygraph: a tensor with data, of no program
    paddle.enable_static()
    try:
        with pytest.raises(TypeError, match="append_backward: argument 'loss': .*dense Tensor"):
            static.append_backward(t)
        with pytest.raises(TypeError, match="gradients: argument 'targets'"):
            static.gradients([t], [t])
    finally:
        paddle.disable_static()


def test_accuracy_top_k():
    scores = paddle.to_tensor(np.array([[0.1, 0.7, 0.2], [0.5, 0.1, 0.4], [0.2, 0.3, 0.5]],
                                       np.float32))
    label = paddle.to_tensor(np.array([[1], [2], [0]], np.int64))
    assert float(static.accuracy(scores, label)) == pytest.approx(1 / 3)
    assert float(static.accuracy(scores, label, k=2)) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="argument 'k'"):
        static.accuracy(scores, label, k=0)


def test_error_arguments(static_mode):
    main = static.Program()
    with static.program_guard(main):
        x = static.data("x", [2], "float32")
        y = x * 2.0
        before = main.clone()
        z = y + 1.0
    exe = static.Executor()
    with pytest.raises(TypeError, match="program_guard: argument 'main_program'"):
        with static.program_guard("main"):
            pass
    with pytest.raises(TypeError, match="Executor.run: argument 'program'"):
        exe.run("main")
    with pytest.raises(TypeError, match="argument 'feed' expected a dict"):
        exe.run(main, feed=[np.ones(2, np.float32)], fetch_list=[y])
    with pytest.raises(TypeError, match="feed 'x' expected data"):
        exe.run(main, feed={"x": y}, fetch_list=[y])
    with pytest.raises(ValueError, match="added after the program was cloned"):
        exe.run(before, feed={"x": np.ones(2, np.float32)}, fetch_list=[z])
    np.testing.assert_array_equal(
        exe.run(before, feed={"x": np.ones(2, np.float32)}, fetch_list=[y])[0], [2.0, 2.0])
    with pytest.raises(ValueError, match="feed 'x' expected dtype float32, got float64"):
        exe.run(main, feed={"x": [1.0, 2.0]}, fetch_list=[y])  # a list: numpy's float64
    with pytest.raises(ValueError, match="static.data: argument 'shape'"):
        with static.program_guard(main):
            static.data("w", [2, -3], "float32")
