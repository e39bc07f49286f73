"""Complex elementwise math as Paddle code uses it: exp, expm1, log, log1p, log2, sqrt, rsqrt,
square, reciprocal, pow (real and complex exponents), the trigonometric and hyperbolic functions
and their inverses (asinh/acosh/atanh as compositions), log10, sigmoid, silu, tanhshrink, where,
isclose/allclose, prod, isnan/isinf/isfinite and
equal/not_equal on complex64/complex128 tensors, against numpy (mpmath for small arguments);
gradients against torch (the conjugate Wirtinger convention, grad_x = grad_out * conj(f'(x)),
which Paddle follows), or central differences where torch's CPU build has no complex gradient;
the ordering comparisons and the ops still without a complex kernel raise (Unimplemented) naming
the op and the dtype."""
import unittest

import mpmath
import numpy as np
import torch

import skiff as paddle
# One harness for the complex tests: gradients, random inputs, tolerance checks.
from test_complex import CDTYPES, assert_real_only, crand, make_close, skiff_grad, torch_grad

TOL = {"complex64": 5e-5, "complex128": 1e-12}
close = make_close(TOL)


# name -> (numpy reference, torch function, input range); the ranges keep away from poles
# (tan, reciprocal) and test both sides of the branch cuts of log/sqrt (the negative real axis)
UNARY = {
    "exp": (np.exp, torch.exp, (-2, 2)),
    "log": (np.log, torch.log, (-2, 2)),
    "sqrt": (np.sqrt, torch.sqrt, (-2, 2)),
    "rsqrt": (lambda z: 1 / np.sqrt(z), torch.rsqrt, (-2, 2)),
    "square": (np.square, torch.square, (-2, 2)),
    "reciprocal": (np.reciprocal, torch.reciprocal, (0.2, 2)),
    "sin": (np.sin, torch.sin, (-2, 2)),
    "cos": (np.cos, torch.cos, (-2, 2)),
    "tan": (np.tan, torch.tan, (-1, 1)),
    "tanh": (np.tanh, torch.tanh, (-1, 1)),
    "sinh": (np.sinh, torch.sinh, (-2, 2)),
    "cosh": (np.cosh, torch.cosh, (-2, 2)),
    "asin": (np.arcsin, torch.asin, (-2, 2)),
    "acos": (np.arccos, torch.acos, (-2, 2)),
    "atan": (np.arctan, torch.atan, (-0.8, 0.8)),
}


def check_grads(case, sk, th, *arrays, tol=1e-10):
    got, want = skiff_grad(sk, *arrays), torch_grad(th, *arrays)
    for g, w, a in zip(got, want, arrays):
        case.assertEqual(g.dtype, a.dtype)
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


class TestUnaryForward(unittest.TestCase):
    def test_against_numpy(self):
        for name, (ref, _, (lo, hi)) in UNARY.items():
            for dt in CDTYPES:
                a = crand([3, 4], dt, seed=1, lo=lo, hi=hi)
                with self.subTest(op=name, dtype=dt):
                    out = getattr(paddle, name)(paddle.to_tensor(a))
                    self.assertEqual(out.dtype, getattr(paddle, dt))
                    close(out.numpy(), ref(a.astype(np.complex128)), dt, scale=2)

    def test_methods_inplace_strided_and_empty(self):
        a = crand([4, 6], seed=2)
        t = paddle.to_tensor(a)
        close(t.exp().numpy(), np.exp(a), "complex128")
        close(t[:, ::2].sqrt().numpy(), np.sqrt(a[:, ::2]), "complex128")
        u = paddle.to_tensor(a)
        u.exp_()
        close(u.numpy(), np.exp(a), "complex128")
        self.assertEqual(paddle.log(paddle.to_tensor(np.zeros([0, 3], np.complex64))).shape, [0, 3])
        s = paddle.sin(paddle.to_tensor(np.array(1 + 2j)))
        self.assertEqual(s.shape, [])
        close(s.numpy(), np.sin(1 + 2j), "complex128")

    def test_branch_cuts_and_special_values(self):
        # the negative real axis with a signed zero imaginary part: numpy's principal branches
        z = np.array([-4 + 0j, complex(-4, -0.0), -1j, 0j, 1e-30 + 0j], np.complex128)
        t = paddle.to_tensor(z)
        np.testing.assert_allclose(paddle.sqrt(t).numpy(), np.sqrt(z), rtol=1e-15, atol=0)
        with np.errstate(divide="ignore"):
            want = np.log(z[:4])
        np.testing.assert_allclose(paddle.log(t[:4]).numpy(), want, rtol=1e-15, atol=0)
        self.assertEqual(paddle.log(t[3:4]).numpy()[0].real, -np.inf)
        inf = np.array([complex(np.inf, 0), complex(-np.inf, 0)], np.complex128)
        np.testing.assert_array_equal(paddle.exp(paddle.to_tensor(inf)).numpy(), np.exp(inf))

    def test_integer_and_real_inputs_unchanged(self):
        self.assertEqual(paddle.exp(paddle.to_tensor([1, 2])).dtype, paddle.float32)
        self.assertEqual(paddle.sqrt(paddle.to_tensor([4.0], dtype="float64")).dtype,
                         paddle.float64)


class TestUnaryGrad(unittest.TestCase):
    def test_real_part_loss(self):
        for name, (_, tfn, (lo, hi)) in UNARY.items():
            a, w = crand([3, 4], seed=3, lo=lo, hi=hi), crand([3, 4], seed=4)
            with self.subTest(op=name):
                check_grads(self, lambda x: paddle.real(getattr(paddle, name)(x) *
                                                        paddle.to_tensor(w)).sum(),
                            lambda x: (tfn(x) * torch.tensor(w)).real.sum(), a)

    def test_abs_squared_loss(self):
        for name, (_, tfn, (lo, hi)) in UNARY.items():
            a = crand([5], seed=5, lo=lo, hi=hi)
            with self.subTest(op=name):
                check_grads(self, lambda x: (paddle.abs(getattr(paddle, name)(x)) ** 2).sum(),
                            lambda x: (tfn(x).abs() ** 2).sum(), a)

    def test_complex64_and_grad_outputs(self):
        a, g = crand([2, 3], "complex64", seed=6), crand([2, 3], "complex64", seed=7)
        for name in ("exp", "log", "sqrt", "tanh", "asin"):
            x = paddle.to_tensor(a, stop_gradient=False)
            (gx,) = paddle.grad([getattr(paddle, name)(x)], [x], [paddle.to_tensor(g)])
            tx = torch.tensor(a, requires_grad=True)
            (want,) = torch.autograd.grad([getattr(torch, name)(tx)], [tx], [torch.tensor(g)])
            self.assertEqual(gx.dtype, paddle.complex64)
            close(gx.numpy(), want.numpy(), "complex64", scale=4)

    def test_second_order(self):
        a = crand([4], seed=8)
        x = paddle.to_tensor(a, stop_gradient=False)
        (gx,) = paddle.grad([(paddle.abs(paddle.exp(x)) ** 2).sum()], [x], create_graph=True)
        (ggx,) = paddle.grad([(paddle.abs(gx) ** 2).sum()], [x])
        tx = torch.tensor(a, requires_grad=True)
        (tg,) = torch.autograd.grad([(torch.exp(tx).abs() ** 2).sum()], [tx], create_graph=True)
        (tgg,) = torch.autograd.grad([(tg.abs() ** 2).sum()], [tx])
        np.testing.assert_allclose(ggx.numpy(), tgg.numpy(), rtol=1e-10, atol=1e-10)


F = paddle.nn.functional
# functions whose complex gradients torch's CPU build lacks: finite differences instead
MORE = {
    "expm1": (paddle.expm1, np.expm1, None),
    "log1p": (paddle.log1p, np.log1p, None),
    "log2": (paddle.log2, np.log2, torch.log2),
    "sigmoid": (F.sigmoid, lambda z: 1 / (1 + np.exp(-z)), torch.sigmoid),
    "silu": (F.silu, lambda z: z / (1 + np.exp(-z)), None),
    "tanhshrink": (F.tanhshrink, lambda z: z - np.tanh(z), None),
}


def fd_grad(loss, a, h=1e-6):
    """dL/d(re) + i dL/d(im) per element by central differences: torch's convention."""
    g = np.zeros_like(a)
    for k in range(a.size):
        for unit in (1, 1j):
            e = np.zeros_like(a)
            e.flat[k] = unit * h
            d = (loss(a + e) - loss(a - e)) / (2 * h)
            g.flat[k] += unit * d
    return g


class TestMoreFunctions(unittest.TestCase):
    def test_forward(self):
        for name, (fn, ref, _) in MORE.items():
            for dt in CDTYPES:
                a = crand([3, 4], dt, seed=21)
                with self.subTest(op=name, dtype=dt):
                    out = fn(paddle.to_tensor(a))
                    self.assertEqual(out.dtype, getattr(paddle, dt))
                    close(out.numpy(), ref(a.astype(np.complex128)), dt, scale=2)

    def test_small_arguments_keep_relative_accuracy(self):
        # each part to full relative precision (mpmath at 50 digits), where 1 + z would cancel
        mpmath.mp.dps = 50
        z = np.array([1e-8 + 1e-9j, -1e-7j, 3e-6 - 2e-6j, 0.3 + 0.2j], np.complex128)
        t = paddle.to_tensor(z)
        for fn, ref in ((paddle.expm1, lambda v: mpmath.exp(v) - 1),
                        (paddle.log1p, lambda v: mpmath.log(1 + v))):
            got = fn(t).numpy()
            want = np.array([complex(ref(mpmath.mpc(v.real, v.imag))) for v in z])
            np.testing.assert_allclose(got.real, want.real, rtol=1e-13, atol=0)
            np.testing.assert_allclose(got.imag, want.imag, rtol=1e-13, atol=0)

    def test_grads(self):
        torch_fns = {"log2": torch.log2, "sigmoid": torch.sigmoid,
                     "tanhshrink": torch.nn.functional.tanhshrink}
        a, w = crand([2, 3], seed=22), crand([2, 3], seed=23)
        for name, (fn, _, _) in MORE.items():
            def sk(x, fn=fn):
                return paddle.real(fn(x) * paddle.to_tensor(w)).sum()
            with self.subTest(op=name):
                if name in torch_fns:
                    check_grads(self, sk, lambda x, f=torch_fns[name]:
                                (f(x) * torch.tensor(w)).real.sum(), a)
                    continue
                (got,) = skiff_grad(sk, a)
                want = fd_grad(lambda z: float(sk(paddle.to_tensor(z)).numpy()), a)
                np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)

    def test_where(self):
        c = np.array([[True, False, True], [False, False, True]])
        a, b = crand([2, 3], seed=24), crand([3], seed=25)
        for dt in CDTYPES:
            out = paddle.where(paddle.to_tensor(c), paddle.to_tensor(a.astype(dt)),
                               paddle.to_tensor(b.astype(dt)))
            self.assertEqual(out.dtype, getattr(paddle, dt))
            np.testing.assert_array_equal(out.numpy(), np.where(c, a.astype(dt), b.astype(dt)))
        check_grads(self, lambda x, y: paddle.abs(paddle.where(paddle.to_tensor(c), x, y)).sum(),
                    lambda x, y: torch.where(torch.tensor(c), x, y).abs().sum(), a, b)


class TestCompositions(unittest.TestCase):
    """asinh, acosh, atanh (through asin/acos/atan), log10, isclose/allclose on complex input."""

    def test_inverse_hyperbolic(self):
        a = crand([3, 4], seed=26)
        # the branch cuts with signed zero imaginary parts: numpy's principal values
        cuts = np.array([-2 + 0j, complex(-2, -0.0), 3j, -3j, complex(0, -3), 0.5 + 0j, 2 + 0j,
                         complex(-0.0, 0.5)], np.complex128)
        for name, ref, tfn in (("asinh", np.arcsinh, torch.asinh),
                               ("acosh", np.arccosh, torch.acosh),
                               ("atanh", np.arctanh, torch.atanh)):
            for dt in CDTYPES:
                with self.subTest(op=name, dtype=dt):
                    out = getattr(paddle, name)(paddle.to_tensor(a.astype(dt)))
                    self.assertEqual(out.dtype, getattr(paddle, dt))
                    close(out.numpy(), ref(a), dt, scale=2)
            with self.subTest(op=name, at="branch cuts"):
                got = getattr(paddle, name)(paddle.to_tensor(cuts)).numpy()
                np.testing.assert_allclose(got, ref(cuts), rtol=1e-14, atol=1e-15)
            with self.subTest(op=name, at="grad"):
                check_grads(self, lambda x, n=name: (paddle.abs(getattr(paddle, n)(x)) ** 2).sum(),
                            lambda x, f=tfn: (f(x).abs() ** 2).sum(), a)
        self.assertEqual(paddle.asinh(paddle.to_tensor([0.5])).dtype, paddle.float32)

    def test_log10_isclose_allclose(self):
        a = crand([3, 4], seed=27)
        close(paddle.log10(paddle.to_tensor(a)).numpy(), np.log10(a), "complex128")
        check_grads(self, lambda x: (paddle.abs(paddle.log10(x)) ** 2).sum(),
                    lambda x: (torch.log10(x).abs() ** 2).sum(), a)
        b = a + np.where(np.arange(12).reshape(3, 4) % 2 == 0, 1e-9, 1e-3j)
        x, y = paddle.to_tensor(a), paddle.to_tensor(b)
        np.testing.assert_array_equal(paddle.isclose(x, y).numpy(), np.isclose(a, b))
        self.assertFalse(bool(paddle.allclose(x, y)))
        self.assertTrue(bool(paddle.allclose(x, paddle.to_tensor(a + 1e-9j))))


class TestPow(unittest.TestCase):
    def test_real_exponents(self):
        for dt in CDTYPES:
            a = crand([3, 4], dt, seed=9)
            t = paddle.to_tensor(a)
            for e in (2, 3, 0.5, -1.0, 1.7, 2.5, 0):
                with self.subTest(dtype=dt, exponent=e):
                    out = paddle.pow(t, e)
                    self.assertEqual(out.dtype, getattr(paddle, dt))
                    close(out.numpy(), a.astype(np.complex128) ** e, dt, scale=4)
                    close((t ** e).numpy(), a.astype(np.complex128) ** e, dt, scale=4)

    def test_complex_and_tensor_exponents(self):
        a, b = crand([3, 4], seed=10), crand([4], seed=11)
        t = paddle.to_tensor(a)
        close((t ** (1 + 2j)).numpy(), a ** (1 + 2j), "complex128", scale=10)
        close(paddle.pow(t, paddle.to_tensor(b)).numpy(), a ** b, "complex128", scale=10)
        close((t ** paddle.to_tensor(b)).numpy(), a ** b, "complex128", scale=10)
        r = np.random.default_rng(12).uniform(-2, 2, [4])
        out = paddle.pow(t, paddle.to_tensor(r))  # a real tensor exponent promotes
        self.assertEqual(out.dtype, paddle.complex128)
        close(out.numpy(), a ** r, "complex128", scale=10)
        close((2 ** t).numpy(), 2 ** a, "complex128", scale=10)

    def test_grads(self):
        a, b, w = crand([3, 4], seed=13), crand([4], seed=14), crand([3, 4], seed=15)
        for e in (2, 3, 0.5, -1.0, 1.7):
            with self.subTest(exponent=e):
                check_grads(self, lambda x: paddle.real(paddle.pow(x, e) *
                                                        paddle.to_tensor(w)).sum(),
                            lambda x: (torch.pow(x, e) * torch.tensor(w)).real.sum(), a)
        check_grads(self, lambda x, y: paddle.real(paddle.pow(x, y) * paddle.to_tensor(w)).sum(),
                    lambda x, y: (torch.pow(x, y) * torch.tensor(w)).real.sum(), a, b)
        r = np.random.default_rng(16).uniform(0.5, 2, [4])
        check_grads(self, lambda x, y: (paddle.abs(paddle.pow(x, y)) ** 2).sum(),
                    lambda x, y: (torch.pow(x, y).abs() ** 2).sum(), a, r)


class TestProd(unittest.TestCase):
    def test_forward(self):
        for dt in CDTYPES:
            a = crand([3, 4, 5], dt, seed=17, lo=-1.2, hi=1.2)
            t = paddle.to_tensor(a)
            ref = a.astype(np.complex128)
            for axis, keepdim in ((None, False), (1, False), ([0, 2], True), (-1, True)):
                with self.subTest(dtype=dt, axis=axis):
                    out = paddle.prod(t, axis=axis, keepdim=keepdim)
                    self.assertEqual(out.dtype, getattr(paddle, dt))
                    want = np.prod(ref, axis=tuple(axis) if isinstance(axis, list) else axis,
                                   keepdims=keepdim)
                    close(out.numpy(), want, dt, scale=4)
        big = crand([3, 5000], "complex64", seed=18, lo=-0.6, hi=0.6) / 0.9 + 0.5
        close(paddle.prod(paddle.to_tensor(big), axis=0).numpy(),
              np.prod(big.astype(np.complex128), axis=0), "complex64", scale=4)
        c128 = paddle.prod(paddle.to_tensor(crand([4], "complex64")), dtype="complex128")
        self.assertEqual(c128.dtype, paddle.complex128)

    def test_grad(self):
        a, w = crand([3, 4], seed=19), crand([4], seed=20)
        check_grads(self, lambda x: paddle.real(paddle.prod(x, axis=0) * paddle.to_tensor(w)).sum(),
                    lambda x: (torch.prod(x, 0) * torch.tensor(w)).real.sum(), a)
        check_grads(self, lambda x: paddle.abs(paddle.prod(x)), lambda x: torch.prod(x).abs(), a)


class TestClassifyAndEquality(unittest.TestCase):
    def test_isnan_isinf_isfinite(self):
        nan, inf = np.nan, np.inf
        z = np.array([1 + 1j, complex(nan, 0), complex(0, nan), complex(inf, 0), complex(0, -inf),
                      complex(inf, nan), complex(nan, inf), 0j], np.complex128)
        for dt in CDTYPES:
            t = paddle.to_tensor(z.astype(dt))
            for name in ("isnan", "isinf", "isfinite"):
                with self.subTest(op=name, dtype=dt):
                    out = getattr(paddle, name)(t)
                    self.assertEqual(out.dtype, paddle.bool)
                    np.testing.assert_array_equal(out.numpy(), getattr(np, name)(z))
                    np.testing.assert_array_equal(getattr(t, name)().numpy(),
                                                  getattr(np, name)(z))

    def test_equal_not_equal(self):
        a = np.array([[1 + 2j, 3 - 1j, 0j], [1 + 0j, -2j, 5]], np.complex64)
        b = np.array([1 + 2j, 3 + 1j, 0j], np.complex64)
        x, y = paddle.to_tensor(a), paddle.to_tensor(b)
        for out, want in ((paddle.equal(x, y), a == b), (paddle.not_equal(x, y), a != b),
                          (x == y, a == b), (x != y, a != b)):
            self.assertEqual(out.dtype, paddle.bool)
            np.testing.assert_array_equal(out.numpy(), want)
        # against a real tensor (promoted) and a complex128 one
        r = paddle.to_tensor([1.0, 3.0, 0.0], dtype="float32")
        np.testing.assert_array_equal(paddle.equal(x, r).numpy(), a == np.array([1, 3, 0]))
        np.testing.assert_array_equal(
            paddle.not_equal(x, paddle.to_tensor(b.astype(np.complex128))).numpy(), a != b)
        n = paddle.to_tensor(np.array([complex(np.nan, 0)], np.complex128))
        self.assertFalse(paddle.equal(n, n).numpy()[0])
        self.assertTrue(paddle.not_equal(n, n).numpy()[0])


class TestErrors(unittest.TestCase):
    def test_unsupported_complex(self):
        x = paddle.to_tensor([1 + 1j, 2 - 1j])
        cases = (("less_than", lambda: paddle.less_than(x, x)), ("less_than", lambda: x < x),
                 ("greater_equal", lambda: paddle.greater_equal(x, x)),
                 ("maximum", lambda: paddle.maximum(x, x)), ("erf", lambda: paddle.erf(x)),
                 ("floor", lambda: paddle.floor(x)))
        assert_real_only(self, cases)


if __name__ == "__main__":
    unittest.main()
