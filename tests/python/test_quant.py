"""paddle.nn.quant weight-only quantization: weight_quantize / weight_dequantize against a numpy
implementation of the layout written here, weight_only_linear against x @ dequantized weight
(numpy, torch gradients), 16-bit inputs, Paddle's documented example, bad inputs by message,
to_static capture and a quantized layer served by paddle.inference."""
import numpy as np
import pytest
import torch

import skiff as paddle
from skiff import inference as paddle_infer
from skiff.nn.quant import (apply_per_channel_scale, weight_dequantize, weight_only_linear,
                            weight_quantize)
from skiff.static import InputSpec


# ---------------------------------------------------------------------------------------------
# numpy reference of Skiff's layout (docs/ARCHITECTURE.md "Weight-only quantization")

def np_quantize(w, bits, group=-1):
    """w [k, n] float64 -> (q [n, k] int values, scale [n] or [groups, n])."""
    k, n = w.shape
    bound = 127.0 if bits == 8 else 7.0
    g = k if group < 0 else group
    groups = 1 if group < 0 else -(-k // group)
    amax = np.zeros((groups, n))
    for gi in range(groups):
        block = np.abs(w[gi * g:(gi + 1) * g])
        if block.size:
            amax[gi] = block.max(axis=0)
    scale = amax / bound
    per_row = np.repeat(scale, g, axis=0)[:k] if k else np.zeros((0, n))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(per_row == 0, 0.0, w / np.where(per_row == 0, 1.0, per_row))
    q = np.clip(np.sign(r) * np.floor(np.abs(r) + 0.5), -bound, bound).astype(np.int64)
    return q.T, (scale[0] if group < 0 else scale)


def np_pack_int4(q):
    """q [n, k] values in [-7, 7] -> bytes [n, ceil(k / 2)], value 2i low, 2i + 1 high."""
    n, k = q.shape
    padded = np.zeros((n, k + (k % 2)), np.int64)
    padded[:, :k] = q
    low, high = padded[:, 0::2] & 0xF, padded[:, 1::2] & 0xF
    return (low | (high << 4)).astype(np.uint8).view(np.int8)


def np_dequantize(q, scale, group=-1):
    """q [n, k] values, scale [n] or [groups, n] -> [k, n]."""
    n, k = q.shape
    if group < 0:
        return (q * scale[:, None]).T
    per = np.repeat(scale, group, axis=0)[:k]  # [k, n]
    return q.T * per


def rand(shape, seed, scale=0.05):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype("float32")


# ---------------------------------------------------------------------------------------------
# weight_quantize / weight_dequantize

@pytest.mark.parametrize("algo,bits", [("weight_only_int8", 8), ("weight_only_int4", 4),
                                       ("llm.int8", 8)])
@pytest.mark.parametrize("group", [-1, 64, 128])
@pytest.mark.parametrize("k", [130, 7])
def test_quantize_matches_the_numpy_layout(algo, bits, group, k):
    w = rand((k, 6), seed=k + group)
    out, scale = weight_quantize(paddle.to_tensor(w), algo=algo, group_size=group)
    q, s = np_quantize(w.astype(np.float64), bits, group)
    want = q.astype(np.int8) if bits == 8 else np_pack_int4(q)
    assert out.dtype == paddle.int8 and list(out.shape) == list(want.shape)
    got = out.numpy()
    # float32 division may land a value exactly at a rounding tie on the other side: allow one
    # level on at most a handful of values, none elsewhere.
    if bits == 8:
        diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
    else:
        unpack = lambda b: np.stack([((b.view(np.uint8) & 0xF) ^ 8) - 8,
                                     ((b.view(np.uint8) >> 4) ^ 8) - 8], -1).reshape(b.shape[0], -1)
        diff = np.abs(unpack(got) - unpack(want))
    assert diff.max() <= 1 and (diff > 0).sum() <= 2
    assert scale.dtype == paddle.float32
    np.testing.assert_allclose(scale.numpy(), s, rtol=1e-6)


def test_paddle_doc_example():
    paddle.seed(2023)
    x = paddle.rand(shape=[64, 32], dtype=paddle.float16)
    out, scale = weight_quantize(x, algo="weight_only_int8")
    assert out.shape == [32, 64] and scale.shape == [32]
    assert scale.dtype == paddle.float16  # the weight's dtype (float32 only for llm.int8)
    x_dequant = weight_dequantize(out, scale)
    assert x_dequant.shape == [64, 32] and x_dequant.dtype == paddle.float16
    err = np.abs(x_dequant.numpy().astype(np.float32) - x.numpy().astype(np.float32))
    assert err.max() <= 0.5 * scale.numpy().astype(np.float32).max() * 1.01 + 1e-3


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float16"])
@pytest.mark.parametrize("algo", ["weight_only_int8", "weight_only_int4"])
def test_round_trip_error_is_at_most_half_a_step(dtype, algo):
    w = paddle.to_tensor(rand((96, 20), seed=3)).astype(dtype)
    out, scale = weight_quantize(w, algo=algo, group_size=64)
    back = weight_dequantize(out, scale, algo=algo, out_dtype="float32", group_size=64)
    assert back.dtype == paddle.float32
    step = np.repeat(scale.astype("float32").numpy(), 64, axis=0)[:96]
    err = np.abs(back.numpy() - w.astype("float32").numpy())
    # Half a step, plus the scale's own rounding to a 16-bit dtype times the level (<= bound).
    rel = {"float32": 1e-6, "float64": 1e-12, "bfloat16": 2 ** -8, "float16": 2 ** -11}[dtype]
    bound = 127 if algo == "weight_only_int8" else 7
    assert np.all(err <= step * (0.5 + bound * rel) + 1e-7)


def test_zero_channel_and_zero_size():
    w = np.zeros((4, 3), "float32")
    w[:, 1] = [0.375, -1.0, 0.25, 0.0]
    out, scale = weight_quantize(paddle.to_tensor(w))
    np.testing.assert_array_equal(out.numpy()[0], 0)
    np.testing.assert_array_equal(scale.numpy()[[0, 2]], 0)
    assert out.numpy()[1].tolist() == [48, -127, 32, 0]
    out, scale = weight_quantize(paddle.zeros([0, 5]))
    assert out.shape == [5, 0] and scale.shape == [5]


# ---------------------------------------------------------------------------------------------
# weight_only_linear

@pytest.mark.parametrize("rows", [1, 3, 40])
@pytest.mark.parametrize("weight_dtype,group", [("int8", -1), ("int4", -1), ("int8", 64),
                                                ("int4", 128)])
def test_linear_equals_matmul_with_the_dequantized_weight(rows, weight_dtype, group):
    k, n = 160, 72
    w = rand((k, n), seed=1)
    qw, scale = weight_quantize(paddle.to_tensor(w), algo="weight_only_" + weight_dtype,
                                group_size=group)
    deq = weight_dequantize(qw, scale, algo="weight_only_" + weight_dtype, out_dtype="float32",
                            group_size=group).numpy().astype(np.float64)
    x = rand((2, rows, k), seed=2, scale=1.0)
    b = rand((n,), seed=3)
    out = weight_only_linear(paddle.to_tensor(x), qw, bias=paddle.to_tensor(b), weight_scale=scale,
                             weight_dtype=weight_dtype, group_size=group)
    assert out.shape == [2, rows, n] and out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), x.astype(np.float64) @ deq + b, rtol=1e-5, atol=1e-5)
    # And close to the float weight itself: each weight is off by at most half a step, uniform
    # errors over k terms with unit inputs give a sum of std sqrt(k / 12) * step; allow 6 of them.
    tol = 6 * np.sqrt(k / 12) * scale.numpy().max()
    np.testing.assert_allclose(out.numpy(), x @ w + b, atol=tol)


@pytest.mark.parametrize("rows", [1, 24])
def test_gradients_of_x_and_bias_against_torch(rows):
    k, n = 96, 40
    qw, scale = weight_quantize(paddle.to_tensor(rand((k, n), seed=4)), group_size=64)
    deq = weight_dequantize(qw, scale, out_dtype="float32", group_size=64).numpy()
    x_np, b_np = rand((rows, k), seed=5, scale=1.0), rand((n,), seed=6)
    g_np = rand((rows, n), seed=7, scale=1.0)
    x = paddle.to_tensor(x_np, stop_gradient=False)
    b = paddle.to_tensor(b_np, stop_gradient=False)
    out = weight_only_linear(x, qw, bias=b, weight_scale=scale, group_size=64)
    (out * paddle.to_tensor(g_np)).sum().backward()
    tx = torch.tensor(x_np, requires_grad=True)
    tb = torch.tensor(b_np, requires_grad=True)
    tout = torch.nn.functional.linear(tx, torch.tensor(deq.T.copy()), tb)
    (tout * torch.tensor(g_np)).sum().backward()
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy(), rtol=1e-5, atol=1e-5)
    assert qw.grad is None and scale.grad is None


def test_second_order_gradient_through_the_grad_op():
    qw, scale = weight_quantize(paddle.to_tensor(rand((16, 8), seed=8)).astype("float64"))
    x = paddle.to_tensor(rand((3, 16), seed=9).astype("float64"), stop_gradient=False)
    y = weight_only_linear(x, qw, weight_scale=scale)
    (gx,) = paddle.grad([(y * y).sum()], [x], create_graph=True)
    (ggx,) = paddle.grad([gx.sum()], [x])
    deq = weight_dequantize(qw, scale, out_dtype="float64").numpy()
    # d/dx sum(2 (x W) W^T) = 2 * (1 W W^T) broadcast over rows.
    want = np.tile(2 * (np.ones(16) @ deq @ deq.T), (3, 1))
    np.testing.assert_allclose(ggx.numpy(), want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 3e-2), ("float16", 4e-3)])
def test_16_bit_inputs_against_float32(dtype, tol):
    qw, scale = weight_quantize(paddle.to_tensor(rand((128, 48), seed=10)).astype(dtype))
    assert scale.dtype == getattr(paddle, dtype)
    x = paddle.to_tensor(rand((5, 128), seed=11, scale=1.0))
    got = weight_only_linear(x.astype(dtype), qw, weight_scale=scale)
    assert got.dtype == getattr(paddle, dtype)
    want = weight_only_linear(x.astype(dtype).astype("float32"), qw,
                              weight_scale=scale.astype("float32"))
    np.testing.assert_allclose(got.astype("float32").numpy(), want.numpy(), rtol=tol,
                               atol=tol * np.abs(want.numpy()).max())


def test_paddle_linear_example_shapes():
    x = paddle.cast(paddle.randn([1, 2, 64]), dtype="float16")
    weight = paddle.cast(paddle.randint(0, 127, [32, 64]), dtype="int8")
    scale = paddle.randn([32], dtype="float32")
    bias = paddle.cast(paddle.randn([32]), dtype="float16")
    out = weight_only_linear(x, weight, bias=bias, weight_scale=scale, weight_dtype="int8")
    assert out.shape == [1, 2, 32] and out.dtype == paddle.float16


def test_apply_per_channel_scale():
    x = rand((4, 6), seed=12)
    s = rand((6,), seed=13) + 1.0
    out = apply_per_channel_scale(paddle.to_tensor(x), paddle.to_tensor(s))
    np.testing.assert_allclose(out.numpy(), x * s, rtol=1e-6)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) apply_per_channel_scale: argument "
                                         r"'scales' expected a 1-D tensor \[6\]"):
        apply_per_channel_scale(paddle.to_tensor(x), paddle.ones([5]))


# ---------------------------------------------------------------------------------------------
# bad inputs

def test_bad_inputs_name_the_argument():
    w = paddle.to_tensor(rand((8, 4), seed=0))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) weight_quantize: argument 'algo' "
                                         r"expected one of 'weight_only_int8', "
                                         r"'weight_only_int4', 'llm.int8', got 'int8'"):
        weight_quantize(w, algo="int8")
    with pytest.raises(ValueError, match=r"weight_quantize: argument 'arch' expected None "
                                         r"\(Skiff's CPU layout; arch selects a CUDA layout\), "
                                         r"got 80"):
        weight_quantize(w, arch=80)
    with pytest.raises(ValueError, match=r"argument 'group_size' expected -1 \(per channel\), 64 "
                                         r"or 128, got 32"):
        weight_quantize(w, group_size=32)
    with pytest.raises(TypeError, match=r"\(InvalidType\) weight_quantize: argument 'x' expected "
                                        r"a Tensor, got ndarray"):
        weight_quantize(np.zeros((4, 4), "float32"))
    with pytest.raises(TypeError, match=r"weight_quantize: argument 'x' expected a floating dtype"):
        weight_quantize(paddle.ones([4, 4], dtype="int32"))
    with pytest.raises(ValueError, match=r"weight_quantize: argument 'x' expected finite weights, "
                                         r"got a NaN or infinite value in column 1"):
        weight_quantize(paddle.to_tensor([[0.0, float("inf")], [1.0, 2.0]]))
    qw, scale = weight_quantize(w)
    x = paddle.to_tensor(rand((2, 8), seed=1))
    with pytest.raises(ValueError, match=r"weight_only_linear: argument 'weight_scale' expected the "
                                         r"scale Tensor weight_quantize returned, got None"):
        weight_only_linear(x, qw)
    with pytest.raises(ValueError, match=r"weight_only_linear: argument 'weight_dtype' expected "
                                         r"'int8' or 'int4', got 'int2'"):
        weight_only_linear(x, qw, weight_scale=scale, weight_dtype="int2")
    with pytest.raises(TypeError, match=r"weight_only_linear: argument 'weight' expected dtype "
                                        r"int8 \(weight_quantize's out\), got float32"):
        weight_only_linear(x, w, weight_scale=scale)
    with pytest.raises(ValueError, match=r"weight_only_linear: argument 'weight' expected "
                                         r"\[out_features, 6\] for x's last dim 6 \(8-bit\), "
                                         r"got \[4, 8\]"):
        weight_only_linear(paddle.ones([2, 6]), qw, weight_scale=scale)
    with pytest.raises(TypeError, match=r"weight_only_linear: argument 'bias' expected dtype "
                                        r"float32 \(as x\), got float64"):
        weight_only_linear(x, qw, bias=paddle.ones([4], dtype="float64"), weight_scale=scale)


# ---------------------------------------------------------------------------------------------
# static graph and inference

class QuantLinear(paddle.nn.Layer):
    """A Linear whose weight is stored quantized (int8 rows + scales as buffers)."""

    def __init__(self, linear, algo="weight_only_int8"):
        super().__init__()
        qw, scale = weight_quantize(linear.weight, algo=algo)
        self.register_buffer("qweight", qw)
        self.register_buffer("scale", scale)
        self.bias = linear.bias
        self.weight_dtype = "int8" if algo == "weight_only_int8" else "int4"

    def forward(self, x):
        return weight_only_linear(x, self.qweight, bias=self.bias, weight_scale=self.scale,
                                  weight_dtype=self.weight_dtype)


class QuantMlp(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        paddle.seed(3)
        self.fc1 = QuantLinear(paddle.nn.Linear(16, 32))
        self.fc2 = QuantLinear(paddle.nn.Linear(32, 4), algo="weight_only_int4")

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def test_to_static_captures_weight_only_linear():
    model = QuantMlp()
    x = paddle.to_tensor(rand((3, 16), seed=14, scale=1.0))
    eager = model(x).numpy()
    static = paddle.jit.to_static(model.forward, input_spec=[InputSpec([None, 16], "float32")])
    np.testing.assert_allclose(static(x).numpy(), eager, rtol=1e-6, atol=1e-6)


def test_saved_quantized_model_is_served_by_the_predictor(tmp_path):
    model = QuantMlp()
    model.eval()
    prefix = str(tmp_path / "qmlp")
    paddle.jit.save(model, prefix, input_spec=[InputSpec([None, 16], "float32", "x")])
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    predictor = paddle_infer.create_predictor(config)
    x = rand((5, 16), seed=15, scale=1.0)
    handle = predictor.get_input_handle("x")
    handle.reshape([5, 16])
    handle.copy_from_cpu(x)
    predictor.run()
    got = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_allclose(got, model(paddle.to_tensor(x)).numpy(), rtol=1e-6, atol=1e-6)


def test_predictor_quantizes_a_float_model_at_load(tmp_path):
    """The weight-only-int8 pass: a float32 model saved as usual, its linears turned into
    weight_only_linear on int8 rows when the predictor loads it."""
    paddle.seed(4)
    model = paddle.nn.Sequential(paddle.nn.Linear(64, 96), paddle.nn.ReLU(),
                                 paddle.nn.Linear(96, 8))
    model.eval()
    prefix = str(tmp_path / "fmlp")
    paddle.jit.save(model, prefix, input_spec=[InputSpec([None, 64], "float32", "x")])
    x = rand((4, 64), seed=16, scale=1.0)
    want = model(paddle.to_tensor(x)).numpy()
    outs = {}
    for passes in ([], ["weight-only-int8"], ["weight-only-int4"]):
        config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
        for name in passes:
            config.pass_builder().append_pass(name)
        predictor = paddle_infer.create_predictor(config)
        handle = predictor.get_input_handle("x")
        handle.reshape([4, 64])
        handle.copy_from_cpu(x)
        predictor.run()
        outs[tuple(passes)] = predictor.get_output_handle(
            predictor.get_output_names()[0]).copy_to_cpu()
        program = predictor.optimized_program()
        if passes:  # before: two float linears; after: two weight_only_linear on int8 rows
            lines = [ln for ln in program.splitlines() if "weight_only_linear" in ln]
            assert len(lines) == 2 and "op.linear" not in program
            assert "i8" in program
        else:
            assert "weight_only_linear" not in program
    np.testing.assert_allclose(outs[()], want, rtol=1e-5, atol=1e-6)
    err8 = np.abs(outs[("weight-only-int8",)] - want).max()
    err4 = np.abs(outs[("weight-only-int4",)] - want).max()
    assert 0 < err8 < 0.02 * np.abs(want).max()  # quantized, and close
    assert err8 < err4 < 0.3 * np.abs(want).max()


def test_config_enable_weight_only_int8_appends_the_pass_once(tmp_path):
    """Config.enable_weight_only_int8() runs the weight-only-int8 pass last (after the fusions),
    once even when pass_builder also names it, and gives the same program as appending it."""
    paddle.seed(6)
    model = paddle.nn.Sequential(paddle.nn.Linear(32, 48), paddle.nn.GELU(),
                                 paddle.nn.Linear(48, 8))
    model.eval()
    prefix = str(tmp_path / "cfg")
    paddle.jit.save(model, prefix, input_spec=[InputSpec([None, 32], "float32", "x")])
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    assert not config.weight_only_int8_enabled()
    assert "weight-only-int8" not in config.passes()
    config.enable_weight_only_int8()
    assert config.weight_only_int8_enabled()
    assert config.passes()[-1] == "weight-only-int8"
    assert "weight_only_int8" in config.summary()
    appended = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    appended.pass_builder().append_pass("weight-only-int8")
    appended.enable_weight_only_int8()
    assert appended.passes().count("weight-only-int8") == 1
    programs = [paddle_infer.create_predictor(c).optimized_program() for c in (config, appended)]
    assert programs[0] == programs[1]
    assert programs[0].count("op.weight_only_linear") == 2 and "op.linear" not in programs[0]
    config.enable_weight_only_int8(False)
    assert "weight-only-int8" not in config.passes()
    off = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    off.enable_weight_only_int8()
    off.switch_ir_optim(False)
    assert off.passes() == []  # ir_optim off: the program runs as saved


def test_weight_only_pass_leaves_mixed_dtype_linears_alone(tmp_path):
    """A linear whose input dtype differs from its weight's (promoted by linear) is not
    rewritten: weight_only_linear computes in x's dtype without promotion."""

    class Mixed(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = self.create_parameter([8, 4], dtype="float32")

        def forward(self, x):
            return paddle.nn.functional.linear(x.astype("float64"), self.w)

    paddle.seed(5)
    model = Mixed()
    prefix = str(tmp_path / "mixed")
    paddle.jit.save(model, prefix, input_spec=[InputSpec([None, 8], "float32", "x")])
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.pass_builder().append_pass("weight-only-int8")
    predictor = paddle_infer.create_predictor(config)
    assert "weight_only_linear" not in predictor.optimized_program()
    x = rand((2, 8), seed=17, scale=1.0)
    handle = predictor.get_input_handle("x")
    handle.reshape([2, 8])
    handle.copy_from_cpu(x)
    predictor.run()
    got = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_allclose(got, model(paddle.to_tensor(x)).numpy(), rtol=1e-6, atol=1e-6)
