"""paddle.amp: auto_cast levels and lists, gradients' dtypes, decorate O2 master weights,
GradScaler's loss scaling, bf16 training close to fp32 (eager and to_static)."""
import numpy as np
import pytest

import skiff as paddle
import skiff.nn.functional as F


def _x(shape, seed=0):
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype("float32"))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_o1_white_black_promote(dtype):
    x, w = _x([4, 8]), _x([8, 3], 1)
    with paddle.amp.auto_cast(dtype=dtype):
        y = paddle.matmul(x, w)          # white: AMP dtype
        s = F.softmax(y)                 # black for float16, promote for bfloat16
        z = y + paddle.ones([3])         # promote with a float32 input: float32
        h = y * y                        # promote, only AMP inputs: AMP dtype
        i = paddle.arange(3)             # no floating input: untouched
    assert str(y.dtype) == f"paddle.{dtype}"
    assert str(s.dtype) == ("paddle.float32" if dtype == "float16" else f"paddle.{dtype}")
    assert z.dtype == paddle.float32
    assert str(h.dtype) == f"paddle.{dtype}"
    assert i.dtype == paddle.int64
    np.testing.assert_allclose(y.astype("float32").numpy(), (x @ w).numpy(), rtol=0.05,
                               atol=0.05)
    # Outside the block nothing is cast.
    assert paddle.matmul(x, w).dtype == paddle.float32


def test_o2_without_promote_and_od():
    x = _x([4, 8])
    with paddle.amp.auto_cast(level="O2", dtype="bfloat16", use_promote=False):
        assert (x + x).dtype == paddle.bfloat16       # everything but black ops
        assert F.embedding(paddle.to_tensor([1, 2]), x.astype("bfloat16")).dtype == paddle.float32  # black
    with paddle.amp.auto_cast(level="OD", dtype="bfloat16"):
        assert paddle.matmul(x, x.T).dtype == paddle.bfloat16
        assert (x.astype("bfloat16") * 2.0).dtype == paddle.float32  # OD: others in float32
    with paddle.amp.auto_cast(enable=False, dtype="bfloat16"):
        assert paddle.matmul(x, x.T).dtype == paddle.float32


def test_custom_lists_and_errors():
    x = _x([4, 4])
    with paddle.amp.auto_cast(dtype="bfloat16", custom_black_list={"matmul_v2"},
                              custom_white_list=["tanh"]):
        assert paddle.matmul(x, x).dtype == paddle.float32
        assert paddle.tanh(x).dtype == paddle.bfloat16
    with pytest.raises(ValueError, match="overlap"):
        with paddle.amp.auto_cast(custom_white_list=["tanh"], custom_black_list=["tanh"]):
            pass
    with pytest.raises(ValueError, match="level"):
        with paddle.amp.auto_cast(level="O3"):
            pass
    with pytest.raises(ValueError, match="dtype"):
        with paddle.amp.auto_cast(dtype="float64"):
            pass
    # Nested blocks restore the outer state.
    with paddle.amp.auto_cast(dtype="bfloat16"):
        with paddle.amp.auto_cast(enable=False):
            assert paddle.matmul(x, x).dtype == paddle.float32
        assert paddle.matmul(x, x).dtype == paddle.bfloat16
    assert paddle.amp.amp_guard is not None
    assert "matmul" in paddle.amp.white_list()["bfloat16"]["O1"]
    assert paddle.amp.is_bfloat16_supported() and paddle.amp.is_float16_supported()


def test_gradients_in_the_parameters_dtype():
    lin = paddle.nn.Linear(8, 4)
    x = _x([3, 8])
    with paddle.amp.auto_cast(dtype="bfloat16"):
        y = lin(x)
        loss = y.astype("float32").square().mean()
    assert y.dtype == paddle.bfloat16
    loss.backward()
    assert lin.weight.grad.dtype == paddle.float32
    assert lin.bias.grad.dtype == paddle.float32
    # Close to the float32 gradient.
    lin2 = paddle.nn.Linear(8, 4)
    lin2.set_state_dict(lin.state_dict())
    lin2(x).square().mean().backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), lin2.weight.grad.numpy(), rtol=0.05,
                               atol=0.02)


def test_decorate_o2_master_weights():
    paddle.seed(0)
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.LayerNorm(8),
                                 paddle.nn.Linear(8, 2))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    model, opt = paddle.amp.decorate(model, opt, level="O2", dtype="bfloat16")
    assert model[0].weight.dtype == paddle.bfloat16
    assert model[1].weight.dtype == paddle.float32  # normalization layers stay float32
    assert opt._parameter_list[0] is model[0].weight
    before = model[0].weight.astype("float32").numpy()
    for _ in range(3):
        with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
            loss = model(_x([5, 4])).astype("float32").mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    master = opt.state_dict()["master_weights"][model[0].weight.name]
    assert master.dtype == paddle.float32
    np.testing.assert_array_equal(master.astype("bfloat16").numpy(), model[0].weight.numpy())
    assert not np.array_equal(before, model[0].weight.astype("float32").numpy())
    with pytest.raises(ValueError, match="level"):
        paddle.amp.decorate(model, level="O3")


def _scaled_step(scaler, lin, opt, x, poison):
    loss = lin(x).mean()
    if poison:
        loss = loss * float("inf")
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()


def test_grad_scaler_skips_inf_and_moves_the_scale():
    lin = paddle.nn.Linear(3, 1)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0, incr_every_n_steps=2,
                                   decr_every_n_nan_or_inf=1)
    x = _x([2, 3])
    w0 = lin.weight.numpy().copy()
    _scaled_step(scaler, lin, opt, x, poison=True)
    np.testing.assert_array_equal(lin.weight.numpy(), w0)  # step skipped
    assert float(scaler.get_loss_scaling()) == 512.0
    _scaled_step(scaler, lin, opt, x, poison=False)
    assert float(scaler.get_loss_scaling()) == 512.0
    assert not np.array_equal(lin.weight.numpy(), w0)
    _scaled_step(scaler, lin, opt, x, poison=False)
    assert float(scaler.get_loss_scaling()) == 1024.0  # two finite steps: incr_ratio
    state = scaler.state_dict()
    assert state["incr_count"] == 0 and state["decr_count"] == 0
    other = paddle.amp.GradScaler()
    other.load_state_dict(state)
    assert float(other.get_loss_scaling()) == 1024.0


def test_grad_scaler_unscale_matches_plain_gradients():
    lin = paddle.nn.Linear(3, 2)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
    x = _x([4, 3])
    lin(x).sum().backward()
    plain = lin.weight.grad.numpy().copy()
    opt.clear_grad()
    scaler = paddle.amp.GradScaler(init_loss_scaling=256.0)
    scaler.scale(lin(x).sum()).backward()
    scaler.unscale_(opt)
    np.testing.assert_allclose(lin.weight.grad.numpy(), plain, rtol=1e-6)
    with pytest.raises(RuntimeError, match="unscale_"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="step"):
        scaler.step(opt)
    scaler.update()
    with pytest.raises(TypeError):
        scaler.scale(1.0)
    with pytest.raises(AssertionError):
        paddle.amp.GradScaler(incr_ratio=0.5)


def _mlp():
    paddle.seed(5)
    return paddle.nn.Sequential(paddle.nn.Linear(8, 32), paddle.nn.ReLU(),
                                paddle.nn.Linear(32, 1))


def _train(amp, static=False, steps=30):
    model = _mlp()
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((64, 8)).astype("float32")
    ys = (xs[:, :1] * 2 - xs[:, 1:2]).astype("float32")
    x, y = paddle.to_tensor(xs), paddle.to_tensor(ys)

    def step(x, y):
        with paddle.amp.auto_cast(enable=amp, dtype="bfloat16"):
            pred = model(x)
        loss = F.mse_loss(pred.astype("float32"), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    fn = paddle.jit.to_static(step) if static else step
    losses = [float(fn(x, y)) for _ in range(steps)]
    if static:
        assert fn.num_captures == 1  # one program, replayed
        assert "{dtype = bf16}" in str(fn.concrete_program.main_program)
    return losses


def test_mlp_bf16_close_to_fp32_eager_and_to_static():
    fp32 = _train(False)
    bf16 = _train(True)
    assert bf16[-1] < 0.5 * bf16[0]
    assert abs(bf16[-1] - fp32[-1]) < 0.1 * fp32[0]
    static = _train(True, static=True)
    np.testing.assert_allclose(static, bf16, rtol=0.05, atol=0.02)


def test_to_static_captures_the_casts():
    lin = paddle.nn.Linear(4, 4)

    @paddle.jit.to_static
    def f(x):
        with paddle.amp.auto_cast(dtype="bfloat16"):
            return lin(x)

    y = f(_x([2, 4]))
    assert y.dtype == paddle.bfloat16
    text = str(f.concrete_program.main_program)
    # The inputs and parameters are cast in the IR; the gradients are cast back to float32.
    assert text.count("op.cast(") >= 4
    assert "{dtype = bf16}" in text and "{dtype = f32}" in text
    assert "op.linear" in text and "tensor<2x4xbf16>" in text
