"""paddle.linalg.eig and eigvals (LAPACK geev) as Paddle code uses them: float32/float64 and
complex64/complex128 inputs, batched and empty; complex results of Paddle's dtypes; x v = v diag(w)
with unit vectors whose largest component is real; eigenvalues equal to numpy.linalg.eig's (as
sets, and in LAPACK's order); gradients against torch.linalg.eig and finite differences, second
order included; bad input raises Paddle's error classes."""
import inspect
import unittest

import numpy as np
import torch

import skiff as paddle

TOL = {"float32": 1e-4, "complex64": 1e-4, "float64": 1e-10, "complex128": 1e-10}
CDTYPE = {"float32": "complex64", "float64": "complex128", "complex64": "complex64",
          "complex128": "complex128"}


def rand(shape, dtype, seed=0):
    r = np.random.default_rng(seed)
    a = r.uniform(-1, 1, shape)
    if dtype.startswith("complex"):
        a = a + 1j * r.uniform(-1, 1, shape)
    return a.astype(dtype)


def match(got, want):
    """The permutation p with got[p[i]] nearest want[i]; fails unless it is one."""
    p = [int(np.argmin(np.abs(got - w))) for w in want]
    assert sorted(p) == list(range(len(want))), (got, want)
    return p


class TestEigForward(unittest.TestCase):
    def check(self, a, dt):
        n = a.shape[-1]
        tol = TOL[dt] * 10 * max(n, 1)
        w, v = paddle.linalg.eig(paddle.to_tensor(a))
        self.assertEqual(w.dtype, getattr(paddle, CDTYPE[dt]))
        self.assertEqual(v.dtype, getattr(paddle, CDTYPE[dt]))
        self.assertEqual(w.shape, list(a.shape[:-1]))
        self.assertEqual(v.shape, list(a.shape))
        wn, vn = w.numpy().astype(np.complex128), v.numpy().astype(np.complex128)
        a64 = a.astype(np.complex128)
        np.testing.assert_allclose(a64 @ vn, vn * wn[..., None, :], rtol=0, atol=tol)
        np.testing.assert_allclose(np.linalg.norm(vn, axis=-2), 1, atol=tol)
        nw, nv = np.linalg.eig(a.astype(np.complex128 if dt.startswith("complex") else np.float64))
        flat_w, flat_v = wn.reshape(-1, n), vn.reshape(-1, n, n)
        flat_nw, flat_nv = nw.reshape(-1, n), nv.reshape(-1, n, n)
        for b in range(flat_w.shape[0]):
            if n == 0:
                continue
            p = match(flat_w[b], flat_nw[b])
            np.testing.assert_allclose(flat_w[b][p], flat_nw[b], atol=tol)
            # each vector equals numpy's up to a unit phase, and its largest component is real
            phase = np.sum(np.conj(flat_nv[b]) * flat_v[b][:, p], axis=0)
            np.testing.assert_allclose(np.abs(phase), 1, atol=tol)
            big = np.argmax(np.abs(flat_v[b]), axis=0)
            np.testing.assert_allclose(flat_v[b][big, range(n)].imag, 0, atol=tol)
        ev = paddle.linalg.eigvals(paddle.to_tensor(a))
        np.testing.assert_array_equal(ev.numpy(), w.numpy())

    def test_real_and_complex_batched(self):
        for dt in TOL:
            for k, shape in enumerate(([4, 4], [3, 5, 5], [1, 1], [2, 2, 7, 7], [16, 16])):
                self.check(rand(shape, dt, k), dt)

    def test_lapack_order_as_numpy(self):
        # numpy calls the same LAPACK routine (dgeev/zgeev): same order, same vectors
        for dt in ("float64", "complex128"):
            a = rand([3, 6, 6], dt, 7)
            w, v = paddle.linalg.eig(paddle.to_tensor(a))
            nw, nv = np.linalg.eig(a)
            np.testing.assert_allclose(w.numpy(), nw, atol=1e-10)
            np.testing.assert_allclose(v.numpy(), nv, atol=1e-10)

    def test_complex_pairs_defective_and_special(self):
        rot = np.array([[0.0, -2.0], [2.0, 0.0]])  # eigenvalues +-2i: a conjugate pair
        w, v = paddle.to_tensor(rot).eig()
        np.testing.assert_allclose(w.numpy(), [2j, -2j], atol=1e-12)  # wi > 0 first (LAPACK)
        np.testing.assert_allclose(v.numpy()[:, 1], np.conj(v.numpy()[:, 0]), atol=1e-12)
        np.testing.assert_allclose(rot @ v.numpy(), v.numpy() * w.numpy(), atol=1e-12)
        np.testing.assert_array_equal(paddle.to_tensor(rot).eigvals().numpy(), w.numpy())
        tri = np.array([[2.0, 1.0], [0.0, 2.0]])  # defective: one eigenvector twice
        w, v = paddle.linalg.eig(paddle.to_tensor(tri))
        np.testing.assert_allclose(w.numpy(), [2, 2])
        np.testing.assert_allclose(np.abs(v.numpy()[:, 0]), [1, 0])
        d = np.diag([3.0, -1.0, 0.5]).astype("float32")
        w, v = paddle.linalg.eig(paddle.to_tensor(d))
        np.testing.assert_allclose(w.numpy(), np.array([3, -1, 0.5], np.complex64), atol=1e-7)
        np.testing.assert_allclose(v.numpy(), np.eye(3, dtype=np.complex64), atol=1e-7)

    def test_empty(self):
        for shape in ([0, 3, 3], [2, 0, 0]):
            w, v = paddle.linalg.eig(paddle.to_tensor(np.zeros(shape)))
            self.assertEqual(w.shape, shape[:-1])
            self.assertEqual(v.shape, shape)
            self.assertEqual(w.dtype, paddle.complex128)

    def test_strided_input(self):
        a = rand([5, 5], "float64", 3)
        t = paddle.to_tensor(a).transpose([1, 0])
        w, _ = paddle.linalg.eig(t)
        np.testing.assert_allclose(np.sort_complex(w.numpy()),
                                   np.sort_complex(np.linalg.eigvals(a.T)), atol=1e-10)

    def test_signatures(self):
        for f in (paddle.linalg.eig, paddle.linalg.eigvals):
            self.assertTrue(inspect.isfunction(f))
            self.assertEqual(list(inspect.signature(f).parameters), ["x", "name"])
        self.assertTrue(hasattr(paddle.Tensor, "eig") and hasattr(paddle.Tensor, "eigvals"))
        x = paddle.to_tensor(rand([3, 3], "float64"))
        w, _ = paddle.linalg.eig(x, name="e")
        np.testing.assert_array_equal(x.eig()[0].numpy(), w.numpy())


# Losses that do not depend on the phase of each eigenvector (the only ones with a gradient)
def loss_of(w, v, cw, cv, lib):
    if lib is torch:
        return (torch.real(w) * cw[0]).sum() + (torch.imag(w) * cw[1]).sum() + \
            (torch.abs(v) ** 2 * cv).sum()
    return (paddle.real(w) * cw[0]).sum() + (paddle.imag(w) * cw[1]).sum() + \
        (paddle.abs(v) ** 2 * cv).sum()


class TestEigGrad(unittest.TestCase):
    def setUp(self):
        r = np.random.default_rng(11)
        self.cw = r.uniform(-1, 1, (2, 3, 4))
        self.cv = r.uniform(-1, 1, (3, 4, 4))

    def ours(self, a, wrt_v=True):
        x = paddle.to_tensor(a, stop_gradient=False)
        w, v = paddle.linalg.eig(x)
        cw = [paddle.to_tensor(c) for c in self.cw]
        cv = paddle.to_tensor(self.cv if wrt_v else np.zeros_like(self.cv))
        loss_of(w, v, cw, cv, paddle).backward()
        return x.grad.numpy()

    def torch_grad(self, a, wrt_v=True):
        x = torch.tensor(a, requires_grad=True)
        w, v = torch.linalg.eig(x)
        cv = torch.tensor(self.cv if wrt_v else np.zeros_like(self.cv))
        loss_of(w, v, [torch.tensor(c) for c in self.cw], cv, torch).backward()
        return x.grad.numpy()

    def test_against_torch(self):
        for dt in ("float64", "complex128"):
            a = rand([3, 4, 4], dt, 5)
            g = self.ours(a)
            self.assertEqual(g.dtype, np.dtype(dt))
            np.testing.assert_allclose(g, self.torch_grad(a), rtol=1e-8, atol=1e-8)
            np.testing.assert_allclose(self.ours(a, False), self.torch_grad(a, False),
                                       rtol=1e-8, atol=1e-8)

    def test_float32(self):
        a = rand([3, 4, 4], "float32", 6)
        g = self.ours(a)
        self.assertEqual(g.dtype, np.float32)
        np.testing.assert_allclose(g, self.torch_grad(a.astype(np.float64)), rtol=1e-3, atol=1e-3)

    def test_finite_differences(self):
        a = rand([3, 4, 4], "float64", 8)
        g = self.ours(a)

        def f(m):
            w, v = paddle.linalg.eig(paddle.to_tensor(m))
            return float(loss_of(w, v, [paddle.to_tensor(c) for c in self.cw],
                                 paddle.to_tensor(self.cv), paddle))
        num = np.zeros_like(a)
        eps = 1e-6
        for idx in np.ndindex(*a.shape):
            e = np.zeros_like(a)
            e[idx] = eps
            num[idx] = (f(a + e) - f(a - e)) / (2 * eps)
        np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-6)

    def test_only_eigenvalues_and_eigvals(self):
        a = rand([3, 4, 4], "float64", 9)
        x = paddle.to_tensor(a, stop_gradient=False)
        w = paddle.linalg.eigvals(x)
        (paddle.real(w) * paddle.to_tensor(self.cw[0]) +
         paddle.imag(w) * paddle.to_tensor(self.cw[1])).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), self.torch_grad(a, False), rtol=1e-8,
                                   atol=1e-8)
        x = paddle.to_tensor(a, stop_gradient=False)
        _, v = paddle.linalg.eig(x)  # the eigenvalues unused: their gradient is undefined
        (paddle.abs(v) ** 2 * paddle.to_tensor(self.cv)).sum().backward()
        xt = torch.tensor(a, requires_grad=True)
        (torch.abs(torch.linalg.eig(xt)[1]) ** 2 * torch.tensor(self.cv)).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-8, atol=1e-8)

    def test_second_order(self):
        a = rand([2, 3, 3], "float64", 10)
        u = rand([2, 3, 3], "float64", 12)
        cw, cv = self.cw[:, :2, :3], self.cv[:2, :3, :3]
        x = paddle.to_tensor(a, stop_gradient=False)
        w, v = paddle.linalg.eig(x)
        loss = loss_of(w, v, [paddle.to_tensor(c) for c in cw], paddle.to_tensor(cv), paddle)
        (g,) = paddle.grad(loss, x, create_graph=True)
        (g * paddle.to_tensor(u)).sum().backward()
        xt = torch.tensor(a, requires_grad=True)
        wt, vt = torch.linalg.eig(xt)
        lt = loss_of(wt, vt, [torch.tensor(c) for c in cw], torch.tensor(cv), torch)
        (gt,) = torch.autograd.grad(lt, xt, create_graph=True)
        (gt * torch.tensor(u)).sum().backward()
        np.testing.assert_allclose(g.numpy(), gt.detach().numpy(), rtol=1e-8, atol=1e-8)
        np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-6, atol=1e-6)


class TestEigErrors(unittest.TestCase):
    def test_bad_input(self):
        for f in (paddle.linalg.eig, paddle.linalg.eigvals):
            with self.assertRaises(ValueError) as cm:
                f(paddle.to_tensor(rand([2, 3], "float64")))
            self.assertEqual(str(cm.exception), "(InvalidArgument) eig: argument 'x' expected "
                             "square matrices [*, N, N], got [2, 3]")
            with self.assertRaises(ValueError) as cm:
                f(paddle.to_tensor(rand([3], "float64")))
            self.assertIn("(InvalidArgument) eig: argument 'x' expected a matrix or a batch of "
                          "matrices (rank >= 2), got [3]", str(cm.exception))
            with self.assertRaises(TypeError) as cm:
                f(paddle.to_tensor(np.eye(3, dtype=np.int64)))
            self.assertIn("(InvalidType) eig: argument 'x' expected a float32, float64, "
                          "complex64 or complex128 tensor, got int64", str(cm.exception))
            for bad in (np.nan, np.inf):
                a = np.stack([np.eye(2), np.array([[1.0, bad], [0.0, 1.0]])])
                with self.assertRaises(ValueError) as cm:
                    f(paddle.to_tensor(a))
                self.assertIn("(InvalidArgument) eig: argument 'x' expected finite values (no "
                              "inf or nan), got a non-finite value at batch entry 1",
                              str(cm.exception))


if __name__ == "__main__":
    unittest.main()
