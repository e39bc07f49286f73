"""Paddle's conventions as Paddle's own unit tests rely on them (unittest style, `import skiff as
paddle`): place classes, isinstance on framework types, introspectable functions with Paddle's
signatures, numpy()/stop_gradient leniency, concrete programs, LazyGuard, paddle.utils,
paddle.version, the fused optimizers on every float dtype."""
import contextlib
import functools
import inspect
import io
import os
import pickle
import tempfile
import unittest

import numpy as np

import skiff as paddle
from skiff import nn


class TestPlaces(unittest.TestCase):
    def test_place_classes_work_with_isinstance(self):
        for cls in (paddle.CPUPlace, paddle.CUDAPlace, paddle.CustomPlace, paddle.XPUPlace,
                    paddle.CUDAPinnedPlace):
            self.assertIsInstance(cls, type)
            self.assertTrue(issubclass(cls, paddle.Place))
        place = paddle.CPUPlace()
        self.assertIsInstance(place, paddle.CPUPlace)
        self.assertIsInstance(place, paddle.Place)
        self.assertNotIsInstance(place, paddle.CUDAPlace)

    def test_tensor_place_is_a_place_class(self):
        x = paddle.ones([2])
        self.assertIsInstance(x.place, paddle.CPUPlace)
        self.assertTrue(x.place.is_cpu_place())
        self.assertFalse(x.place.is_gpu_place())
        self.assertEqual(x.place, paddle.CPUPlace())
        self.assertEqual(x.place, paddle.Place("cpu"))

    def test_equality_and_hash_by_value(self):
        self.assertEqual(paddle.CPUPlace(), paddle.CPUPlace())
        self.assertEqual(hash(paddle.CPUPlace()), hash(paddle.CPUPlace()))
        self.assertEqual(len({paddle.CPUPlace(), paddle.CPUPlace(), paddle.Place("cpu")}), 1)
        self.assertEqual(paddle.CUDAPlace(1), paddle.CUDAPlace(1))
        self.assertNotEqual(paddle.CUDAPlace(0), paddle.CUDAPlace(1))
        self.assertNotEqual(paddle.CUDAPlace(0), paddle.CPUPlace())
        self.assertNotEqual(paddle.CPUPlace(), "cpu")
        self.assertEqual({paddle.CUDAPlace(0): 1}[paddle.CUDAPlace(0)], 1)

    def test_repr_is_paddles(self):
        self.assertEqual(repr(paddle.CPUPlace()), "Place(cpu)")
        self.assertEqual(str(paddle.CPUPlace()), "Place(cpu)")
        self.assertEqual(repr(paddle.CUDAPlace(0)), "Place(gpu:0)")
        self.assertEqual(str(paddle.CUDAPlace(3)), "Place(gpu:3)")
        self.assertEqual(paddle.CUDAPlace(2).get_device_id(), 2)
        self.assertEqual(paddle.CUDAPlace(2).gpu_device_id(), 2)

    def test_pickle_round_trip(self):
        for p in (paddle.CPUPlace(), paddle.CUDAPlace(1)):
            q = pickle.loads(pickle.dumps(p))
            self.assertEqual(q, p)

    def test_bad_places(self):
        with self.assertRaisesRegex(TypeError, r"CUDAPlace: argument 'id'"):
            paddle.CUDAPlace("0")
        with self.assertRaisesRegex(ValueError, r"^\(InvalidArgument\) CUDAPlace"):
            paddle.CUDAPlace(-1)
        with self.assertRaisesRegex(ValueError, r"^\(InvalidArgument\) CustomPlace: argument "
                                                r"'device_type' expected one of the loaded"):
            paddle.CustomPlace("no_such_device", 0)
        with self.assertRaisesRegex(TypeError, "device_type"):
            paddle.CustomPlace(3, 0)
        # This build has no XPU and no pinned memory: Paddle's CPU-only build refuses them too.
        with self.assertRaisesRegex(RuntimeError, r"^\(PreconditionNotMet\) XPUPlace"):
            paddle.XPUPlace(0)
        with self.assertRaisesRegex(RuntimeError, r"^\(PreconditionNotMet\) CUDAPinnedPlace"):
            paddle.CUDAPinnedPlace()

    def test_places_are_accepted_where_devices_are(self):
        x = paddle.to_tensor([1.0, 2.0], place=paddle.CPUPlace())
        self.assertEqual(x.place, paddle.CPUPlace())
        self.assertIsInstance(paddle.set_device("cpu"), paddle.CPUPlace)


class TestFrameworkTypes(unittest.TestCase):
    def test_isinstance_on_framework_types(self):
        x = paddle.ones([2])
        self.assertIsInstance(x, paddle.Tensor)
        self.assertIsInstance(x.dtype, paddle.dtype)
        self.assertIsInstance(paddle.float32, paddle.dtype)
        layer = nn.Linear(2, 3)
        self.assertIsInstance(layer, nn.Layer)
        self.assertIsInstance(layer.weight, nn.Parameter)
        self.assertIsInstance(layer.weight, paddle.nn.parameter.EagerParamBase)
        self.assertIsInstance(layer.weight, paddle.Tensor)
        self.assertNotIsInstance(x, nn.Parameter)


class TestTensorLeniency(unittest.TestCase):
    def test_numpy_takes_optional_arguments(self):
        x = paddle.to_tensor([[1.0, 2.0]])
        for out in (x.numpy(), x.numpy(False), x.numpy(True), x.numpy(force_to_numpy=False)):
            np.testing.assert_array_equal(out, [[1.0, 2.0]])

    def test_stop_gradient_false_on_integer_tensors(self):
        idx = paddle.to_tensor([1, 2, 3])
        idx.stop_gradient = False
        self.assertFalse(idx.stop_gradient)
        idx.stop_gradient = True
        self.assertTrue(idx.stop_gradient)
        idx = paddle.to_tensor([1, 2], stop_gradient=False)
        self.assertFalse(idx.stop_gradient)

    def test_no_gradient_flows_through_integer_tensors(self):
        idx = paddle.to_tensor([0, 2])
        idx.stop_gradient = False
        w = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        out = paddle.gather(w, idx) * paddle.cast(idx, "float32")
        out.sum().backward()
        np.testing.assert_allclose(w.grad.numpy(), [0.0, 0.0, 2.0])
        self.assertIsNone(idx.grad)


def _public_callables(module):
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    for n in names:
        obj = getattr(module, n, None)
        if callable(obj) and not isinstance(obj, type) and not inspect.ismodule(obj):
            yield n, obj


# Paddle 3.0's signatures (python/paddle/tensor/*.py) of functions Skiff takes from the records.
PADDLE_SIGNATURES = {
    "add": "(x, y, name=None)",
    "tanh": "(x, name=None)",
    "exp": "(x, name=None)",
    "sum": "(x, axis=None, dtype=None, keepdim=False, name=None)",
    "reshape": "(x, shape, name=None)",
    "matmul": "(x, y, transpose_x=False, transpose_y=False, name=None)",
    "argmax": "(x, axis=None, keepdim=False, dtype='int64', name=None)",
    "split": "(x, num_or_sections, axis=0, name=None)",
    "clip": "(x, min=None, max=None, name=None)",
    "zeros_like": "(x, dtype=None, name=None)",
    "flatten": "(x, start_axis=0, stop_axis=-1, name=None)",
    "maximum": "(x, y, name=None)",
    "where": "(condition, x=None, y=None, name=None)",
    "scale": "(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None)",
    "unsqueeze": "(x, axis, name=None)",
    "expand": "(x, shape, name=None)",
    "tile": "(x, repeat_times, name=None)",
    "roll": "(x, shifts, axis=None, name=None)",
    "topk": "(x, k, axis=None, largest=True, sorted=True, name=None)",
    "mean": "(x, axis=None, keepdim=False, name=None)",
    "concat": "(x, axis=0, name=None)",
    "transpose": "(x, perm, name=None)",
}


class TestIntrospectableFunctions(unittest.TestCase):
    def test_every_public_function_is_a_python_function(self):
        for module in (paddle, paddle.linalg, paddle.autograd, paddle.nn, paddle.nn.functional,
                       paddle.nn.initializer, paddle.jit, paddle.static, paddle.optimizer,
                       paddle.io, paddle.device, paddle.utils, paddle.incubate):
            for name, fn in _public_callables(module):
                with self.subTest(module=module.__name__, name=name):
                    self.assertTrue(inspect.isfunction(fn) or hasattr(fn, "__wrapped__")
                                    or isinstance(fn, functools.partial),
                                    f"{module.__name__}.{name} is a {type(fn).__name__}")
                    inspect.signature(fn)

    def test_every_public_tensor_method_is_a_python_function(self):
        from skiff.tensor import methods
        names = [n for n in dir(paddle.Tensor) if not n.startswith("_")]
        names = [n for n in names if callable(getattr(paddle.Tensor, n))
                 and not isinstance(getattr(paddle.Tensor, n), type)]
        self.assertTrue(set(methods._METHODS) <= set(names))
        self.assertTrue(set(paddle._C.inplace_names()) <= set(names))
        for name in names:
            with self.subTest(name=name):
                fn = getattr(paddle.Tensor, name)
                self.assertTrue(inspect.isfunction(fn), f"Tensor.{name} is {type(fn).__name__}")
        self.assertEqual(str(inspect.signature(paddle.Tensor.backward)),
                         "(self, grad_tensor=None, retain_graph=False)")
        self.assertEqual(str(inspect.signature(paddle.Tensor.clear_grad)),
                         "(self, set_to_zero=True)")

    def test_generated_functions_end_with_name(self):
        from skiff import _op_functions
        for name in _op_functions.__all__:
            with self.subTest(name=name):
                params = list(inspect.signature(getattr(_op_functions, name)).parameters.values())
                self.assertEqual(params[-1].name, "name")
                self.assertIsNone(params[-1].default)

    def test_signatures_are_paddles(self):
        for name, sig in PADDLE_SIGNATURES.items():
            with self.subTest(name=name):
                self.assertEqual(str(inspect.signature(getattr(paddle, name))), sig)
        self.assertEqual(str(inspect.signature(paddle.Tensor.sum)),
                         "(x, axis=None, dtype=None, keepdim=False, name=None)")

    def test_name_keyword_partial_and_wraps(self):
        x = paddle.to_tensor([0.5, -1.0])
        np.testing.assert_allclose(paddle.tanh(x, name="t").numpy(), np.tanh([0.5, -1.0]),
                                   rtol=1e-6)
        np.testing.assert_allclose(paddle.sum(x, keepdim=True, name="s").numpy(), [-0.5])
        total = functools.partial(paddle.sum, axis=0)
        np.testing.assert_allclose(total(x).numpy(), -0.5)

        calls = []

        @functools.wraps(paddle.add)
        def traced(*args, **kwargs):
            calls.append(args)
            return paddle.add(*args, **kwargs)

        self.assertEqual(traced.__name__, "add")
        self.assertEqual(inspect.signature(traced), inspect.signature(paddle.add))
        np.testing.assert_allclose(traced(x, x).numpy(), [1.0, -2.0])
        self.assertEqual(len(calls), 1)

    def test_keyword_errors_are_pythons(self):
        x = paddle.ones([2])
        with self.assertRaises(TypeError):
            paddle.tanh(x, bogus=1)
        with self.assertRaises(TypeError):
            paddle.add(x)
        with self.assertRaisesRegex(ValueError, r"^\(InvalidArgument\) reshape"):
            paddle.reshape(x, [3])

    def test_methods_and_inplace_variants(self):
        x = paddle.to_tensor([1.0, 2.0])
        self.assertAlmostEqual(float(x.sum()), 3.0)
        y = x.add_(paddle.ones([2]))
        self.assertIs(y, x)
        np.testing.assert_allclose(x.numpy(), [2.0, 3.0])


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return paddle.tanh(self.fc(x))


class TestConcretePrograms(unittest.TestCase):
    def test_jit_save_after_a_call_needs_no_input_spec(self):
        paddle.seed(1)
        net = Net()
        net.eval()
        static_net = paddle.jit.to_static(net)
        x = paddle.rand([3, 4])
        expected = static_net(x).numpy()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "net")
            paddle.jit.save(static_net, path)
            loaded = paddle.jit.load(path)
            np.testing.assert_allclose(loaded(x).numpy(), expected, rtol=1e-6)

    def test_jit_save_before_any_call_asks_for_input_spec(self):
        static_net = paddle.jit.to_static(Net())
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(ValueError, "input_spec"):
                paddle.jit.save(static_net, os.path.join(d, "net"))

    def test_get_concrete_program_with_input_spec(self):
        from skiff.static import InputSpec

        @paddle.jit.to_static
        def f(x, y):
            return x * 2 + y

        concrete, partial = f.get_concrete_program(InputSpec([None, 3], "float32", "x"),
                                                   InputSpec([None, 3], "float32", "y"))
        self.assertIn("op.multiply", str(concrete.main_program))
        self.assertEqual(len(concrete.inputs), 2)
        self.assertIsInstance(concrete.outputs, list)
        self.assertEqual(len(concrete.outputs), 1)
        self.assertIs(f.concrete_program, concrete)
        a, b = paddle.ones([5, 3]), paddle.full([5, 3], 0.5)
        np.testing.assert_allclose(partial(a, b).numpy(), np.full([5, 3], 2.5))

    def test_get_concrete_program_with_tensors_and_parameters(self):
        net = Net()
        static_forward = paddle.jit.to_static(net.forward)
        concrete, _ = static_forward.get_concrete_program(paddle.rand([2, 4]))
        self.assertEqual(len(concrete.parameters), 2)
        self.assertEqual([list(p.shape) for p in concrete.parameters], [[4, 2], [2]])

    def test_concrete_program_before_a_call(self):
        from skiff.static import InputSpec
        f = paddle.jit.to_static(lambda x: x + 1, input_spec=[InputSpec([2], "float32")])
        self.assertIn("op.add", str(f.concrete_program.main_program))
        g = paddle.jit.to_static(lambda x: x + 1)
        with self.assertRaisesRegex(ValueError, "No valid transformed program"):
            g.concrete_program


class TestLazyGuard(unittest.TestCase):
    def test_parameters_initialize_later(self):
        with paddle.LazyGuard():
            fc = nn.Linear(3, 4)
        self.assertFalse(fc.weight._is_initialized())
        self.assertEqual(fc.weight.shape, [4, 3][::-1])
        self.assertEqual(fc.weight.dtype, paddle.float32)
        paddle.seed(7)
        for p in fc.parameters():
            p.initialize()
        self.assertTrue(fc.weight._is_initialized())
        self.assertFalse(fc.weight.stop_gradient)
        paddle.seed(7)
        eager = nn.Linear(3, 4)
        np.testing.assert_array_equal(fc.weight.numpy(), eager.weight.numpy())
        out = fc(paddle.ones([2, 3]))
        out.sum().backward()
        self.assertEqual(fc.weight.grad.shape, [3, 4])
        with self.assertRaisesRegex(RuntimeError, "already initialized"):
            fc.weight.initialize()

    def test_outside_the_guard_parameters_are_initialized(self):
        with paddle.LazyGuard():
            pass
        self.assertTrue(nn.Linear(2, 2).weight._is_initialized())


class TestUtils(unittest.TestCase):
    def test_unique_name(self):
        un = paddle.utils.unique_name
        with un.guard():
            self.assertEqual(un.generate("fc"), "fc_0")
            self.assertEqual(un.generate("fc"), "fc_1")
            self.assertEqual(un.generate("conv"), "conv_0")
            with un.guard("block_"):
                self.assertEqual(un.generate("fc"), "block_fc_0")
            self.assertEqual(un.generate("fc"), "fc_2")
        with un.guard():
            old = un.switch()
            self.assertEqual(un.generate("fc"), "fc_0")
            un.switch(old)
            self.assertEqual(un.generate("fc"), "fc_0")
        with self.assertRaises(TypeError):
            un.switch("not a generator")

    def test_layer_names_restart_under_guard(self):
        with paddle.utils.unique_name.guard():
            a = nn.Linear(2, 2)
        with paddle.utils.unique_name.guard():
            b = nn.Linear(2, 2)
        self.assertEqual(a.weight.name, b.weight.name)

    def test_try_import(self):
        self.assertIs(paddle.utils.try_import("json"), __import__("json"))
        with self.assertRaisesRegex(ImportError, r"pip install no_such_module_xyz"):
            paddle.utils.try_import("no_such_module_xyz.sub")
        with self.assertRaisesRegex(ImportError, "opencv-python|cv2"):
            try:
                import cv2  # noqa: F401
                raise ImportError("cv2")
            except ImportError:
                paddle.utils.try_import("cv2")
        with self.assertRaisesRegex(ImportError, "^custom$"):
            paddle.utils.try_import("no_such_module_xyz", "custom")

    def test_run_check_prints_paddles_lines(self):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            paddle.utils.run_check()
        lines = buf.getvalue().strip().splitlines()
        self.assertEqual(lines[0].strip(), "Running verify PaddlePaddle program ...")
        self.assertIn("PaddlePaddle works well on 1 CPU.", lines)
        self.assertEqual(lines[-1], "PaddlePaddle is installed successfully! Let's start deep "
                                    "learning with PaddlePaddle now.")

    def test_version(self):
        self.assertEqual(paddle.version.full_version, paddle.__version__)
        self.assertEqual(".".join([paddle.version.major, paddle.version.minor,
                                   paddle.version.patch]), paddle.version.full_version)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            paddle.version.show()
        text = buf.getvalue()
        self.assertIn(f"full_version: {paddle.version.full_version}", text)
        self.assertIn("cuda: False", text)
        self.assertIs(paddle.version.cuda(), False)


def _numpy_adam(p, g, lr, b1, b2, eps, steps, wd=0.0, decoupled=False):
    m = np.zeros_like(p)
    v = np.zeros_like(p)
    for t in range(1, steps + 1):
        if decoupled:
            p = p * (1 - lr * wd)
        gg = g if decoupled else g + wd * p
        m = b1 * m + (1 - b1) * gg
        v = b2 * v + (1 - b2) * gg * gg
        mhat = m / (1 - b1 ** t)
        vhat = v / (1 - b2 ** t)
        p = p - lr * mhat / (np.sqrt(vhat) + eps)
    return p


# The learning rate is a float32 tensor and the betas, epsilon and decay float attributes (as in
# Paddle): the float64 reference uses the same rounded constants.
_F32 = [float(np.float32(v)) for v in (0.01, 0.9, 0.999, 1e-8)]
_LR01 = float(np.float32(0.1))


class TestFusedOptimizersEveryFloatDtype(unittest.TestCase):
    """The fused kernels behind SGD/Momentum/Adam/AdamW run on float64, float16 and bfloat16
    parameters (float64 keeps float64 moments); compared with numpy in float64."""

    def _train(self, make_opt, dtype, steps=3):
        rng = np.random.RandomState(0)
        p0 = rng.randn(5, 3)
        g = rng.randn(5, 3)
        w = paddle.create_parameter([5, 3], dtype)
        w.set_value(paddle.to_tensor(p0, dtype=dtype))
        opt = make_opt([w])
        for _ in range(steps):
            w.grad = paddle.to_tensor(g, dtype=dtype)
            opt.step()
        return p0, g, np.asarray(w.numpy(), dtype=np.float64)

    def test_sgd(self):
        for dtype, tol in (("float64", 1e-12), ("float32", 1e-6), ("float16", 2e-3),
                           ("bfloat16", 2e-2)):
            with self.subTest(dtype=dtype):
                p0, g, got = self._train(
                    lambda ps: paddle.optimizer.SGD(0.1, parameters=ps), dtype)
                np.testing.assert_allclose(got, p0 - 3 * _LR01 * g, rtol=tol, atol=tol)

    def test_adam_and_adamw(self):
        for dtype, tol in (("float64", 1e-10), ("float16", 5e-3), ("bfloat16", 3e-2)):
            with self.subTest(dtype=dtype):
                p0, g, got = self._train(
                    lambda ps: paddle.optimizer.Adam(0.01, parameters=ps), dtype)
                np.testing.assert_allclose(got, _numpy_adam(p0, g, *_F32, 3),
                                           rtol=tol, atol=tol)
                p0, g, got = self._train(
                    lambda ps: paddle.optimizer.AdamW(0.01, parameters=ps, weight_decay=0.1),
                    dtype)
                np.testing.assert_allclose(
                    got, _numpy_adam(p0, g, *_F32, 3, float(np.float32(0.1)), True),
                    rtol=tol, atol=tol)

    def test_momentum(self):
        p0, g, got = self._train(
            lambda ps: paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=ps), "float64")
        v = np.zeros_like(p0)
        p = p0.copy()
        for _ in range(3):
            v = float(np.float32(0.9)) * v + g
            p = p - _LR01 * v
        np.testing.assert_allclose(got, p, rtol=1e-12)

    def test_fused_sgd_op_on_float64(self):
        p = paddle.to_tensor([1.0, 2.0], dtype="float64")
        g = paddle.to_tensor([0.5, 0.5], dtype="float64")
        paddle._C.ops.fused_sgd_([p], [g], paddle.to_tensor(0.1, dtype="float32"))
        self.assertEqual(p.dtype, paddle.float64)
        np.testing.assert_allclose(p.numpy(), [1.0 - _LR01 * 0.5, 2.0 - _LR01 * 0.5], rtol=1e-15)


if __name__ == "__main__":
    unittest.main()
