"""Complex scans, data movement and blends as Paddle code uses them: cumsum, cumprod, flip,
gather, index_select, index_add, masked_fill (real and complex fill values), tril/triu, lerp and
softsign on complex64/complex128 tensors, against numpy; gradients against torch (the conjugate
Wirtinger convention, grad_x = grad_out * conj(d out / d x)); to_tensor of numpy complex scalars
(their dtype kept, as Paddle's np.number rule says); the ordering scans and sorts stay real and
raise (Unimplemented) naming the op and the dtype."""
import unittest

import numpy as np
import torch

import skiff as paddle
import skiff.nn.functional as F
# One harness for the complex tests: gradients, random inputs, tolerance checks.
from test_complex import CDTYPES, assert_real_only, crand, make_close, skiff_grad, torch_grad

TOL = {"complex64": 5e-5, "complex128": 1e-12}
close = make_close(TOL)


def check_grads(case, sk, th, *arrays, tol=1e-10):
    got, want = skiff_grad(sk, *arrays), torch_grad(th, *arrays)
    for g, w, a in zip(got, want, arrays):
        case.assertEqual(g.dtype, a.dtype)
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def weighted(w):
    """A real loss of a complex result: Re(sum(out * w)), so every element has its own weight."""
    return (lambda out: paddle.real(out * paddle.to_tensor(w)).sum(),
            lambda out: (out * torch.tensor(w)).real.sum())


class TestScans(unittest.TestCase):
    def test_cumsum_cumprod_forward(self):
        a = crand([3, 4, 5], seed=1, lo=-1.2, hi=1.2)
        for dt in CDTYPES:
            x = paddle.to_tensor(a.astype(dt))
            for axis in (0, 1, -1):
                with self.subTest(dtype=dt, axis=axis):
                    out = paddle.cumsum(x, axis=axis)
                    self.assertEqual(out.dtype, getattr(paddle, dt))
                    close(out, np.cumsum(a.astype(dt), axis), dt)
                    close(paddle.cumprod(x, dim=axis), np.cumprod(a.astype(dt), axis), dt, 10)
            close(paddle.cumsum(x), np.cumsum(a.astype(dt)), dt, 10)  # axis None: flattened
            close(x.cumsum(1), np.cumsum(a.astype(dt), 1), dt)
            close(x.cumprod(2), np.cumprod(a.astype(dt), 2), dt, 10)
        c = paddle.cumsum(paddle.to_tensor(a.astype("complex64")), axis=0, dtype="complex128")
        self.assertEqual(c.dtype, paddle.complex128)
        close(c, np.cumsum(a.astype("complex64").astype("complex128"), 0), "complex64")
        # the wide accumulator: complex64 sums of many terms stay close to the complex128 ones
        big = crand([20000], "complex64", seed=2)
        np.testing.assert_allclose(paddle.cumsum(paddle.to_tensor(big)).numpy()[-1],
                                   np.cumsum(big.astype("complex128"))[-1], rtol=1e-6)

    def test_empty_and_scalar(self):
        e = paddle.to_tensor(np.zeros([0, 3], np.complex64))
        self.assertEqual(paddle.cumsum(e, axis=0).shape, [0, 3])
        self.assertEqual(paddle.cumprod(e, dim=1).shape, [0, 3])
        s = paddle.to_tensor(np.complex128(1 - 2j))
        self.assertEqual(paddle.cumprod(s, dim=0).item(), 1 - 2j)

    def test_grads(self):
        a, w = crand([3, 4], seed=3), crand([3, 4], seed=4)
        sk, th = weighted(w)
        for axis in (0, 1):
            with self.subTest(axis=axis):
                check_grads(self, lambda x: sk(paddle.cumsum(x, axis=axis)),
                            lambda x: th(torch.cumsum(x, axis)), a)
                check_grads(self, lambda x: sk(paddle.cumprod(x, dim=axis)),
                            lambda x: th(torch.cumprod(x, axis)), a)
        check_grads(self, lambda x: sk(paddle.reshape(paddle.cumsum(x), [3, 4])),
                    lambda x: th(torch.cumsum(x.reshape(-1), 0).reshape(3, 4)), a)
        z = a.copy()
        z[1, 1] = 0  # cumprod's zero-safe rule (no division by x)
        z[2, 0] = 0
        check_grads(self, lambda x: sk(paddle.cumprod(x, dim=1)),
                    lambda x: th(torch.cumprod(x, 1)), z)
        (g,) = skiff_grad(lambda x: paddle.abs(paddle.cumprod(x, dim=0)).sum(),
                          a.astype("complex64"))
        (want,) = torch_grad(lambda x: torch.cumprod(x, 0).abs().sum(), a.astype("complex64"))
        self.assertEqual(g.dtype, np.complex64)
        np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-4)


class TestDataMovement(unittest.TestCase):
    def test_forward(self):
        a = crand([4, 5], seed=5)
        idx = np.array([3, 0, 3, 1])
        for dt in CDTYPES:
            x, ad = paddle.to_tensor(a.astype(dt)), a.astype(dt)
            i = paddle.to_tensor(idx)
            with self.subTest(dtype=dt):
                cases = {
                    "flip": (paddle.flip(x, [0, 1]), ad[::-1, ::-1]),
                    "gather": (paddle.gather(x, i, axis=0), ad[idx]),
                    "gather_scalar": (paddle.gather(x, paddle.to_tensor(2), axis=1), ad[:, 2]),
                    "index_select": (paddle.index_select(x, i, axis=1), ad[:, idx]),
                    "method": (x.index_select(i[:2]), ad[idx[:2]]),
                    "tril": (paddle.tril(x), np.tril(ad)),
                    "tril-1": (paddle.tril(x, diagonal=-1), np.tril(ad, -1)),
                    "triu": (paddle.triu(x), np.triu(ad)),
                    "triu2": (x.triu(2), np.triu(ad, 2)),
                }
                for name, (got, want) in cases.items():
                    self.assertEqual(got.dtype, getattr(paddle, dt), name)
                    np.testing.assert_array_equal(got.numpy(), want, err_msg=name)
                v = crand([4, 5], dt, seed=6)
                got = paddle.index_add(x, i, 0, paddle.to_tensor(v))
                want = ad.copy()
                np.add.at(want, idx, v)
                close(got, want, dt)

    def test_masked_fill(self):
        a = crand([3, 4], seed=7)
        m = np.random.default_rng(8).uniform(size=[3, 4]) > 0.5
        for dt in CDTYPES:
            x, mask = paddle.to_tensor(a.astype(dt)), paddle.to_tensor(m)
            for value in (2.5, 3, 1 - 2j, np.complex64(0.5j), np.complex128(-1 + 1j),
                          paddle.to_tensor(2 + 3j), paddle.to_tensor([4j]),
                          paddle.to_tensor(1.5)):
                want = np.where(m, np.asarray(value).reshape([]).astype(dt), a.astype(dt))
                with self.subTest(dtype=dt, value=value):
                    got = paddle.masked_fill(x, mask, value)
                    self.assertEqual(got.dtype, getattr(paddle, dt))
                    np.testing.assert_array_equal(got.numpy(), want)
                    np.testing.assert_array_equal(x.masked_fill(mask, value).numpy(), want)
                    y = paddle.to_tensor(a.astype(dt))
                    self.assertIs(y.masked_fill_(mask, value), y)
                    np.testing.assert_array_equal(y.numpy(), want)
                    z = paddle.to_tensor(a.astype(dt))
                    paddle.masked_fill_(z, mask, value)
                    np.testing.assert_array_equal(z.numpy(), want)
            # the mask broadcasts against x
            got = paddle.masked_fill(x, paddle.to_tensor(m[0]), 1j)
            np.testing.assert_array_equal(got.numpy(), np.where(m[0], 1j, a).astype(dt))

    def test_grads(self):
        a, w = crand([4, 5], seed=9), crand([4, 5], seed=10)
        idx = np.array([3, 0, 3, 1])
        i = paddle.to_tensor(idx)
        ti = torch.tensor(idx)
        m = np.random.default_rng(11).uniform(size=[4, 5]) > 0.5
        cases = {
            "flip": (lambda x: paddle.flip(x, [1]), lambda x: torch.flip(x, [1])),
            "gather": (lambda x: paddle.gather(x, i, axis=0), lambda x: x[ti]),
            "index_select": (lambda x: paddle.index_select(x, i, axis=1),
                             lambda x: torch.index_select(x, 1, ti)),
            "tril": (lambda x: paddle.tril(x, 1), lambda x: torch.tril(x, 1)),
            "triu": (lambda x: paddle.triu(x, -1), lambda x: torch.triu(x, -1)),
            "masked_fill": (lambda x: paddle.masked_fill(x, paddle.to_tensor(m), 2.0),
                            lambda x: x.masked_fill(torch.tensor(m), 2.0)),
            "masked_fill_complex": (lambda x: paddle.masked_fill(x, paddle.to_tensor(m), 1j),
                                    lambda x: x.masked_fill(torch.tensor(m), 1j)),
        }
        for name, (sk_fn, th_fn) in cases.items():
            with self.subTest(op=name):
                ww = w[:, :4] if name == "index_select" else w
                sk, th = weighted(ww)
                check_grads(self, lambda x, f=sk_fn, s=sk: s(f(x)),
                            lambda x, f=th_fn, t=th: t(f(x)), a)
        v = crand([4, 5], seed=12)
        sk, th = weighted(w)
        check_grads(self, lambda x, y: sk(paddle.index_add(x, i, 0, y)),
                    lambda x, y: th(torch.index_add(x, 0, ti, y)), a, v)
        # a complex 0-D value tensor gets the gradient of the positions it fills
        check_grads(self, lambda x, val: sk(paddle.masked_fill(x, paddle.to_tensor(m), val)),
                    lambda x, val: th(torch.where(torch.tensor(m), val, x)), a,
                    np.array(0.5 - 1j))


class TestLerpSoftsign(unittest.TestCase):
    def test_lerp(self):
        a, b, c = crand([3, 4], seed=13), crand([4], seed=14), crand([3, 1], seed=15)
        for dt in CDTYPES:
            x, y, wt = (paddle.to_tensor(v.astype(dt)) for v in (a, b, c))
            want = a.astype(dt) + c.astype(dt) * (b.astype(dt) - a.astype(dt))
            with self.subTest(dtype=dt):
                got = paddle.lerp(x, y, wt)
                self.assertEqual(got.dtype, getattr(paddle, dt))
                close(got, want, dt)
                close(x.lerp(y, wt), want, dt)
                close(paddle.lerp(x, y, 0.25), a + 0.25 * (b - a), dt)
        check_grads(self, lambda x, y, w: paddle.abs(paddle.lerp(x, y, w)).sum(),
                    lambda x, y, w: torch.lerp(x, y, w).abs().sum(), a, b, c)
        sk, th = weighted(crand([3, 4], seed=16))
        check_grads(self, lambda x, y, w: sk(paddle.lerp(x, y, w)),
                    lambda x, y, w: th(torch.lerp(x, y, w)), a, b, c)

    def test_softsign(self):
        a = crand([3, 4], seed=17)
        a[0, 0] = 0  # |x| is not differentiable at 0: torch's (and Paddle's) choice, 1
        for dt in CDTYPES:
            with self.subTest(dtype=dt):
                got = F.softsign(paddle.to_tensor(a.astype(dt)))
                self.assertEqual(got.dtype, getattr(paddle, dt))
                close(got, a.astype(dt) / (1 + np.abs(a.astype(dt))), dt)
                close(paddle.nn.Softsign()(paddle.to_tensor(a.astype(dt))),
                      a.astype(dt) / (1 + np.abs(a.astype(dt))), dt)
        sk, th = weighted(crand([3, 4], seed=18))
        check_grads(self, lambda x: sk(F.softsign(x)),
                    lambda x: th(torch.nn.functional.softsign(x)), a)


class TestToTensorNumpyScalars(unittest.TestCase):
    def test_numpy_scalars_keep_their_dtype(self):
        # Paddle: np.number -> its own dtype (0-D); a Python number -> the default dtype
        for v, dt in ((np.complex128(1 + 2j), paddle.complex128),
                      (np.complex64(1 + 2j), paddle.complex64), (1 + 2j, paddle.complex64),
                      (np.float64(1.5), paddle.float64), (np.float32(1.5), paddle.float32)):
            with self.subTest(value=repr(v)):
                t = paddle.to_tensor(v)
                self.assertEqual(t.dtype, dt)
                self.assertEqual(t.shape, [])
                self.assertEqual(t.item(), v)
        self.assertEqual(paddle.to_tensor(np.complex128(1 + 2j), dtype="complex64").dtype,
                         paddle.complex64)
        self.assertEqual(paddle.to_tensor([np.complex128(1j)]).dtype, paddle.complex64)
        paddle.set_default_dtype("float64")
        try:
            self.assertEqual(paddle.to_tensor(1 + 2j).dtype, paddle.complex128)
            self.assertEqual(paddle.to_tensor(np.complex64(1j)).dtype, paddle.complex64)
        finally:
            paddle.set_default_dtype("float32")


class TestErrors(unittest.TestCase):
    def test_ordering_ops_stay_real(self):
        x = paddle.to_tensor(crand([4], "complex64", seed=19))
        cases = (("cummax", lambda: paddle.cummax(x, axis=0)),
                 ("cummin", lambda: paddle.cummin(x, axis=0)),
                 ("sort", lambda: paddle.sort(x)), ("argmax", lambda: paddle.argmax(x)))
        assert_real_only(self, cases)

    def test_bad_inputs(self):
        x = paddle.to_tensor(crand([2, 3], "complex64", seed=20))
        r = paddle.to_tensor([[1.0, 2.0, 3.0]])
        mask = paddle.to_tensor([[True, False, True]])
        for value in (1j, paddle.to_tensor(1j)):
            with self.assertRaises(TypeError) as cm:
                paddle.masked_fill(r, mask, value)
            self.assertEqual(str(cm.exception), "(InvalidType) masked_fill: argument 'value' "
                             "expected a real value for a float32 tensor, got complex")
        with self.assertRaises(TypeError) as cm:
            r.masked_fill_(mask, 2j)
        self.assertIn("(InvalidType) masked_fill_: argument 'value'", str(cm.exception))
        np.testing.assert_array_equal(r.numpy(), [[1.0, 2.0, 3.0]])  # untouched
        with self.assertRaises(ValueError) as cm:
            paddle.masked_fill(x, paddle.to_tensor([True, False]), 1j)
        self.assertIn("(InvalidArgument) where", str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            paddle.masked_fill(x, mask, paddle.to_tensor([1j, 2j]))
        self.assertEqual(str(cm.exception), "(InvalidArgument) masked_fill: argument 'value' "
                         "expected a number or a 1-element tensor, got a tensor of shape [2]")
        with self.assertRaises(IndexError) as cm:
            paddle.gather(x, paddle.to_tensor([5]), axis=1)
        self.assertIn("(OutOfRange) gather: argument 'index'", str(cm.exception))
        with self.assertRaises(IndexError) as cm:
            paddle.index_select(x, paddle.to_tensor([-1]), axis=0)
        self.assertIn("(OutOfRange) index_select: argument 'index'", str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            paddle.lerp(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4]),
                        paddle.to_tensor([0, 1]))
        self.assertEqual(str(cm.exception).split("\n")[0],
                         "(InvalidType) lerp: argument 'x' expected a floating-point or complex "
                         "tensor, got int64")
        with self.assertRaises(IndexError):
            paddle.cumsum(x, axis=2)


if __name__ == "__main__":
    unittest.main()
