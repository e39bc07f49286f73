"""paddle.nn.quant.llm_int8_linear (LLM.int8) against a numpy implementation of the algorithm
written here from Paddle's description: outlier columns of x in floating point, every row's
other values quantized to int8 with its own absmax scale, int8 products summed exactly; Paddle's
documented example, 16-bit inputs, NaN propagation, bad inputs by message, and
Config.enable_mkldnn_int8 serving a saved model through the llm-int8 pass."""
import numpy as np
import pytest

import skiff as paddle
from skiff import inference as paddle_infer
from skiff.nn.quant import llm_int8_linear, weight_quantize
from skiff.static import InputSpec


def np_llm_int8(x, q, scale, bias, threshold):
    """x [m, k] float64, q [n, k] int, scale [n] -> [m, n] as LLM.int8 defines it."""
    outlier = (~(np.abs(x) <= threshold)).any(axis=0)
    inner = np.where(outlier, 0.0, x)
    rng = np.abs(inner).max(axis=1, keepdims=True) if x.shape[1] else np.zeros((x.shape[0], 1))
    safe = np.where(rng == 0, 1.0, rng)
    levels = np.where(rng == 0, 0.0, inner * 127.0 / safe)
    xq = np.clip(np.sign(levels) * np.floor(np.abs(levels) + 0.5), -127, 127)
    ints = xq.astype(np.int64) @ q.astype(np.int64).T
    out = ints * (rng / 127.0) * scale[None, :]
    out += x[:, outlier] @ (q[:, outlier] * scale[:, None]).T
    return out + (0 if bias is None else bias)


def case(m, k, n, seed, outlier_cols=()):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((m, k)).astype(np.float32)
    for c in outlier_cols:
        x[:, c] *= 20.0
    w = (rng.standard_normal((k, n)) * 0.05).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    return x, w, b


@pytest.mark.parametrize("m,k,n,cols", [(1, 64, 48, (3,)),      # decode: direct int8 dots
                                        (37, 96, 130, (0, 50)),  # oneDNN's int8 GEMM
                                        (9, 40, 7, ()),          # no outliers
                                        (20, 33, 40, tuple(range(20)))])  # many outliers
def test_equals_the_numpy_algorithm(m, k, n, cols):
    x, w, b = case(m, k, n, seed=m + k, outlier_cols=cols)
    q, scale = weight_quantize(paddle.to_tensor(w), algo="llm.int8")
    assert q.dtype == paddle.int8 and scale.dtype == paddle.float32
    got = llm_int8_linear(paddle.to_tensor(x), q, paddle.to_tensor(b), scale, 6.0).numpy()
    want = np_llm_int8(x.astype(np.float64), q.numpy(), scale.numpy().astype(np.float64), b, 6.0)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


def test_outliers_in_float_keep_the_product_close():
    """A column 20x larger than the rest: with the outlier path the error is that of the
    int8 weights; quantizing it with the rest (threshold past it) costs much more."""
    x, w, _ = case(64, 128, 96, seed=3, outlier_cols=(7,))
    q, scale = weight_quantize(paddle.to_tensor(w), algo="llm.int8")
    deq = (q.numpy().astype(np.float64) * scale.numpy()[:, None]).T
    exact = x.astype(np.float64) @ deq
    xt = paddle.to_tensor(x)
    with_outliers = np.abs(llm_int8_linear(xt, q, None, scale, 6.0).numpy() - exact).max()
    without = np.abs(llm_int8_linear(xt, q, None, scale, 1e9).numpy() - exact).max()
    assert with_outliers < without / 3
    assert with_outliers < 0.01 * np.abs(exact).max()


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 3e-2), ("float16", 4e-3)])
def test_paddle_doc_example_in_16_bit(dtype, tol):
    """Paddle's example: x [1, 2, 64] in 16 bits, random int8 weight [32, 64], scale [32], bias."""
    paddle.seed(2023)
    x = paddle.cast(paddle.randn([1, 2, 64]), dtype=dtype)
    weight = paddle.cast(paddle.randint(0, 127, [32, 64]), dtype="int8")
    scale = paddle.randn([32], dtype="float32")
    bias = paddle.cast(paddle.randn([32]), dtype=dtype)
    out = llm_int8_linear(x, weight, bias=bias, weight_scale=scale, threshold=6.0)
    assert out.shape == [1, 2, 32] and out.dtype == x.dtype
    want = np_llm_int8(paddle.cast(x, "float32").numpy().reshape(2, 64).astype(np.float64),
                       weight.numpy(), scale.numpy().astype(np.float64),
                       paddle.cast(bias, "float32").numpy(), 6.0)
    got = paddle.cast(out, "float32").numpy().reshape(2, 32)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


def test_nan_and_inf_propagate_through_the_float_path():
    x, w, _ = case(4, 16, 8, seed=5)
    x[2, 3] = np.nan
    x[1, 9] = np.inf
    q, scale = weight_quantize(paddle.to_tensor(w), algo="llm.int8")
    out = llm_int8_linear(paddle.to_tensor(x), q, None, scale).numpy()
    assert np.isnan(out[2]).all()
    assert not np.isfinite(out[1]).any()
    assert np.isfinite(out[[0, 3]]).all()


def test_zero_rows_and_zero_size():
    q, scale = weight_quantize(paddle.to_tensor(case(1, 8, 4, seed=1)[1]), algo="llm.int8")
    out = llm_int8_linear(paddle.zeros([3, 8]), q, paddle.ones([4]), scale).numpy()
    np.testing.assert_array_equal(out, np.ones((3, 4), np.float32))
    assert llm_int8_linear(paddle.zeros([0, 8]), q, None, scale).shape == [0, 4]


def test_signature_and_bad_inputs_name_the_argument():
    import inspect
    assert list(inspect.signature(llm_int8_linear).parameters) == [
        "x", "weight", "bias", "weight_scale", "threshold"]
    assert inspect.signature(llm_int8_linear).parameters["threshold"].default == 6.0
    x, w, _ = case(2, 8, 4, seed=2)
    q, scale = weight_quantize(paddle.to_tensor(w), algo="llm.int8")
    xt = paddle.to_tensor(x)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) llm_int8_linear: argument "
                                         r"'weight_scale' expected the scale Tensor "
                                         r"weight_quantize returned, got None"):
        llm_int8_linear(xt, q)
    with pytest.raises(TypeError, match=r"llm_int8_linear: argument 'weight' expected dtype int8"):
        llm_int8_linear(xt, paddle.to_tensor(w.T.copy()), weight_scale=scale)
    with pytest.raises(TypeError, match=r"\(InvalidType\) llm_int8_linear: argument 'threshold' "
                                        r"expected a float, got str"):
        llm_int8_linear(xt, q, weight_scale=scale, threshold="6")
    with pytest.raises(ValueError, match=r"llm_int8_linear: argument 'threshold' expected a "
                                         r"number .*got nan"):
        llm_int8_linear(xt, q, weight_scale=scale, threshold=float("nan"))
    with pytest.raises(ValueError, match=r"llm_int8_linear: argument 'weight' expected "
                                         r"\[out_features, 6\] for x's last dim 6"):
        llm_int8_linear(paddle.ones([2, 6]), q, weight_scale=scale)
    with pytest.raises(ValueError, match=r"llm_int8_linear: argument 'weight_scale' expected a "
                                         r"1-D tensor \[4\]"):
        llm_int8_linear(xt, q, weight_scale=paddle.ones([5]))
    with pytest.raises(TypeError, match=r"llm_int8_linear: argument 'bias' expected dtype "
                                        r"float32 \(as x\), got float64"):
        llm_int8_linear(xt, q, bias=paddle.ones([4], dtype="float64"), weight_scale=scale)


def test_enable_mkldnn_int8_serves_a_saved_model(tmp_path):
    """A float model saved as usual; Config.enable_mkldnn_int8() turns its linears into
    llm_int8_linear at load, and the outputs stay within int8's error of float32."""
    paddle.seed(8)
    model = paddle.nn.Sequential(paddle.nn.Linear(64, 96), paddle.nn.GELU(),
                                 paddle.nn.Linear(96, 16))
    model.eval()
    prefix = str(tmp_path / "m")
    paddle.jit.save(model, prefix, input_spec=[InputSpec([None, 64], "float32", "x")])
    x = np.random.default_rng(9).standard_normal((5, 64)).astype(np.float32)
    want = model(paddle.to_tensor(x)).numpy()
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    assert not config.mkldnn_int8_enabled()
    config.enable_mkldnn_int8()
    assert config.mkldnn_int8_enabled()
    assert config.passes()[-1] == "llm-int8"
    assert "mkldnn_int8" in config.summary()
    predictor = paddle_infer.create_predictor(config)
    program = predictor.optimized_program()
    assert program.count("op.llm_int8_linear") == 2 and "op.linear" not in program
    handle = predictor.get_input_handle("x")
    handle.reshape([5, 64])
    handle.copy_from_cpu(x)
    predictor.run()
    got = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    err = np.abs(got - want).max()
    assert 0 < err < 0.02 * np.abs(want).max()
    # Paddle's keyword: op types; the linears' names are accepted.
    other = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    other.enable_mkldnn_int8(mkldnn_int8_enabled_op_types={"fc", "matmul_v2"})
    assert other.mkldnn_int8_enabled()
