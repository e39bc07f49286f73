"""Paddle's error classes: every error opens with `(Class) ` and is raised as the Python exception
Paddle raises for that class, whether it comes from C++ or from Python (hapi, vision, profiler,
distributed). Written the way Paddle's own tests check errors."""
import os
import tempfile
import unittest

import numpy as np

import skiff as paddle
from skiff import _C, _errors

# ErrorCode (skiff/base/error.h) -> Paddle's class and the exception Paddle raises for it
CLASSES = [
    (0, "InvalidArgument", ValueError),
    (1, "InvalidType", TypeError),
    (2, "OutOfRange", IndexError),
    (3, "NotFound", RuntimeError),
    (4, "Unimplemented", NotImplementedError),
    (5, "ResourceExhausted", MemoryError),
    (6, "PreconditionNotMet", RuntimeError),
    (7, "Fatal", SystemError),
    (8, "Unavailable", RuntimeError),
]


class TestCppErrorClasses(unittest.TestCase):
    def test_every_code_has_paddles_prefix_and_exception(self):
        for code, name, exc in CLASSES:
            with self.subTest(name=name):
                with self.assertRaises(exc) as ctx:
                    _C._raise(code, "boom")
                self.assertTrue(str(ctx.exception).startswith(f"({name}) test: argument 'arg' "
                                                              "expected boom"), str(ctx.exception))

    def test_not_found_is_not_an_unimplemented_error(self):
        with self.assertRaises(RuntimeError) as ctx:
            _C._raise(3, "x")
        self.assertNotIsInstance(ctx.exception, NotImplementedError)

    def test_unavailable_is_also_an_os_error(self):
        with self.assertRaises(OSError) as ctx:
            _C._raise(8, "x")
        self.assertIsInstance(ctx.exception, RuntimeError)
        self.assertIsInstance(ctx.exception, paddle._C.UnavailableError)

    def test_invalid_argument_from_an_op(self):
        x = paddle.to_tensor(np.ones([2, 3], "float32"))
        with self.assertRaisesRegex(ValueError, r"^\(InvalidArgument\) matmul: argument 'y'"):
            paddle.matmul(x, x)

    def test_invalid_type_from_an_op(self):
        x = paddle.to_tensor(np.ones([2, 2], "int8"))
        with self.assertRaisesRegex(TypeError, r"^\(InvalidType\) matmul: argument 'x' expected "
                                               "a floating dtype"):
            paddle.matmul(x, x)

    def test_out_of_range_from_an_op(self):
        with self.assertRaisesRegex(IndexError, r"^\(OutOfRange\) sum: argument 'axis'"):
            paddle.sum(paddle.to_tensor([1.0, 2.0]), axis=3)

    def test_not_found_for_a_missing_kernel(self):
        with self.assertRaisesRegex(RuntimeError, r"^\(NotFound\) sort: argument 'kernel'"):
            paddle.sort(paddle.to_tensor([True, False]))

    def test_resource_exhausted_for_a_huge_tensor(self):
        with self.assertRaisesRegex(MemoryError, r"^\(ResourceExhausted\) "):
            paddle.zeros([2**28, 2**28])

    def test_precondition_not_met_for_an_empty_tensor(self):
        with self.assertRaisesRegex(RuntimeError, r"^\(PreconditionNotMet\) add: argument 'x'"):
            paddle.add(paddle.Tensor(), paddle.ones([1]))

    def test_unavailable_for_a_truncated_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m")
            paddle.jit.save(paddle.nn.Linear(2, 2), path,
                            input_spec=[paddle.static.InputSpec([1, 2])])
            with open(path + ".pdiparams", "r+b") as f:
                f.truncate(12)
            with self.assertRaisesRegex(RuntimeError, r"^\(Unavailable\) load '.*m.pdiparams'"):
                paddle.jit.load(path)


class TestPythonErrorClasses(unittest.TestCase):
    def test_helpers_match_the_cpp_mapping(self):
        for _, name, exc in CLASSES:
            with self.subTest(name=name):
                e = getattr(_errors, name)("f: argument 'a' expected 1, got 2")
                self.assertIsInstance(e, exc)
                self.assertEqual(str(e), f"({name}) f: argument 'a' expected 1, got 2")
        self.assertIsInstance(_errors.AlreadyExists("x"), RuntimeError)
        self.assertIsInstance(_errors.External("x"), OSError)

    def test_vision(self):
        img = np.zeros([4, 4, 3], "uint8")
        with self.assertRaisesRegex(ValueError, r"^\(InvalidArgument\) resize: argument 'size'"):
            paddle.vision.transforms.functional.resize(img, -1)
        with self.assertRaisesRegex(TypeError, r"^\(InvalidType\) resize: argument 'size'"):
            paddle.vision.transforms.functional.resize(img, "big")

    def test_hapi(self):
        with self.assertRaisesRegex(TypeError, r"^\(InvalidType\) Model: argument 'network'"):
            paddle.Model(3)

    def test_profiler(self):
        with tempfile.TemporaryDirectory() as d:
            p = paddle.profiler.Profiler(targets=[paddle.profiler.ProfilerTarget.CPU],
                                         on_trace_ready=paddle.profiler.export_chrome_tracing(d))
            p.start()
            p.stop()
            with self.assertRaisesRegex(NotImplementedError, r"^\(Unimplemented\) "):
                p.export(os.path.join(d, "trace.pb"), format="pb")

    def test_distributed(self):
        with self.assertRaisesRegex(RuntimeError, r"^\(PreconditionNotMet\) collective: "
                                                  "expected an initialized parallel"):
            paddle.distributed.all_reduce(paddle.ones([1]))


if __name__ == "__main__":
    unittest.main()
