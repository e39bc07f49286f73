"""paddle.inference over the C++ predictor: a model saved by paddle.jit.save (or
paddle.static.save_inference_model) and served through Config / create_predictor / the tensor
handles gives the eager outputs; run(list of Tensor), clones on threads, the Config switches,
and every kind of bad input (name, shape, dtype, files) as a Paddle-style error."""
import os
import threading

import numpy as np
import pytest

import skiff as paddle
import skiff.inference as paddle_infer
from skiff import _C
from skiff.static import InputSpec


class Mlp(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 8)
        self.norm = paddle.nn.LayerNorm(8)
        self.fc2 = paddle.nn.Linear(8, 3)

    def forward(self, x):
        return paddle.nn.functional.softmax(self.fc2(paddle.nn.functional.relu(self.norm(
            self.fc1(x)))), axis=-1)


class TwoHeads(paddle.nn.Layer):
    """Two inputs (float32 features, int64 token ids) and two outputs."""

    def __init__(self):
        super().__init__()
        self.emb = paddle.nn.Embedding(10, 4)
        self.fc = paddle.nn.Linear(4, 2)

    def forward(self, x, ids):
        h = x + self.emb(ids).sum(axis=1)
        return self.fc(h), paddle.tanh(h)


def _save(layer, path, specs):
    paddle.seed(0)
    layer.eval()
    paddle.jit.save(layer, path, input_spec=specs)
    return layer


@pytest.fixture
def mlp(tmp_path):
    paddle.seed(1)
    layer = _save(Mlp(), str(tmp_path / "mlp"), [InputSpec([None, 4], "float32", "x")])
    return layer, str(tmp_path / "mlp")


def _data(rows, seed=0):
    return np.random.default_rng(seed).standard_normal((rows, 4)).astype("float32")


def _predict(predictor, x):
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    handle.reshape(list(x.shape))
    handle.copy_from_cpu(x)
    assert predictor.run() is None
    return predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()


# ------------------------------------------------------------------ end to end
@pytest.mark.parametrize("ir_optim", [True, False])
def test_jit_saved_model_gives_eager_outputs(mlp, ir_optim):
    layer, prefix = mlp
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.switch_ir_optim(ir_optim)
    assert config.ir_optim() is ir_optim
    predictor = paddle_infer.create_predictor(config)
    assert predictor.get_input_names() == ["x"]
    for rows in (1, 5):  # the batch dim was saved as None
        x = _data(rows, seed=rows)
        got = _predict(predictor, x)
        assert got.dtype == np.float32 and got.shape == (rows, 3)
        np.testing.assert_allclose(got, layer(paddle.to_tensor(x)).numpy(), rtol=1e-5,
                                   atol=1e-6)
        out = predictor.get_output_handle(predictor.get_output_names()[0])
        assert out.shape() == [rows, 3]
        assert out.type() == paddle_infer.DataType.FLOAT32
        assert out.name() == predictor.get_output_names()[0]
        assert out.place() == paddle_infer.PlaceType.CPU


def test_config_forms_find_the_same_model(mlp):
    layer, prefix = mlp
    model_dir = os.path.dirname(prefix)
    x = _data(3)
    want = layer(paddle.to_tensor(x)).numpy()
    by_dir = paddle_infer.Config(model_dir)
    assert by_dir.model_dir() == model_dir
    assert by_dir.prog_file() == prefix + ".pdmodel"
    assert by_dir.params_file() == prefix + ".pdiparams"
    with_prefix = paddle_infer.Config(model_dir, "mlp")  # Paddle 3's (dir, prefix)
    assert with_prefix.prog_file() == prefix + ".pdmodel"
    set_later = paddle_infer.Config()
    set_later.set_model(prefix + ".pdmodel", prefix + ".pdiparams")
    assert set_later.prog_file() == prefix + ".pdmodel"
    for config in (by_dir, with_prefix, set_later):
        np.testing.assert_allclose(_predict(paddle_infer.create_predictor(config), x), want,
                                   rtol=1e-5, atol=1e-6)
    # The Predictor class itself is a constructor too.
    np.testing.assert_allclose(_predict(paddle_infer.Predictor(by_dir), x), want, rtol=1e-5,
                               atol=1e-6)


def test_run_with_a_list_of_tensors(mlp):
    layer, prefix = mlp
    predictor = paddle_infer.create_predictor(paddle_infer.Config(os.path.dirname(prefix)))
    x1, x2 = _data(2, seed=3), _data(6, seed=4)
    (y1,) = predictor.run([paddle.to_tensor(x1)])
    assert isinstance(y1, paddle.Tensor)
    first = y1.numpy().copy()
    (y2,) = predictor.run([paddle.to_tensor(x2)])
    np.testing.assert_allclose(y1.numpy(), layer(paddle.to_tensor(x1)).numpy(), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(y2.numpy(), layer(paddle.to_tensor(x2)).numpy(), rtol=1e-5,
                               atol=1e-6)
    # An earlier result is not overwritten by the next run.
    np.testing.assert_array_equal(y1.numpy(), first)
    # The output handle sees the latest run.
    out = predictor.get_output_handle(predictor.get_output_names()[0])
    np.testing.assert_array_equal(out.copy_to_cpu(), y2.numpy())


def test_two_inputs_two_outputs_int64_ids(tmp_path):
    paddle.seed(2)
    prefix = str(tmp_path / "heads")
    layer = _save(TwoHeads(), prefix, [InputSpec([None, 4], "float32", "x"),
                                       InputSpec([None, 3], "int64", "ids")])
    predictor = paddle_infer.create_predictor(paddle_infer.Config(prefix + ".pdmodel",
                                                                  prefix + ".pdiparams"))
    assert predictor.get_input_names() == ["x", "ids"]
    assert len(predictor.get_output_names()) == 2
    ids_handle = predictor.get_input_handle("ids")
    assert ids_handle.type() == paddle_infer.DataType.INT64
    assert predictor.get_input_tensor_shape() == {"x": [-1, 4], "ids": [-1, 3]}
    x = _data(2, seed=5)
    ids = np.array([[1, 2, 3], [9, 0, 4]], dtype=np.int64)
    predictor.get_input_handle("x").copy_from_cpu(x)  # copy_from_cpu takes the array's shape
    ids_handle.copy_from_cpu(ids)
    predictor.run()
    want = [t.numpy() for t in layer(paddle.to_tensor(x), paddle.to_tensor(ids))]
    for name, w in zip(predictor.get_output_names(), want):
        np.testing.assert_allclose(predictor.get_output_handle(name).copy_to_cpu(), w,
                                   rtol=1e-5, atol=1e-6)
    outs = predictor.run([paddle.to_tensor(x), paddle.to_tensor(ids)])
    for o, w in zip(outs, want):
        np.testing.assert_allclose(o.numpy(), w, rtol=1e-5, atol=1e-6)


def test_static_save_inference_model_is_served(tmp_path):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4], "float32")
            pred = paddle.static.nn.fc(x, 2)
        exe = paddle.static.Executor()
        exe.run(startup)
        xs = _data(5, seed=6)
        (want,) = exe.run(main, feed={"x": xs}, fetch_list=[pred])
        prefix = str(tmp_path / "static")
        paddle.static.save_inference_model(prefix, [x], [pred], exe, program=main)
    finally:
        paddle.disable_static()
    predictor = paddle_infer.create_predictor(paddle_infer.Config(prefix + ".pdmodel",
                                                                  prefix + ".pdiparams"))
    np.testing.assert_allclose(_predict(predictor, xs), want, rtol=1e-5, atol=1e-6)


def test_clones_share_weights_and_run_on_threads(mlp):
    layer, prefix = mlp
    config = paddle_infer.Config(os.path.dirname(prefix))
    config.set_cpu_math_library_num_threads(1)
    base = paddle_infer.create_predictor(config)
    clones = [base.clone() for _ in range(3)]
    inputs = [_data(4, seed=10 + i) for i in range(3)]
    wants = [layer(paddle.to_tensor(x)).numpy() for x in inputs]
    results = [None] * 3
    errors = []

    def serve(i):
        try:
            for _ in range(20):
                results[i] = _predict(clones[i], inputs[i])
        except Exception as e:  # reported below: a failure in a thread must fail the test
            errors.append(e)

    threads = [threading.Thread(target=serve, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for got, want in zip(results, wants):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    pool = paddle_infer.PredictorPool(config, 2)
    np.testing.assert_allclose(_predict(pool.retrive(1), inputs[0]), wants[0], rtol=1e-5,
                               atol=1e-6)
    with pytest.raises(IndexError, match=r"\(OutOfRange\) PredictorPool.retrive: argument "
                                         r"'idx' expected an int in \[0, 2\), got 2"):
        pool.retrive(2)


# ------------------------------------------------------------------ Config
def test_config_switches(mlp, capfd):
    _, prefix = mlp
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    assert config.use_gpu() is False
    config.enable_use_gpu(100, 0)
    assert config.use_gpu() is False  # no GPU predictor: a warning, the config stays on the CPU
    assert "EnableUseGpu: not available" in capfd.readouterr().err
    config.disable_gpu()
    config.enable_mkldnn()  # oneDNN is always the CPU kernel library
    assert config.mkldnn_enabled()
    config.set_cpu_math_library_num_threads(2)
    assert config.cpu_math_library_num_threads() == 2
    config.enable_memory_optim()
    assert config.memory_optim_enabled()
    assert "cse" in config.passes()
    config.delete_pass("cse")
    assert "cse" not in config.passes()
    summary = config.summary()
    assert "cpu_math_thread          | 2" in summary and "memory_optim             | true" in summary
    assert "cse," not in summary and prefix + ".pdmodel" in summary
    config.switch_ir_optim(False)
    assert config.passes() == []
    x = _data(3)
    want = _predict(paddle_infer.create_predictor(paddle_infer.Config(prefix + ".pdmodel",
                                                                      prefix + ".pdiparams")), x)
    np.testing.assert_allclose(_predict(paddle_infer.create_predictor(config), x), want,
                               rtol=1e-6)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) Config::SetCpuMathLibraryNumThreads"
                                         r": argument 'cpu_math_library_num_threads' expected "
                                         r"at least 1, got 0"):
        config.set_cpu_math_library_num_threads(0)


def test_mkldnn_bfloat16_runs_as_eager_auto_cast(mlp):
    layer, prefix = mlp
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    assert config.mkldnn_bfloat16_enabled() is False
    config.enable_mkldnn_bfloat16()
    assert config.mkldnn_bfloat16_enabled() is True
    assert config.passes()[-2:] == ["cpu-bfloat16", "fold-params"]
    assert "mkldnn_bfloat16          | true" in config.summary()
    predictor = paddle_infer.create_predictor(config)
    x = _data(5)
    got = _predict(predictor, x)  # inputs and outputs stay float32
    assert got.dtype == np.float32
    assert "bf16" in predictor.optimized_program()
    with paddle.no_grad():
        want32 = layer(paddle.to_tensor(x)).numpy()
        with paddle.amp.auto_cast(dtype="bfloat16", level="O1"):
            want16 = layer(paddle.to_tensor(x)).astype("float32").numpy()
    # The same casts as eager AMP, so close to it; bfloat16's 8 bits away from float32.
    np.testing.assert_allclose(got, want16, atol=2e-3)
    assert np.abs(got - want32).max() > 1e-5
    np.testing.assert_allclose(got, want32, atol=3e-2)


def test_convert_to_mixed_precision_writes_a_bfloat16_model(mlp, tmp_path):
    layer, prefix = mlp
    out = str(tmp_path / "mixed")
    paddle_infer.convert_to_mixed_precision(
        prefix + ".pdmodel", prefix + ".pdiparams", out + ".pdmodel", out + ".pdiparams",
        paddle_infer.PrecisionType.Bfloat16, paddle_infer.PlaceType.CPU)
    # The linear weights are stored in bfloat16: half their bytes.
    params, _ = _C.load_safetensors(out + ".pdiparams")
    dtypes = sorted(str(t.dtype) for _, t in params)
    assert dtypes.count("paddle.bfloat16") == 4, dtypes  # two weights, two biases
    assert os.path.getsize(out + ".pdiparams") < os.path.getsize(prefix + ".pdiparams")
    x = _data(4)
    converted = _predict(paddle_infer.create_predictor(paddle_infer.Config(
        out + ".pdmodel", out + ".pdiparams")), x)
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.enable_mkldnn_bfloat16()
    np.testing.assert_array_equal(converted, _predict(paddle_infer.create_predictor(config), x))
    # jit.load reads the converted files too (its outputs stay float32).
    loaded = paddle.jit.load(out)
    np.testing.assert_array_equal(loaded(paddle.to_tensor(x)).numpy(), converted)
    # black_list keeps linear in float32: the float32 model's outputs.
    kept = str(tmp_path / "kept")
    paddle_infer.convert_to_mixed_precision(
        prefix + ".pdmodel", prefix + ".pdiparams", kept + ".pdmodel", kept + ".pdiparams",
        paddle_infer.PrecisionType.Bfloat16, paddle_infer.PlaceType.CPU, True, {"linear"})
    assert "bf16" not in open(kept + ".pdmodel").read()
    np.testing.assert_allclose(_predict(paddle_infer.create_predictor(paddle_infer.Config(
        kept + ".pdmodel", kept + ".pdiparams")), x), layer(paddle.to_tensor(x)).numpy(),
        rtol=1e-5, atol=1e-6)


def test_convert_to_mixed_precision_bad_arguments(mlp, tmp_path):
    _, prefix = mlp
    f = paddle_infer.convert_to_mixed_precision
    src = (prefix + ".pdmodel", prefix + ".pdiparams")
    dst = (str(tmp_path / "m.pdmodel"), str(tmp_path / "m.pdiparams"))
    bf16, cpu = paddle_infer.PrecisionType.Bfloat16, paddle_infer.PlaceType.CPU
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) convert_to_mixed_precision: "
                                         r"argument 'mixed_precision' expected"):
        f(*src, *dst, paddle_infer.PrecisionType.Int8, cpu)
    with pytest.raises(NotImplementedError, match=r"\(Unimplemented\) .*'backend' expected "
                                                  r"PlaceType.CPU"):
        f(*src, *dst, bf16, paddle_infer.PlaceType.GPU)
    with pytest.raises(NotImplementedError, match=r"'keep_io_types' expected True"):
        f(*src, *dst, bf16, cpu, False)
    with pytest.raises(ValueError, match=r"argument 'black_list' expected names of ops, got "
                                         r"'conv2d_fusion', which is no op"):
        f(*src, *dst, bf16, cpu, True, {"conv2d_fusion"})
    with pytest.raises(ValueError, match=r"argument 'white_list' expected no op also in "
                                         r"black_list, got relu"):
        f(*src, *dst, bf16, cpu, True, {"relu"}, white_list={"relu"})
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'colour'"):
        f(*src, *dst, bf16, cpu, colour=1)
    with pytest.raises(TypeError, match=r"\(InvalidType\) .*'black_list' expected a set"):
        f(*src, *dst, bf16, cpu, True, "linear")
    with pytest.raises(ValueError, match=r"must not overwrite the model"):
        f(*src, *src, bf16, cpu)
    with pytest.raises(RuntimeError, match=r"\(Unavailable\) load inference model: .*missing\.pdmodel"):
        f(str(tmp_path / "missing.pdmodel"), src[1], *dst, bf16, cpu)
    assert not os.path.exists(dst[0]) and not os.path.exists(dst[1])


def test_pass_builder_edits_the_pipeline(mlp):
    _, prefix = mlp
    config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    builder = config.pass_builder()
    assert "dce" in builder.all_passes()
    builder.delete_pass("dce")
    assert "dce" not in config.passes()
    with pytest.raises(IndexError, match=r"\(OutOfRange\) PassBuilder::InsertPass"):
        builder.insert_pass(1000, "dce")


def test_version_enums_and_sizes():
    assert paddle_infer.get_version().startswith("skiff " + paddle.version.full_version)
    assert paddle_infer.PrecisionType.Float32 != paddle_infer.PrecisionType.Half
    assert {paddle_infer.PrecisionType.Int8, paddle_infer.PrecisionType.Bfloat16}
    assert paddle_infer.PlaceType.CPU != paddle_infer.PlaceType.GPU
    assert paddle_infer.get_num_bytes_of_data_type(paddle_infer.DataType.FLOAT16) == 2
    assert paddle_infer.get_num_bytes_of_data_type(paddle_infer.DataType.INT64) == 8
    with pytest.raises(TypeError, match="expected a paddle.inference.DataType, got str"):
        paddle_infer.get_num_bytes_of_data_type("float32")


# ------------------------------------------------------------------ bad input
@pytest.fixture
def predictor(mlp):
    _, prefix = mlp
    return paddle_infer.create_predictor(paddle_infer.Config(prefix + ".pdmodel",
                                                             prefix + ".pdiparams"))


def test_error_unknown_names(predictor):
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) Predictor::GetInputHandle: "
                                         r"argument 'name' expected one of \[x\], got 'image'"):
        predictor.get_input_handle("image")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) Predictor::GetOutputHandle: "
                                         r"argument 'name' expected one of"):
        predictor.get_output_handle("x")


def test_error_wrong_shapes(predictor):
    handle = predictor.get_input_handle("x")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) Tensor::Reshape: argument 'x' "
                                         r"expected a shape matching the model's input \[-1, 4\]"
                                         r" \(-1: any size >= 0\), got \[2, 5\]"):
        handle.copy_from_cpu(np.zeros((2, 5), np.float32))
    with pytest.raises(ValueError, match=r"got \[8\]"):
        handle.reshape([8])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) Predictor::Run: argument 'x' "
                                         r"expected a tensor of float32 \[-1, 4\], got float32 "
                                         r"\[3\]"):
        predictor.run([paddle.ones([3])])
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) Predictor::Run: argument "
                                         r"'inputs' expected 1 tensors \(\[x\]\), got 2"):
        predictor.run([paddle.ones([1, 4]), paddle.ones([1, 4])])


def test_error_wrong_dtypes_and_types(predictor):
    handle = predictor.get_input_handle("x")
    with pytest.raises(TypeError, match=r"\(InvalidType\) Tensor.copy_from_cpu: argument 'x' "
                                        r"expected a numpy array of the model's input dtype "
                                        r"float32, got an array of float64"):
        handle.copy_from_cpu(np.zeros((2, 4)))
    with pytest.raises(TypeError, match=r"\(InvalidType\) Tensor.copy_from_cpu: argument 'data'"
                                        r" expected a numpy.ndarray, got list"):
        handle.copy_from_cpu([[0.0] * 4])
    with pytest.raises(ValueError, match=r"Predictor::Run: argument 'x' expected a tensor of "
                                         r"float32 \[-1, 4\], got int64 \[1, 4\]"):
        predictor.run([paddle.ones([1, 4], dtype="int64")])
    with pytest.raises(TypeError, match=r"\(InvalidType\) Predictor.run: argument 'inputs' "
                                        r"expected a list of paddle.Tensor, got numpy.ndarray"):
        predictor.run([np.zeros((1, 4), np.float32)])
    # A non-contiguous array is copied in element order.
    x = np.asfortranarray(_data(3))
    handle.copy_from_cpu(x)
    predictor.run()
    (want,) = predictor.run([paddle.to_tensor(np.ascontiguousarray(x))])
    np.testing.assert_array_equal(
        predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu(), want.numpy())


def test_error_data_missing(predictor):
    with pytest.raises(RuntimeError, match=r"\(PreconditionNotMet\) Predictor::Run: argument "
                                           r"'x' expected input data"):
        predictor.run()
    out = predictor.get_output_handle(predictor.get_output_names()[0])
    with pytest.raises(RuntimeError, match=r"\(PreconditionNotMet\) Tensor.copy_to_cpu: "
                                           r"argument '\w+' expected data \(run the predictor "
                                           r"first\)"):
        out.copy_to_cpu()
    with pytest.raises(RuntimeError, match=r"\(PreconditionNotMet\) Tensor::Reshape: .* expected"
                                           r" an input handle"):
        out.reshape([1, 3])


def test_error_missing_files(tmp_path, mlp):
    _, prefix = mlp
    with pytest.raises(_C.UnavailableError, match=r"\(Unavailable\) load inference model: "
                                                      r"argument 'model_dir' expected a "
                                                      r"directory, got '.*nowhere', which does "
                                                      r"not exist"):
        paddle_infer.create_predictor(paddle_infer.Config(str(tmp_path / "nowhere")))
    with pytest.raises(OSError, match=r"argument 'params_file' expected an existing file .*"
                                      r"'.*missing.pdiparams', which does not exist"):
        paddle_infer.create_predictor(paddle_infer.Config(prefix + ".pdmodel",
                                                          str(tmp_path / "missing.pdiparams")))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match=r"expected a directory with one \*.pdmodel .* got "
                                         r"'.*empty' with 0 \*.pdmodel files"):
        paddle_infer.create_predictor(paddle_infer.Config(str(empty)))


def _copy_model(prefix, dst):
    for suffix in (".pdmodel", ".pdiparams"):
        with open(prefix + suffix, "rb") as f, open(dst + suffix, "wb") as g:
            g.write(f.read())
    return paddle_infer.Config(dst + ".pdmodel", dst + ".pdiparams")


def test_error_corrupt_files(tmp_path, mlp):
    _, prefix = mlp
    bad = str(tmp_path / "bad")
    config = _copy_model(prefix, bad)
    with open(bad + ".pdmodel", "w") as f:
        f.write("this is not a program {")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) load inference model: expected "
                                         r"a valid program, got '.*bad.pdmodel': "):
        paddle_infer.create_predictor(config)

    config = _copy_model(prefix, bad)
    data = open(bad + ".pdiparams", "rb").read()
    with open(bad + ".pdiparams", "wb") as f:
        f.write(data[: len(data) - 7])  # truncated
    with pytest.raises(OSError, match=r"bad.pdiparams"):
        paddle_infer.create_predictor(config)
    with open(bad + ".pdiparams", "wb") as f:
        f.write(b"\xff" * 64)  # garbage header length
    with pytest.raises(OSError, match=r"bad.pdiparams"):
        paddle_infer.create_predictor(config)


def test_error_other_format_version(tmp_path, mlp):
    _, prefix = mlp
    bad = str(tmp_path / "future")
    config = _copy_model(prefix, bad)
    tensors, meta = _C.load_safetensors(bad + ".pdiparams")
    meta["skiff.format"] = "99"
    _C.save_safetensors(tensors, bad + ".pdiparams", meta)
    with pytest.raises(ValueError, match=r"expected model format version 1 \(what this Skiff "
                                         r"\S+ reads\), got '.*future.pdiparams' in model "
                                         r"format version '99' .* newer than this Skiff"):
        paddle_infer.create_predictor(config)
