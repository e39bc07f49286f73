"""paddle.fft against numpy.fft: every transform at odd, prime and even sizes (1, 7, 63, 257,
1000), batched, along any axis, with every norm, n/s cropping and padding; gradients against
torch.fft (real losses, so torch's conjugate-Wirtinger gradients are the reference); bad input
raises Paddle's errors (ValueError with the (InvalidArgument) class, TypeError for complex input
to the real-input transforms); signatures are Paddle 3.0's."""
import inspect
import unittest

import numpy as np
import torch

import skiff as paddle

NORMS = ("backward", "ortho", "forward")
SIZES = (1, 7, 63, 257, 1000)
TOL = {"complex64": 1e-4, "float32": 1e-4, "complex128": 1e-10, "float64": 1e-10}


def rand(shape, dtype="float64", seed=0):
    r = np.random.default_rng(seed)
    a = r.uniform(-1, 1, shape)
    if dtype.startswith("complex"):
        a = a + 1j * r.uniform(-1, 1, shape)
    return a.astype(dtype)


def close(got, want, dtype, scale=1.0):
    got = np.asarray(got)
    scale = scale * max(1.0, float(np.abs(want).max()) if np.size(want) else 1.0)
    np.testing.assert_allclose(got, want, rtol=TOL[dtype], atol=TOL[dtype] * scale)


ONE_D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
REAL_INPUT = ("rfft", "ihfft", "rfft2", "ihfft2", "rfftn", "ihfftn")


class TestForward(unittest.TestCase):
    def test_one_d_sizes(self):
        for n in SIZES:
            for dt in ("complex128", "complex64", "float64", "float32"):
                a = rand([3, n], dt, n)
                x = paddle.to_tensor(a)
                for name in ONE_D:
                    if name in REAL_INPUT and dt.startswith("complex"):
                        continue
                    if name in ("irfft", "hfft") and n == 1:
                        continue  # needs n: 2 * (1 - 1) = 0 output points
                    for norm in NORMS:
                        want = getattr(np.fft, name)(a, norm=norm)
                        got = getattr(paddle.fft, name)(x, norm=norm)
                        out_dt = str(want.dtype) if dt in ("complex128", "float64") else (
                            "complex64" if want.dtype.kind == "c" else "float32")
                        self.assertEqual(got.dtype.name, out_dt, (name, n, dt))
                        close(got, want, dt, 10)

    def test_n_axis_batched(self):
        a = rand([4, 7, 5], "complex128", 1)
        x = paddle.to_tensor(a)
        r = rand([4, 7, 5], "float64", 2)
        xr = paddle.to_tensor(r)
        for axis in (0, 1, 2, -1, -2):
            for n in (None, 3, 7, 12):
                for name in ONE_D:
                    src, t = (r, xr) if name in REAL_INPUT else (a, x)
                    want = getattr(np.fft, name)(src, n=n, axis=axis)
                    close(getattr(paddle.fft, name)(t, n=n, axis=axis), want, "complex128", 10)

    def test_integer_input(self):
        i = np.arange(6).reshape(2, 3)
        got = paddle.fft.fft(paddle.to_tensor(i))
        self.assertEqual(got.dtype, paddle.complex64)
        close(got, np.fft.fft(i), "complex64")
        close(paddle.fft.rfft(paddle.to_tensor(i)), np.fft.rfft(i), "complex64")

    def test_n_d(self):
        a = rand([3, 6, 5, 4], "complex128", 3)
        r = rand([3, 6, 5, 4], "float64", 4)
        x, xr = paddle.to_tensor(a), paddle.to_tensor(r)
        cases = [(None, None), ([4, 3], None), (None, [0, 2]), ([5, 7], [2, 0]), (None, [-1, 1]),
                 ([3, 6, 2], [1, 2, 3])]
        for s, axes in cases:
            for norm in NORMS:
                for name in ("fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"):
                    src, t = (r, xr) if name in REAL_INPUT else (a, x)
                    if name == "hfftn":  # numpy has no hfftn/ihfftn
                        want = self.hfftn_ref(src, s, axes, norm)
                    elif name == "ihfftn":
                        want = self.ihfftn_ref(src, s, axes, norm)
                    else:
                        want = getattr(np.fft, name)(src, s=s, axes=axes, norm=norm)
                    got = getattr(paddle.fft, name)(t, s=s, axes=axes, norm=norm)
                    close(got, want, "complex128", 10)
        for name in ("fft2", "ifft2", "rfft2", "irfft2"):
            src, t = (r, xr) if name in REAL_INPUT else (a, x)
            close(getattr(paddle.fft, name)(t), getattr(np.fft, name)(src), "complex128", 10)
            close(getattr(paddle.fft, name)(t, s=[4, 4], axes=[0, 1]),
                  getattr(np.fft, name)(src, s=[4, 4], axes=[0, 1]), "complex128", 10)
        close(paddle.fft.hfft2(x), self.hfftn_ref(a, None, (-2, -1), "backward"), "complex128",
              10)
        close(paddle.fft.ihfft2(xr), self.ihfftn_ref(r, None, (-2, -1), "backward"),
              "complex128", 10)

    @staticmethod
    def _flip(norm):
        return {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]

    def hfftn_ref(self, a, s, axes, norm):
        # hfftn(x) = irfftn(conj(x)) with the opposite normalization
        return np.fft.irfftn(np.conj(a), s=s, axes=axes, norm=self._flip(norm))

    def ihfftn_ref(self, a, s, axes, norm):
        return np.conj(np.fft.rfftn(a, s=s, axes=axes, norm=self._flip(norm)))

    def test_freq_and_shift(self):
        for n in (1, 4, 5, 8):
            for d in (1.0, 0.3):
                close(paddle.fft.fftfreq(n, d), np.fft.fftfreq(n, d), "float32")
                close(paddle.fft.rfftfreq(n, d), np.fft.rfftfreq(n, d), "float32")
        self.assertEqual(paddle.fft.fftfreq(4).dtype, paddle.float32)
        self.assertEqual(paddle.fft.fftfreq(4, dtype="float64").dtype, paddle.float64)
        a = rand([4, 5, 3], "complex128")
        x = paddle.to_tensor(a)
        for axes in (None, 1, [0, 2], (-1,)):
            close(paddle.fft.fftshift(x, axes), np.fft.fftshift(a, axes), "complex128")
            close(paddle.fft.ifftshift(x, axes), np.fft.ifftshift(a, axes), "complex128")
        f = paddle.fft.fftfreq(5, d=0.3)
        close(paddle.fft.fftshift(f), np.fft.fftshift(np.fft.fftfreq(5, 0.3)), "float32")

    def test_round_trips(self):
        r = rand([2, 9], "float32")
        x = paddle.to_tensor(r)
        close(paddle.fft.irfft(paddle.fft.rfft(x), n=9), r, "float32")
        close(paddle.fft.ifft(paddle.fft.fft(x)).real(), r, "float32")
        close(paddle.fft.ihfft(paddle.fft.hfft(paddle.fft.ihfft(x), n=9)),
              np.fft.ihfft(r), "complex64")


class TestGradients(unittest.TestCase):
    """Gradients of real losses through each transform, against torch.fft."""

    def check(self, name, a, w, **kw):
        torch_fn = getattr(torch.fft, name)
        tkw = dict(kw)
        if "axes" in tkw:
            tkw["dim"] = tkw.pop("axes")
        if "axis" in tkw:
            tkw["dim"] = tkw.pop("axis")
        t = torch.tensor(a, requires_grad=True)
        out = torch_fn(t, **tkw)
        if out.is_complex():
            (out * torch.tensor(w)).real.sum().backward()
        else:
            (out * torch.tensor(w.real)).sum().backward()
        x = paddle.to_tensor(a, stop_gradient=False)
        got = getattr(paddle.fft, name)(x, **kw)
        wt = paddle.to_tensor(w if got.dtype.name.startswith("complex") else w.real)
        loss = paddle.real(got * wt).sum() if paddle.is_complex(got) else (got * wt).sum()
        loss.backward()
        np.testing.assert_allclose(x.grad.numpy(), t.grad.resolve_conj().numpy(), rtol=1e-9,
                                   atol=1e-9, err_msg=f"{name} {kw}")

    def test_one_d(self):
        for n in (1, 7, 8, 63):
            c, r = rand([3, n], "complex128", n), rand([3, n], "float64", n + 1)
            for norm in NORMS:
                for name in ONE_D:
                    src = r if name in REAL_INPUT else c
                    for m in (None, n + 3, max(1, n - 2)):
                        if name in ("irfft", "hfft") and m is None and n == 1:
                            continue
                        shape = np.asarray(getattr(np.fft, name)(src, n=m, norm=norm)).shape
                        w = rand(shape, "complex128", 9)
                        self.check(name, src, w, n=m, norm=norm)

    def test_along_axis_and_n_d(self):
        c, r = rand([4, 5, 6], "complex128", 1), rand([4, 5, 6], "float64", 2)
        for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
            src = r if name in REAL_INPUT else c
            shape = getattr(np.fft, name)(src, axis=1).shape
            self.check(name, src, rand(shape, "complex128", 3), axis=1)
        for name in ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2",
                     "hfftn", "ihfftn", "hfft2", "ihfft2"):
            src = r if name in REAL_INPUT else c
            for s, axes in ((None, None), ([3, 7], [0, 2])):
                if name.endswith("2") and axes is None:
                    kw = {}
                elif s is None:
                    kw = {"axes": [0, 1, 2]} if not name.endswith("2") else {}
                else:
                    kw = {"s": s, "axes": axes}
                with torch.no_grad():
                    tkw = {("dim" if k == "axes" else k): v for k, v in kw.items()}
                    shape = getattr(torch.fft, name)(torch.tensor(src), **tkw).shape
                self.check(name, src, rand(tuple(shape), "complex128", 4), **kw)


class TestErrors(unittest.TestCase):
    def test_bad_arguments(self):
        x = paddle.to_tensor(rand([3, 4], "complex64"))
        r = paddle.to_tensor(rand([3, 4], "float32"))
        cases = [
            (lambda: paddle.fft.fft(x, n=0),
             "Invalid FFT argument n(0), it should be positive"),
            (lambda: paddle.fft.fft(x, n=-2), "it should be positive"),
            (lambda: paddle.fft.fft(x, n=2.5), "it should be an integer"),
            (lambda: paddle.fft.fft(x, axis=2),
             "Invalid FFT axis (2), it should be in range [-2, 2)"),
            (lambda: paddle.fft.ifft(x, axis=-3), "Invalid FFT axis (-3)"),
            (lambda: paddle.fft.fft(x, norm="abc"), "Unexpected norm: abc"),
            (lambda: paddle.fft.fftn(x, norm="abc"), "Unexpected norm: abc"),
            (lambda: paddle.fft.fftn(x, axes=[0, 5]),
             "FFT axes [0, 5] contains invalid value (5)"),
            (lambda: paddle.fft.fftn(x, axes=[0, 0]), "repeated axis"),
            (lambda: paddle.fft.fftn(x, s=[2, 2, 2]),
             "Length of FFT argument s should not be larger"),
            (lambda: paddle.fft.fftn(x, s=[0, 2]), "contains invalid value (0)"),
            (lambda: paddle.fft.fftn(x, s=[2], axes=[0, 1]), "does not match"),
            (lambda: paddle.fft.fft2(paddle.to_tensor([1j])),
             "The rank of the input (1) should >= 2"),
            (lambda: paddle.fft.fft2(x, s=[2]), "it should be a sequence of 2 integers"),
            (lambda: paddle.fft.irfft(paddle.to_tensor([1j])),
             "Invalid number of FFT data points"),
            (lambda: paddle.fft.fftfreq(0), "d or n should not be 0."),
            (lambda: paddle.fft.rfftfreq(4, d=0), "d or n should not be 0."),
        ]
        for fn, text in cases:
            with self.assertRaises(ValueError) as cm:
                fn()
            msg = str(cm.exception)
            self.assertTrue(msg.startswith("(InvalidArgument) "), msg)
            self.assertIn(text, msg)
        for name in REAL_INPUT:
            with self.assertRaises(TypeError) as cm:
                getattr(paddle.fft, name)(x)
            msg = str(cm.exception)
            self.assertTrue(msg.startswith(f"(InvalidType) {name}: argument 'x' expected a real"),
                            msg)
            self.assertIn("complex64", msg)
        with self.assertRaises(TypeError):
            paddle.fft.fft(np.ones(3))
        with self.assertRaises(IndexError):
            paddle.fft.fftshift(r, axes=3)
        # the ops themselves check what the Python layer does not
        with self.assertRaises(ValueError) as cm:
            paddle._C.ops.fft_c2c(x, [0], "abc", True)
        self.assertIn("(InvalidArgument) fft_c2c: argument 'normalization'", str(cm.exception))
        with self.assertRaises(IndexError):
            paddle._C.ops.fft_c2c(x, [2], "backward", True)
        with self.assertRaises(TypeError):
            paddle._C.ops.fft_c2c(r, [0], "backward", True)
        with self.assertRaises(TypeError):
            paddle._C.ops.fft_r2c(x, [0], "backward", True, True)

    def test_signatures(self):
        one = ["x", "n", "axis", "norm", "name"]
        two = ["x", "s", "axes", "norm", "name"]
        for name in ONE_D:
            fn = getattr(paddle.fft, name)
            self.assertTrue(inspect.isfunction(fn))
            sig = inspect.signature(fn)
            self.assertEqual(list(sig.parameters), one)
            self.assertEqual(sig.parameters["axis"].default, -1)
            self.assertEqual(sig.parameters["norm"].default, "backward")
        for name in ("fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"):
            sig = inspect.signature(getattr(paddle.fft, name))
            self.assertEqual(list(sig.parameters), two)
            self.assertEqual(tuple(sig.parameters["axes"].default), (-2, -1))
        for name in ("fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"):
            sig = inspect.signature(getattr(paddle.fft, name))
            self.assertEqual(list(sig.parameters), two)
            self.assertIsNone(sig.parameters["axes"].default)
        self.assertEqual(list(inspect.signature(paddle.fft.fftfreq).parameters),
                         ["n", "d", "dtype", "name"])
        self.assertEqual(list(inspect.signature(paddle.fft.fftshift).parameters),
                         ["x", "axes", "name"])
        self.assertEqual(sorted(paddle.fft.__all__), sorted(
            ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
             "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq",
             "rfftfreq", "fftshift", "ifftshift"]))


if __name__ == "__main__":
    unittest.main()
