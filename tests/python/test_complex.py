"""complex64/complex128 as Paddle code uses them: dtype names and promotion, to_tensor from numpy
and Python complex numbers, numpy round trips, printing, astype; the complex kernels (arithmetic,
abs, real/imag/conj/complex/as_complex/as_real/angle, sum/mean, matmul, views) against numpy;
gradients against torch (conjugate Wirtinger, PyTorch's convention, which Paddle follows); ops
without a complex kernel raise (Unimplemented) naming the op and the dtype."""
import inspect
import unittest

import numpy as np
import torch

import skiff as paddle

CDTYPES = ("complex64", "complex128")
TOL = {"complex64": 2e-5, "complex128": 1e-12, "float32": 2e-5, "float64": 1e-12}


def crand(shape, dtype="complex128", seed=0, lo=-2.0, hi=2.0):
    r = np.random.default_rng(seed)
    return (r.uniform(lo, hi, shape) + 1j * r.uniform(lo, hi, shape)).astype(dtype)


def make_close(tol):
    """assert_allclose with the per-dtype tolerances `tol` (times `scale`)."""
    def close(got, want, dtype="complex128", scale=1.0):
        np.testing.assert_allclose(np.asarray(got), want, rtol=tol[dtype] * scale,
                                   atol=tol[dtype] * scale)
    return close


close = make_close(TOL)


def assert_real_only(test, cases):
    """Each (name, fn) of `cases` refuses complex64 input with the Unimplemented message."""
    for name, fn in cases:
        with test.subTest(op=name):
            with test.assertRaises(NotImplementedError) as cm:
                fn()
            test.assertEqual(str(cm.exception).split("\n")[0],
                             f"(Unimplemented) {name}: argument 'dtype' expected a real dtype "
                             f"({name} has no complex64 kernel), got complex64")


class TestDtype(unittest.TestCase):
    def test_names_sizes_printing(self):
        self.assertEqual(str(paddle.complex64), "paddle.complex64")
        self.assertEqual(repr(paddle.complex128), "paddle.complex128")
        self.assertEqual(paddle.complex64.itemsize, 8)
        self.assertEqual(paddle.complex128.itemsize, 16)
        self.assertEqual(paddle.complex64, "complex64")
        self.assertEqual(paddle.complex128, np.complex128)
        t = paddle.to_tensor([1 + 2j, -3j])
        self.assertIn("dtype=complex64", repr(t))
        self.assertIn("2.j", repr(t))

    def test_to_tensor_and_numpy(self):
        for dt in CDTYPES:
            a = crand([3, 4], dt)
            t = paddle.to_tensor(a)
            self.assertEqual(t.dtype, getattr(paddle, dt))
            self.assertEqual(t.numpy().dtype, np.dtype(dt))
            np.testing.assert_array_equal(t.numpy(), a)
            np.testing.assert_array_equal(np.asarray(t), a)
        # Python complex numbers take the default dtype's complex type, as in Paddle
        self.assertEqual(paddle.to_tensor(1 + 2j).dtype, paddle.complex64)
        self.assertEqual(paddle.to_tensor([[1, 2j]]).dtype, paddle.complex64)
        self.assertEqual(paddle.to_tensor(1 + 2j).item(), 1 + 2j)
        self.assertEqual(paddle.to_tensor([1, 2], dtype="complex128").dtype, paddle.complex128)
        self.assertEqual(paddle.to_tensor(np.array([1j]), dtype="complex64").dtype,
                         paddle.complex64)
        self.assertEqual(paddle.to_tensor([1j, 2]).tolist(), [1j, 2 + 0j])

    def test_astype(self):
        a = crand([5], "complex128")
        t = paddle.to_tensor(a)
        close(t.astype("complex64"), a.astype(np.complex64), "complex64")
        close(t.astype("float64"), a.real)  # the real part, as Paddle's cast
        r = paddle.to_tensor([1.5, -2.0], dtype="float32").astype(paddle.complex64)
        self.assertEqual(r.dtype, paddle.complex64)
        np.testing.assert_array_equal(r.numpy(), np.array([1.5, -2.0], np.complex64))
        i = paddle.to_tensor([3, -1]).astype("complex128")
        np.testing.assert_array_equal(i.numpy(), np.array([3, -1], np.complex128))

    def test_promotion(self):
        c64 = paddle.to_tensor(crand([2], "complex64"))
        c128 = paddle.to_tensor(crand([2]))
        f32 = paddle.to_tensor([1.0, 2.0], dtype="float32")
        f64 = paddle.to_tensor([1.0, 2.0], dtype="float64")
        i64 = paddle.to_tensor([1, 2])
        self.assertEqual((f32 + c64).dtype, paddle.complex64)
        self.assertEqual((c64 + f32).dtype, paddle.complex64)
        self.assertEqual((f64 * c64).dtype, paddle.complex128)
        self.assertEqual((c64 - c128).dtype, paddle.complex128)
        self.assertEqual((i64 / c64).dtype, paddle.complex64)
        self.assertEqual((c64 * 2).dtype, paddle.complex64)
        self.assertEqual((c64 * 2.5).dtype, paddle.complex64)
        self.assertEqual((f32 * 1j).dtype, paddle.complex64)
        close(f32 * 1j, np.array([1j, 2j]), "complex64")

    def test_is_complex(self):
        self.assertTrue(paddle.is_complex(paddle.to_tensor([1j])))
        self.assertFalse(paddle.is_complex(paddle.to_tensor([1.0])))
        self.assertTrue(paddle.to_tensor([1j]).is_complex())
        self.assertFalse(paddle.is_floating_point(paddle.to_tensor([1j])))
        with self.assertRaises(TypeError):
            paddle.is_complex(np.array([1j]))


class TestKernels(unittest.TestCase):
    def test_arithmetic(self):
        for dt in CDTYPES:
            a, b = crand([3, 4], dt, 1), crand([4], dt, 2)
            x, y = paddle.to_tensor(a), paddle.to_tensor(b)
            close(x + y, a + b, dt)
            close(x - y, a - b, dt)
            close(x * y, a * b, dt)
            close(x / y, a / b, dt, 10)
            close(-x, -a, dt)
            close(paddle.add(x, y), a + b, dt)
            close(paddle.multiply(x, y), a * b, dt)
            close(paddle.divide(x, y), a / b, dt, 10)
            close(paddle.scale(x, 2.0, 1.0), a * 2 + 1, dt)
            z = x.clone()
            z.add_(y)
            close(z, a + b, dt)

    def test_parts(self):
        for dt in CDTYPES:
            rt = "float32" if dt == "complex64" else "float64"
            a = crand([2, 3], dt)
            x = paddle.to_tensor(a)
            for got, want in ((paddle.real(x), a.real), (paddle.imag(x), a.imag),
                              (x.real(), a.real), (x.imag(), a.imag),
                              (paddle.abs(x), np.abs(a)), (paddle.angle(x), np.angle(a)),
                              (x.angle(), np.angle(a))):
                self.assertEqual(got.dtype, getattr(paddle, rt))
                close(got, want, rt, 10)
            close(paddle.conj(x), np.conj(a), dt)
            close(x.conj(), np.conj(a), dt)
            r = paddle.to_tensor(a.real)
            close(paddle.complex(r, paddle.to_tensor(a.imag)), a, dt)
            close(paddle.complex(r, paddle.to_tensor(a.imag[0])), a.real + 1j * a.imag[0], dt)
            pair = np.stack([a.real, a.imag], -1)
            close(paddle.as_complex(paddle.to_tensor(pair)), a, dt)
            close(paddle.as_real(x), pair, rt)
            close(paddle.polar(paddle.abs(x), paddle.angle(x)), a, dt, 10)
            close(paddle.sgn(x), a / np.abs(a), dt, 10)
        close(paddle.conj(paddle.to_tensor([1.0, -2.0])), np.array([1.0, -2.0]), "float32")
        close(paddle.angle(paddle.to_tensor([1.0, -2.0])), np.angle([1.0, -2.0]), "float32")
        np.testing.assert_array_equal(paddle.isreal(paddle.to_tensor([1 + 0j, 1j])).numpy(),
                                      [True, False])

    def test_reductions_and_matmul(self):
        for dt in CDTYPES:
            a = crand([3, 4, 5], dt)
            x = paddle.to_tensor(a)
            close(paddle.sum(x), a.sum(), dt, 10)
            close(x.sum(axis=1), a.sum(1), dt, 10)
            close(paddle.mean(x, axis=[0, 2], keepdim=True), a.mean((0, 2), keepdims=True), dt,
                  10)
            b = crand([2, 5, 3], dt, 3)
            close(paddle.matmul(x[:2], b), a[:2] @ b, dt, 20)
            close(paddle.matmul(x, paddle.to_tensor(b[0])), a @ b[0], dt, 20)
            close(paddle.matmul(x[0], x[0], transpose_y=True), a[0] @ a[0].T, dt, 20)
            v = crand([5], dt, 4)
            close(paddle.matmul(x[0], paddle.to_tensor(v)), a[0] @ v, dt, 20)

    def test_views_and_creation(self):
        a = crand([2, 3, 4])
        x = paddle.to_tensor(a)
        close(x.reshape([6, 4]), a.reshape(6, 4))
        close(x.transpose([2, 0, 1]), a.transpose(2, 0, 1))
        close(x[:, 1:, ::2], a[:, 1:, ::2])
        close(x[1], a[1])
        close(paddle.concat([x, x], axis=1), np.concatenate([a, a], 1))
        close(paddle.stack([x, x]), np.stack([a, a]))
        close(paddle.flatten(x), a.ravel())
        close(x.unsqueeze(0).squeeze(0), a)
        close(paddle.broadcast_to(x[:, :1], [2, 3, 4]), np.broadcast_to(a[:, :1], (2, 3, 4)))
        close(paddle.tile(x[0], [2, 1]), np.tile(a[0], (2, 1)))
        close(paddle.roll(x, 1, axis=2), np.roll(a, 1, 2))
        for parts, want in zip(paddle.split(x, 2, axis=2), np.split(a, 2, 2)):
            close(parts, want)
        close(paddle.zeros([2], dtype="complex64"), np.zeros(2), "complex64")
        close(paddle.ones([2], dtype="complex128"), np.ones(2))
        close(paddle.full([2], 3.0, dtype="complex64"), np.full(2, 3.0), "complex64")
        close(paddle.zeros_like(x), np.zeros_like(a))
        close(paddle.ones_like(x), np.ones_like(a))
        close(x.clone(), a)
        y = paddle.zeros([2, 3, 4], dtype="complex128")
        y[0] = x[1]
        close(y[0], a[1])


def torch_grad(fn, *arrays):
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    fn(*ts).backward()
    return [t.grad.resolve_conj().numpy() for t in ts]


def skiff_grad(fn, *arrays):
    ts = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
    fn(*ts).backward()
    return [t.grad.numpy() for t in ts]


class TestGradients(unittest.TestCase):
    """Real losses of complex intermediates; gradients as torch computes them."""

    def check(self, sk, th, *arrays, scale=1.0):
        for g, w in zip(skiff_grad(sk, *arrays), torch_grad(th, *arrays)):
            np.testing.assert_allclose(g, w, rtol=1e-10 * scale, atol=1e-10 * scale)

    def test_elementwise(self):
        a, b = crand([3, 4], seed=1), crand([4], seed=2)
        w = crand([3, 4], seed=5)
        for op in ("add", "subtract", "multiply", "divide"):
            def sk(x, y, op=op):
                return paddle.real(getattr(paddle, op)(x, y) * paddle.to_tensor(w)).sum()

            def th(x, y, op=op):
                return (getattr(torch, op)(x, y) * torch.tensor(w)).real.sum()
            self.check(sk, th, a, b, scale=10)
        self.check(lambda x: paddle.abs(x).sum(), lambda x: x.abs().sum(), a)
        self.check(lambda x: paddle.angle(x).sum(), lambda x: x.angle().sum(), a)
        self.check(lambda x: (paddle.imag(x) * paddle.real(x)).sum(),
                   lambda x: (x.imag * x.real).sum(), a)
        self.check(lambda x: paddle.real(paddle.conj(x) * paddle.to_tensor(w)).sum(),
                   lambda x: (x.conj() * torch.tensor(w)).real.sum(), a)
        self.check(lambda x: paddle.abs(-x + x * x).sum(), lambda x: (-x + x * x).abs().sum(), a)

    def test_real_to_complex(self):
        re, im = np.random.default_rng(3).uniform(-1, 1, (2, 3, 4))
        w = crand([3, 4], seed=6)
        self.check(lambda r, i: paddle.abs(paddle.complex(r, i) * paddle.to_tensor(w)).sum(),
                   lambda r, i: (torch.complex(r, i) * torch.tensor(w)).abs().sum(), re, im)
        pair = np.random.default_rng(4).uniform(-1, 1, (3, 2))
        self.check(lambda p: paddle.abs(paddle.as_complex(p) * paddle.to_tensor(w[0, :3])).sum(),
                   lambda p: (torch.view_as_complex(p) * torch.tensor(w[0, :3])).abs().sum(),
                   pair)
        self.check(lambda x: (paddle.as_real(x) ** 2).sum(),
                   lambda x: (torch.view_as_real(x) ** 2).sum(), crand([3]))
        # float32 + complex64 promotion: the real operand's gradient is the real part
        f = np.random.default_rng(5).uniform(-1, 1, 4)
        self.check(lambda r, z: paddle.abs(r * z).sum(), lambda r, z: (r * z).abs().sum(),
                   f, crand([4], seed=7))

    def test_reductions_matmul(self):
        a, b = crand([2, 3, 4], seed=1), crand([4, 5], seed=2)
        self.check(lambda x, y: paddle.abs(paddle.matmul(x, y)).sum(),
                   lambda x, y: torch.matmul(x, y).abs().sum(), a, b, scale=10)
        self.check(lambda x: paddle.abs(x.sum(axis=1)).sum(), lambda x: x.sum(1).abs().sum(), a)
        self.check(lambda x: paddle.abs(x.mean(axis=[0, 2])).sum(),
                   lambda x: x.mean((0, 2)).abs().sum(), a)
        self.check(lambda x: paddle.abs(x.transpose([2, 0, 1])[1:, :, ::2].reshape([-1])).sum(),
                   lambda x: x.permute(2, 0, 1)[1:, :, ::2].reshape(-1).abs().sum(), a)


class TestErrors(unittest.TestCase):
    def test_ops_without_complex_kernels(self):
        x = paddle.to_tensor([1 + 1j])
        for fn, name in ((paddle.erf, "erf"), (paddle.floor, "floor"), (paddle.maximum, "maximum")):
            with self.assertRaises(NotImplementedError) as cm:
                fn(x) if name != "maximum" else fn(x, x)
            msg = str(cm.exception)
            self.assertTrue(msg.startswith("(Unimplemented) "), msg)
            self.assertIn(name, msg)
            self.assertIn("complex64", msg)
        with self.assertRaises(NotImplementedError):
            paddle.argsort(x)

    def test_bad_arguments(self):
        x = paddle.to_tensor([1.0, 2.0])
        for fn in (paddle.real, paddle.imag, paddle.as_real):
            with self.assertRaises(TypeError) as cm:
                fn(x)
            self.assertTrue(str(cm.exception).startswith("(InvalidType) "), str(cm.exception))
            self.assertIn("complex", str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            paddle.complex(x, paddle.to_tensor([1.0, 2.0], dtype="float64"))
        self.assertIn("(InvalidType) complex: argument 'imag'", str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            paddle.as_complex(paddle.to_tensor([[1.0, 2.0, 3.0]]))
        self.assertIn("(InvalidArgument) as_complex", str(cm.exception))
        with self.assertRaises(TypeError):
            paddle.complex(paddle.to_tensor([1]), paddle.to_tensor([1]))

    def test_signatures(self):
        for fn, params in ((paddle.real, ["x", "name"]),
                           (paddle.complex, ["real", "imag", "name"]),
                           (paddle.as_complex, ["x", "name"]), (paddle.angle, ["x", "name"]),
                           (paddle.polar, ["abs", "angle", "name"]),
                           (paddle.sgn, ["x", "name"])):
            self.assertTrue(inspect.isfunction(fn))
            self.assertEqual(list(inspect.signature(fn).parameters), params)


if __name__ == "__main__":
    unittest.main()
