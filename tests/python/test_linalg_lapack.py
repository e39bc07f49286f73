"""paddle.linalg's LAPACK family in Paddle's test style: forward against numpy.linalg in float32
and float64, batched; gradients against torch (gauge-invariant losses for the decompositions
whose vectors are defined up to sign; symmetric inputs for cholesky and eigh, whose gradients
are the symmetric ones); bad input raises Paddle's (InvalidArgument) ValueError naming the op
and the argument; signatures are Paddle 3.0's."""
import inspect
import unittest

import numpy as np
import torch

import skiff as paddle

DTYPES = ("float32", "float64")
RTOL = {"float32": 2e-4, "float64": 1e-9}


def rand(shape, seed=0, shift=0.0):
    """Random matrices; `shift` adds shift * I to each square matrix (well conditioned)."""
    a = np.random.default_rng(seed).uniform(-1, 1, shape)
    if shift:
        a = a + shift * np.eye(shape[-1])
    return a


def spd(shape, seed=0):
    b = rand(shape, seed)
    return b @ np.swapaxes(b, -1, -2) + shape[-1] * np.eye(shape[-1])


def sym(shape, seed=0):
    b = rand(shape, seed)
    return (b + np.swapaxes(b, -1, -2)) / 2


def T(a, dtype="float64", grad=False):
    t = paddle.to_tensor(np.asarray(a).astype(dtype))
    t.stop_gradient = not grad
    return t


def tt(a):
    return torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def close(got, want, dtype="float64", scale=1.0):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=RTOL[dtype] * scale,
                               atol=RTOL[dtype] * scale)


class LinalgForwardTest(unittest.TestCase):
    def test_inv_det_slogdet(self):
        for dtype in DTYPES:
            a = rand([2, 3, 4, 4], 1, 2.0)
            a[0, 0] = -a[0, 0]  # some negative determinants
            close(paddle.linalg.inv(T(a, dtype)).numpy(), np.linalg.inv(a), dtype, 10)
            close(paddle.inverse(T(a, dtype)).numpy(), np.linalg.inv(a), dtype, 10)
            close(paddle.linalg.det(T(a, dtype)).numpy(), np.linalg.det(a), dtype, 10)
            out = paddle.linalg.slogdet(T(a, dtype)).numpy()
            sign, logabs = np.linalg.slogdet(a)
            self.assertEqual(out.shape, (2, 2, 3))
            close(out[0], sign, dtype)
            close(out[1], logabs, dtype, 10)
        singular = np.ones([3, 3])
        self.assertEqual(float(paddle.linalg.det(T(singular))), 0.0)
        out = paddle.linalg.slogdet(T(singular)).numpy()
        self.assertEqual(out[0], 0.0)
        self.assertTrue(np.isneginf(out[1]))

    def test_solve(self):
        for dtype in DTYPES:
            a, b = rand([2, 3, 3], 2, 2.0), rand([2, 3, 4], 3)
            close(paddle.linalg.solve(T(a, dtype), T(b, dtype)).numpy(), np.linalg.solve(a, b),
                  dtype, 10)
            v = rand([3], 4)  # a vector right-hand side, broadcast over x's batch
            close(paddle.linalg.solve(T(a, dtype), T(v, dtype)).numpy(),
                  np.linalg.solve(a, v[None, :, None])[..., 0], dtype, 10)
            bv = rand([2, 3], 5)  # x's shape without the last dim: a batch of vectors
            close(paddle.linalg.solve(T(a, dtype), T(bv, dtype)).numpy(),
                  np.linalg.solve(a, bv[..., None])[..., 0], dtype, 10)
            right = rand([2, 5, 3], 6)  # out @ x = y
            close(paddle.linalg.solve(T(a, dtype), T(right, dtype), left=False).numpy(),
                  right @ np.linalg.inv(a), dtype, 10)
        bcast = paddle.linalg.solve(T(rand([3, 3], 7, 2.0)), T(rand([4, 3, 2], 8)))
        self.assertEqual(bcast.shape, [4, 3, 2])

    def test_triangular_solve(self):
        a, b = rand([2, 4, 4], 9, 3.0), rand([2, 4, 3], 10)
        for dtype in DTYPES:
            for upper in (True, False):
                for transpose in (False, True):
                    for unit in (False, True):
                        tri = np.triu(a) if upper else np.tril(a)
                        if unit:
                            tri = tri * (1 - np.eye(4)) + np.eye(4)
                        op = np.swapaxes(tri, -1, -2) if transpose else tri
                        got = paddle.linalg.triangular_solve(T(a, dtype), T(b, dtype), upper,
                                                             transpose, unit)
                        close(got.numpy(), np.linalg.solve(op, b), dtype, 10)

    def test_cholesky_and_solve(self):
        a = spd([3, 4, 4], 11)
        for dtype in DTYPES:
            low = paddle.linalg.cholesky(T(a, dtype)).numpy()
            close(low, np.linalg.cholesky(a), dtype, 10)
            up = paddle.linalg.cholesky(T(a, dtype), upper=True).numpy()
            close(up, np.swapaxes(np.linalg.cholesky(a), -1, -2), dtype, 10)
            b = rand([3, 4, 2], 12)
            for upper, f in ((False, low), (True, up)):
                got = paddle.linalg.cholesky_solve(T(b, dtype), T(f, dtype), upper=upper)
                close(got.numpy(), np.linalg.solve(a, b), dtype, 50)

    def test_lu_and_unpack(self):
        for dtype in DTYPES:
            for shape in ([4, 4], [2, 5, 3], [3, 2, 4]):
                a = rand(shape, 13)
                lu, piv, info = paddle.linalg.lu(T(a, dtype), get_infos=True)
                self.assertEqual(piv.dtype, paddle.int32)
                self.assertEqual(piv.shape, list(shape[:-2]) + [min(shape[-2:])])
                self.assertTrue((info.numpy() == 0).all())
                p, l, u = paddle.linalg.lu_unpack(lu, piv)
                close((p.numpy() @ l.numpy() @ u.numpy()), a, dtype, 10)
                ref_lu, ref_piv = torch.linalg.lu_factor(torch.tensor(a))
                close(lu.numpy(), ref_lu.numpy(), dtype, 10)
                np.testing.assert_array_equal(piv.numpy(), ref_piv.numpy())
        self.assertEqual(len(paddle.linalg.lu(T(rand([3, 3], 0)))), 2)
        lu, piv, info = paddle.linalg.lu(T(np.zeros([2, 2])), get_infos=True)
        self.assertEqual(int(info), 1)  # U[0][0] is zero: LAPACK's info, not an error

    def test_qr(self):
        for dtype in DTYPES:
            for shape in ([5, 3], [2, 3, 5], [4, 4]):
                a = rand(shape, 14)
                q, r = paddle.linalg.qr(T(a, dtype))
                nq, nr = np.linalg.qr(a)
                close(q.numpy(), nq, dtype, 10)
                close(r.numpy(), nr, dtype, 10)
                qc, rc = paddle.linalg.qr(T(a, dtype), mode="complete")
                nqc, nrc = np.linalg.qr(a, mode="complete")
                close(qc.numpy(), nqc, dtype, 10)
                close(rc.numpy(), nrc, dtype, 10)
                close(paddle.linalg.qr(T(a, dtype), mode="r").numpy(), nr, dtype, 10)

    def test_svd(self):
        for dtype in DTYPES:
            for shape in ([5, 3], [2, 3, 5], [4, 4]):
                a = rand(shape, 15)
                u, s, vh = paddle.linalg.svd(T(a, dtype))
                close(s.numpy(), np.linalg.svd(a, compute_uv=False), dtype, 10)
                close(u.numpy() @ (s.numpy()[..., None] * vh.numpy()), a, dtype, 10)
                uf, sf, vhf = paddle.linalg.svd(T(a, dtype), full_matrices=True)
                m, n = shape[-2:]
                self.assertEqual(uf.shape[-2:], [m, m])
                self.assertEqual(vhf.shape[-2:], [n, n])
                eye = np.eye(m)
                close(uf.numpy() @ np.swapaxes(uf.numpy(), -1, -2), np.broadcast_to(eye, uf.shape),
                      dtype, 10)
                close(paddle.linalg.svdvals(T(a, dtype)).numpy(), s.numpy(), dtype)

    def test_eigh_eigvalsh(self):
        a = sym([2, 5, 5], 16)
        for dtype in DTYPES:
            for uplo in ("L", "U"):
                lower_only = np.tril(a) if uplo == "L" else np.triu(a)  # the other triangle unused
                w, v = paddle.linalg.eigh(T(a, dtype), UPLO=uplo)
                close(w.numpy(), np.linalg.eigvalsh(a), dtype, 10)
                vv = v.numpy()
                close(vv @ (w.numpy()[..., None] * np.swapaxes(vv, -1, -2)), a, dtype, 10)
                garbage = lower_only + (np.triu(rand([5, 5], 17), 1) if uplo == "L"
                                        else np.tril(rand([5, 5], 17), -1))
                close(paddle.linalg.eigvalsh(T(garbage, dtype), UPLO=uplo).numpy(),
                      np.linalg.eigvalsh(a, UPLO=uplo), dtype, 10)

    def test_lstsq(self):
        for dtype in DTYPES:
            x, y = rand([2, 6, 3], 18), rand([2, 6, 2], 19)
            want = np.stack([np.linalg.lstsq(x[i], y[i], rcond=None)[0] for i in range(2)])
            for driver in ("gels", "gelsy", "gelsd", "gelss"):
                sol, res, rank, sv = paddle.linalg.lstsq(T(x, dtype), T(y, dtype), driver=driver)
                close(sol.numpy(), want, dtype, 20)
                close(res.numpy(), ((x @ want - y) ** 2).sum(-2), dtype, 50)
                if driver == "gels":
                    self.assertEqual(rank.shape, [0])
                else:
                    np.testing.assert_array_equal(rank.numpy(), [3, 3])
                if driver in ("gelsd", "gelss"):
                    close(sv.numpy(), np.linalg.svd(x, compute_uv=False), dtype, 10)
                else:
                    self.assertEqual(sv.shape, [0])
            wide_x, wide_y = rand([3, 5], 20), rand([3, 2], 21)  # minimum-norm solution
            sol = paddle.linalg.lstsq(T(wide_x, dtype), T(wide_y, dtype))[0]
            close(sol.numpy(), np.linalg.lstsq(wide_x, wide_y, rcond=None)[0], dtype, 20)
            deficient = np.outer(np.arange(1, 5), [1.0, 2.0, 3.0])  # rank 1
            rank = paddle.linalg.lstsq(T(deficient, dtype), T(rand([4, 1], 22), dtype))[2]
            self.assertEqual(int(rank), 1)

    def test_pinv_matrix_power_rank_cond(self):
        for dtype in DTYPES:
            a = rand([2, 4, 3], 23)
            close(paddle.linalg.pinv(T(a, dtype)).numpy(), np.linalg.pinv(a), dtype, 50)
            s = sym([4, 4], 24)
            close(paddle.linalg.pinv(T(s, dtype), hermitian=True).numpy(),
                  np.linalg.pinv(s, hermitian=True), dtype, 50)
            m = rand([2, 3, 3], 25, 1.5)
            for n in (0, 1, 2, 5, -1, -3):
                close(paddle.linalg.matrix_power(T(m, dtype), n).numpy(),
                      np.linalg.matrix_power(m, n), dtype, 100)
            low = rand([3, 5, 2], 26) @ rand([3, 2, 4], 27)  # rank 2
            np.testing.assert_array_equal(paddle.linalg.matrix_rank(T(low, dtype)).numpy(),
                                          np.linalg.matrix_rank(low))
            self.assertEqual(paddle.linalg.matrix_rank(T(low, dtype)).dtype, paddle.int32)
            np.testing.assert_array_equal(
                paddle.linalg.matrix_rank(T(low, dtype), tol=1e-3).numpy(), [2, 2, 2])
            np.testing.assert_array_equal(
                paddle.linalg.matrix_rank(T(np.eye(4), dtype), atol=0.5, rtol=0.1).numpy(), 4)
            np.testing.assert_array_equal(
                paddle.linalg.matrix_rank(T(spd([4, 4], 1), dtype), hermitian=True).numpy(), 4)
            c = rand([2, 4, 4], 28, 1.0)
            for p in (None, 2, -2, "fro", "nuc", 1, -1, np.inf, -np.inf):
                close(paddle.linalg.cond(T(c, dtype), p).numpy(), np.linalg.cond(c, p), dtype, 100)

    def test_empty_matrices(self):
        e = T(np.zeros([2, 3, 0]))
        self.assertEqual(paddle.linalg.pinv(e).shape, [2, 0, 3])
        np.testing.assert_array_equal(paddle.linalg.matrix_rank(e).numpy(), [0, 0])
        self.assertEqual(paddle.linalg.inv(T(np.zeros([0, 2, 2]))).shape, [0, 2, 2])
        np.testing.assert_array_equal(paddle.linalg.det(T(np.zeros([2, 0, 0]))).numpy(), [1, 1])
        u, s, vh = paddle.linalg.svd(T(np.zeros([3, 0])))
        self.assertEqual([u.shape, s.shape, vh.shape], [[3, 0], [0], [0, 0]])

    def test_cov_corrcoef(self):
        for dtype in DTYPES:
            x = rand([3, 6], 29)
            close(paddle.linalg.cov(T(x, dtype)).numpy(), np.cov(x), dtype, 10)
            close(paddle.linalg.cov(T(x, dtype), rowvar=False).numpy(), np.cov(x, rowvar=False),
                  dtype, 10)
            close(paddle.linalg.cov(T(x, dtype), ddof=False).numpy(), np.cov(x, ddof=0), dtype, 10)
            fw = np.array([1, 2, 1, 3, 1, 1])
            aw = np.random.default_rng(30).uniform(0.5, 2, 6)
            got = paddle.linalg.cov(T(x, dtype), fweights=paddle.to_tensor(fw),
                                    aweights=T(aw, dtype))
            close(got.numpy(), np.cov(x, fweights=fw, aweights=aw), dtype, 10)
            close(paddle.linalg.cov(T(x[0], dtype)).numpy(), np.cov(x[0]), dtype, 10)
            close(paddle.linalg.corrcoef(T(x, dtype)).numpy(), np.corrcoef(x), dtype, 10)
            close(paddle.linalg.corrcoef(T(x, dtype), rowvar=False).numpy(),
                  np.corrcoef(x, rowvar=False), dtype, 10)

    def test_norms(self):
        x = rand([2, 3, 4], 32)
        for dtype in DTYPES:
            for p in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
                for axis in ([-2, -1], [0, 2], (1, 0)):
                    for keepdim in (False, True):
                        got = paddle.linalg.matrix_norm(T(x, dtype), p, axis, keepdim)
                        want = np.linalg.norm(x, p, tuple(axis), keepdim)
                        close(got.numpy(), want, dtype, 10)
                        got = paddle.linalg.norm(T(x, dtype), p, list(axis), keepdim)
                        close(got.numpy(), want, dtype, 10)
            close(paddle.linalg.norm(T(x, dtype)).numpy(), np.linalg.norm(x.ravel()), dtype)
            close(paddle.linalg.norm(T(x, dtype), np.inf).numpy(), np.abs(x).max(), dtype)
            close(paddle.linalg.norm(T(x, dtype), 3, axis=1).numpy(),
                  np.linalg.norm(x, 3, axis=1), dtype)
        with self.assertRaisesRegex(ValueError, r"^\(InvalidArgument\) matrix_norm.*'p'"):
            paddle.linalg.norm(T(x), 3, [0, 1])

    def test_methods(self):
        a = T(spd([3, 3], 31))
        close(a.inverse().numpy(), np.linalg.inv(a.numpy()))
        close(a.det().numpy(), np.linalg.det(a.numpy()), scale=100)
        close(a.cholesky().numpy(), np.linalg.cholesky(a.numpy()))
        close(a.matrix_power(2).numpy(), a.numpy() @ a.numpy())


def backward(loss, *tensors):
    loss.backward()
    return [t.grad.numpy() for t in tensors]


class LinalgGradTest(unittest.TestCase):
    """Gradients against torch.autograd (float64)."""

    def check(self, skiff_fn, torch_fn, *arrays, scale=1.0):
        xs = [T(a, grad=True) for a in arrays]
        ts = [tt(a) for a in arrays]
        got = backward(skiff_fn(*xs), *xs)
        torch_fn(*ts).backward()
        for g, t in zip(got, ts):
            close(g, t.grad.numpy(), scale=scale * 1e3)

    def test_inv_det_slogdet(self):
        a = rand([2, 3, 3], 40, 2.0)
        a[1] = -a[1]
        w = rand([2, 3, 3], 41)
        self.check(lambda x: (paddle.linalg.inv(x) * T(w)).sum(),
                   lambda x: (torch.linalg.inv(x) * torch.tensor(w)).sum(), a)
        self.check(lambda x: (paddle.linalg.det(x) * T([1.0, -2.0])).sum(),
                   lambda x: (torch.linalg.det(x) * torch.tensor([1.0, -2.0])).sum(), a)
        self.check(lambda x: (paddle.linalg.slogdet(x) * T([[0.0, 0.0], [1.0, 3.0]])).sum(),
                   lambda x: (torch.linalg.slogdet(x)[1] * torch.tensor([1.0, 3.0])).sum(), a)

    def test_solve(self):
        a, b, w = rand([2, 3, 3], 42, 2.0), rand([3, 2], 43), rand([2, 3, 2], 44)
        self.check(lambda x, y: (paddle.linalg.solve(x, y) * T(w)).sum(),
                   lambda x, y: (torch.linalg.solve(x, y) * torch.tensor(w)).sum(), a, b)
        v, wv = rand([3], 45), rand([2, 3], 46)
        self.check(lambda x, y: (paddle.linalg.solve(x, y) * T(wv)).sum(),
                   lambda x, y: (torch.linalg.solve(x, y) * torch.tensor(wv)).sum(), a, v)
        r, wr = rand([2, 4, 3], 47), rand([2, 4, 3], 48)
        self.check(lambda x, y: (paddle.linalg.solve(x, y, left=False) * T(wr)).sum(),
                   lambda x, y: (torch.linalg.solve(x, y, left=False) * torch.tensor(wr)).sum(),
                   a, r)

    def test_triangular_solve(self):
        a, b, w = rand([2, 3, 3], 49, 2.0), rand([2, 3, 4], 50), rand([2, 3, 4], 51)
        for upper in (True, False):
            for transpose in (False, True):
                for unit in (False, True):
                    def ours(x, y):
                        return (paddle.linalg.triangular_solve(x, y, upper, transpose, unit)
                                * T(w)).sum()

                    def ref(x, y):
                        tri = x.triu() if upper else x.tril()
                        if unit:
                            tri = tri - torch.diag_embed(torch.diagonal(tri, 0, -2, -1)) + \
                                torch.eye(3, dtype=torch.float64)
                        op = tri.transpose(-1, -2) if transpose else tri
                        return (torch.linalg.solve(op, y) * torch.tensor(w)).sum()
                    self.check(ours, ref, a, b)

    def test_cholesky(self):
        b, w = rand([2, 4, 4], 52), np.tril(rand([2, 4, 4], 53))
        for upper in (False, True):
            def ours(x):
                a = paddle.matmul(x, x, transpose_y=True) + T(4 * np.eye(4))
                return (paddle.linalg.cholesky(a, upper) * T(w)).sum()

            def ref(x):
                a = x @ x.transpose(-1, -2) + 4 * torch.eye(4, dtype=torch.float64)
                c = torch.linalg.cholesky(a, upper=upper)
                return (c * torch.tensor(w)).sum()
            self.check(ours, ref, b)
        # The rule's own gradient is symmetric, as torch's.
        a = T(spd([3, 3], 54), grad=True)
        (g,) = backward((paddle.linalg.cholesky(a) * T(np.tril(rand([3, 3], 55)))).sum(), a)
        close(g, g.T)

    def test_cholesky_solve(self):
        b, w = rand([2, 3, 2], 56), rand([2, 3, 2], 57)
        f = np.linalg.cholesky(spd([3, 3], 58))
        for upper, factor in ((False, f), (True, f.T.copy())):
            # Skiff's kernel reads only the factor's triangle, and its gradient is exactly that
            # function's: torch's reference is given only the triangle too.
            self.check(lambda x, y: (paddle.linalg.cholesky_solve(x, y, upper) * T(w)).sum(),
                       lambda x, y: (torch.cholesky_solve(x, y.triu() if upper else y.tril(),
                                                          upper=upper) * torch.tensor(w)).sum(),
                       b, factor + rand([3, 3], 59) * (np.tril(np.ones([3, 3]), -1) if upper
                                                       else np.triu(np.ones([3, 3]), 1)))

    def test_lu(self):
        for shape in ([4, 4], [2, 5, 3], [3, 5]):
            a, w = rand(shape, 59), rand(shape, 60)
            self.check(lambda x: (paddle.linalg.lu(x)[0] * T(w)).sum(),
                       lambda x: (torch.linalg.lu_factor(x)[0] * torch.tensor(w)).sum(), a)
            p = paddle.linalg.lu_unpack(*paddle.linalg.lu(T(a)))[0]
            self.check(lambda x: (paddle.linalg.lu_unpack(*paddle.linalg.lu(x))[1] *
                                  paddle.linalg.lu_unpack(*paddle.linalg.lu(x))[2].sum()).sum(),
                       lambda x: (torch.linalg.lu(x)[1] * torch.linalg.lu(x)[2].sum()).sum(), a)
            self.assertTrue(p.stop_gradient)

    def test_qr(self):
        for shape, mode in (([5, 3], "reduced"), ([4, 4], "complete"), ([2, 3, 5], "reduced"),
                            ([5, 3], "r")):
            a = rand(shape, 61)
            wq, wr = rand(shape[:-1] + [min(shape[-2:])], 62), rand(shape, 63)
            wr = wr[..., :min(shape[-2:]), :]

            def ours(x):
                out = paddle.linalg.qr(x, mode)
                if mode == "r":
                    return (out * T(wr)).sum()
                return (out[0] * T(wq)).sum() + (out[1] * T(wr)).sum()

            def ref(x):
                q, r = torch.linalg.qr(x, "reduced" if mode == "r" else mode)
                if mode == "r":
                    return (r * torch.tensor(wr)).sum()
                return (q * torch.tensor(wq)).sum() + (r * torch.tensor(wr)).sum()
            self.check(ours, ref, a)

    def test_svd(self):
        for shape in ([5, 3], [2, 3, 5], [4, 4]):
            a = rand(shape, 64)
            k = min(shape[-2:])
            ws, wuv = rand(shape[:-2] + [k], 65), rand(shape, 66)

            def ours(x):  # S and U V^T do not depend on the singular vectors' signs
                u, s, vh = paddle.linalg.svd(x)
                return (s * T(ws)).sum() + (paddle.matmul(u, vh) * T(wuv)).sum()

            def ref(x):
                u, s, vh = torch.linalg.svd(x, full_matrices=False)
                return (s * torch.tensor(ws)).sum() + ((u @ vh) * torch.tensor(wuv)).sum()
            self.check(ours, ref, a)

    def test_eigh_and_compositions(self):
        b = rand([2, 4, 4], 67)
        ww, wv = rand([2, 4], 68), rand([2, 4, 4], 69)

        def ours(x):  # symmetric input; V_ij^2 does not depend on the eigenvectors' signs
            w, v = paddle.linalg.eigh(x + paddle.transpose(x, [0, 2, 1]))
            return (w * T(ww)).sum() + (v * v * T(wv)).sum()

        def ref(x):
            w, v = torch.linalg.eigh(x + x.transpose(-1, -2))
            return (w * torch.tensor(ww)).sum() + (v * v * torch.tensor(wv)).sum()
        self.check(ours, ref, b)
        self.check(lambda x: (paddle.linalg.eigvalsh(x + paddle.transpose(x, [0, 2, 1])) *
                              T(ww)).sum(),
                   lambda x: (torch.linalg.eigvalsh(x + x.transpose(-1, -2)) *
                              torch.tensor(ww)).sum(), b)
        a, w = rand([2, 4, 3], 70), rand([2, 3, 4], 71)
        self.check(lambda x: (paddle.linalg.pinv(x) * T(w)).sum(),
                   lambda x: (torch.linalg.pinv(x) * torch.tensor(w)).sum(), a)
        m, wm = rand([3, 3], 72, 1.5), rand([3, 3], 73)
        for n in (3, -2):
            self.check(lambda x: (paddle.linalg.matrix_power(x, n) * T(wm)).sum(),
                       lambda x: (torch.linalg.matrix_power(x, n) * torch.tensor(wm)).sum(), m)

    def test_matrix_norms(self):
        x, w = rand([2, 3, 4], 75), rand([2], 76)
        for p in ("nuc", 2, -2):
            self.check(lambda a: (paddle.linalg.matrix_norm(a, p) * T(w)).sum(),
                       lambda a: (torch.linalg.matrix_norm(a, p) * torch.tensor(w)).sum(), x)

    def test_double_backward(self):
        a = T(rand([3, 3], 74, 2.0), grad=True)
        (g,) = paddle.grad(paddle.linalg.det(a), a, create_graph=True)
        (gg,) = paddle.grad(g.sum(), a)
        t = tt(a.numpy())
        (tg,) = torch.autograd.grad(torch.linalg.det(t), t, create_graph=True)
        (tgg,) = torch.autograd.grad(tg.sum(), t)
        close(gg.numpy(), tgg.numpy(), scale=1e3)


class LinalgBadInputTest(unittest.TestCase):
    def raises(self, pattern, fn, *args, **kwargs):
        with self.assertRaisesRegex(ValueError, r"^\(InvalidArgument\) " + pattern):
            fn(*args, **kwargs)

    def test_square_required(self):
        x = T(rand([3, 4], 0))
        for fn in (paddle.linalg.inv, paddle.linalg.det, paddle.linalg.slogdet,
                   paddle.linalg.cholesky, paddle.linalg.eigh):
            name = {"inv": "inverse"}.get(fn.__name__, fn.__name__)
            self.raises(name + r".*'x'.*square.*\[3, 4\]", fn, x)
        self.raises(r"solve.*'x'.*square", paddle.linalg.solve, x, T(rand([3, 1], 0)))
        self.raises(r"matrix_power.*'x'.*square", paddle.linalg.matrix_power, x, 2)
        self.raises(r"inverse.*'x'.*rank >= 2", paddle.linalg.inv, T(rand([3], 0)))

    def test_singular_and_not_positive_definite(self):
        singular = T(np.ones([2, 3, 3]))
        self.raises(r"inverse.*'x'.*non-singular.*singular matrix at batch entry 0",
                    paddle.linalg.inv, singular)
        self.raises(r"solve.*'x'.*non-singular.*singular", paddle.linalg.solve, singular,
                    T(np.ones([2, 3, 1])))
        self.raises(r"triangular_solve.*'x'.*non-singular.*zero on the diagonal",
                    paddle.linalg.triangular_solve, T(np.triu(np.ones([3, 3]), 1)),
                    T(np.ones([3, 1])))
        not_pd = np.stack([spd([3, 3], 1), -np.eye(3)])
        self.raises(r"cholesky.*'x'.*positive-definite.*order 1.*batch entry 1",
                    paddle.linalg.cholesky, T(not_pd))
        # a zero column: R's diagonal is exactly zero (np.ones leaves a rounding residue that
        # OpenBLAS's gels accepts)
        zero_col = np.stack([np.arange(1.0, 5.0), np.zeros(4)], 1)
        self.raises(r"lstsq.*'x'.*full-rank", paddle.linalg.lstsq, T(zero_col),
                    T(np.ones([4, 1])), driver="gels")

    def test_dtype_and_arguments(self):
        ints = paddle.to_tensor(np.eye(3, dtype=np.int64))
        for fn in (paddle.linalg.inv, paddle.linalg.det, paddle.linalg.cholesky,
                   paddle.linalg.svd, paddle.linalg.qr):
            self.raises(r".*'x'.*float32 or float64.*int64", fn, ints)
        a = T(rand([3, 3], 0, 2.0))
        self.raises(r"solve.*'y'.*float64", paddle.linalg.solve, a, T(rand([3, 1], 0), "float32"))
        self.raises(r"solve.*'y'.*3 rows", paddle.linalg.solve, a, T(rand([4, 1], 0)))
        self.raises(r"qr.*'mode'.*'full'", paddle.linalg.qr, a, mode="full")
        self.raises(r"eigh.*'UPLO'.*'X'", paddle.linalg.eigh, a, UPLO="X")
        self.raises(r"lu.*'pivot'", paddle.linalg.lu, a, pivot=False)
        self.raises(r"lstsq.*'driver'", paddle.linalg.lstsq, a, a, driver="magic")
        self.raises(r"cov.*'x'.*rank <= 2", paddle.linalg.cov, T(rand([2, 2, 2], 0)))
        self.raises(r"cond.*'p'", paddle.linalg.cond, a, p=3)
        self.raises(r"matrix_power.*'n'", paddle.linalg.matrix_power, a, 1.5)

    def test_gradient_limits(self):
        a = T(rand([4, 3], 0), grad=True)
        u, s, vh = paddle.linalg.svd(a, full_matrices=True)
        with self.assertRaisesRegex(NotImplementedError, r"^\(Unimplemented\) svd.*full_matrices"):
            (u.sum() + s.sum()).backward()


class LinalgSignatureTest(unittest.TestCase):
    SIGNATURES = {
        "inv": ["x", "name"], "det": ["x", "name"], "slogdet": ["x", "name"],
        "solve": ["x", "y", "left", "name"],
        "triangular_solve": ["x", "y", "upper", "transpose", "unitriangular", "name"],
        "cholesky": ["x", "upper", "name"], "cholesky_solve": ["x", "y", "upper", "name"],
        "lu": ["x", "pivot", "get_infos", "name"],
        "lu_unpack": ["x", "y", "unpack_ludata", "unpack_pivots", "name"],
        "qr": ["x", "mode", "name"], "svd": ["x", "full_matrices", "name"],
        "eigh": ["x", "UPLO", "name"], "eigvalsh": ["x", "UPLO", "name"],
        "pinv": ["x", "rcond", "hermitian", "name"],
        "lstsq": ["x", "y", "rcond", "driver", "name"], "matrix_power": ["x", "n", "name"],
        "matrix_rank": ["x", "tol", "hermitian", "atol", "rtol", "name"],
        "cond": ["x", "p", "name"],
        "cov": ["x", "rowvar", "ddof", "fweights", "aweights", "name"],
        "corrcoef": ["x", "rowvar", "name"],
    }

    def test_paddle_signatures(self):
        for name, params in self.SIGNATURES.items():
            fn = getattr(paddle.linalg, name)
            self.assertTrue(inspect.isfunction(fn), name)
            self.assertEqual(list(inspect.signature(fn).parameters), params, name)
        self.assertEqual(inspect.signature(paddle.linalg.pinv).parameters["rcond"].default, 1e-15)
        self.assertEqual(inspect.signature(paddle.linalg.qr).parameters["mode"].default, "reduced")
        self.assertIs(paddle.inverse, paddle.linalg.inv)


if __name__ == "__main__":
    unittest.main()
