"""paddle.static.WeightNormParamAttr as Paddle static-graph code uses it: create_parameter makes
the trainable parameters <name>_v and <name>_g (g starting at ||v_0||, over every axis but `dim`)
and returns the weight g * v / ||v||; an optimizer step updates v and g as torch's autograd of the
same formula says; dynamic mode and a bad dim raise with Paddle's error classes."""
import unittest

import numpy as np
import torch

import skiff as paddle
from skiff import static


def norm_except(v, dim):
    axes = tuple(a for a in range(v.ndim) if a != dim)
    return np.sqrt((v * v).sum(axis=axes, keepdims=True))


class TestWeightNormParamAttr(unittest.TestCase):
    def setUp(self):
        paddle.enable_static()

    def tearDown(self):
        paddle.disable_static()

    def build_and_step(self, dim, shape=(3, 4)):
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [2, shape[0]], "float32")
            w = paddle.create_parameter(list(shape), "float32",
                                        attr=static.WeightNormParamAttr(dim=dim, name="fc_w"))
            loss = paddle.matmul(x, w).square().sum()
            paddle.optimizer.SGD(0.1).minimize(loss)
        params = {p.name: p for p in main.all_parameters()}
        self.assertEqual(sorted(params), ["fc_w_g", "fc_w_v"])
        exe = static.Executor()
        exe.run(startup)
        v0, g0 = params["fc_w_v"].numpy().copy(), params["fc_w_g"].numpy().copy()
        xs = np.random.default_rng(0).uniform(-1, 1, [2, shape[0]]).astype("float32")
        (w_run,) = exe.run(main, feed={"x": xs}, fetch_list=[w])
        return v0, g0, xs, w_run, params["fc_w_v"].numpy(), params["fc_w_g"].numpy()

    def test_init_forward_and_step_against_torch(self):
        for dim in (None, 0, 1, -1):
            with self.subTest(dim=dim):
                v0, g0, xs, w_run, v1, g1 = self.build_and_step(dim)
                d = None if dim is None else dim % 2
                want_g_shape = [1, 1] if d is None else [3 if d == 0 else 1, 4 if d == 1 else 1]
                self.assertEqual(list(g0.shape), want_g_shape)
                np.testing.assert_allclose(g0, norm_except(v0, d), rtol=1e-6)
                np.testing.assert_allclose(w_run, v0, rtol=1e-5, atol=1e-6)  # g0 = ||v0||
                tv = torch.tensor(v0, dtype=torch.float64, requires_grad=True)
                tg = torch.tensor(g0, dtype=torch.float64, requires_grad=True)
                axes = [a for a in range(2) if a != d]
                tw = tg * tv / tv.square().sum(dim=axes, keepdim=True).sqrt()
                (torch.tensor(xs, dtype=torch.float64) @ tw).square().sum().backward()
                np.testing.assert_allclose(v1, (tv - 0.1 * tv.grad).detach().numpy(),
                                           rtol=1e-4, atol=1e-5)
                np.testing.assert_allclose(g1, (tg - 0.1 * tg.grad).detach().numpy(),
                                           rtol=1e-4, atol=1e-5)

    def test_bad_dim(self):
        for dim in (2, -3, 1.0, True):
            with self.subTest(dim=dim):
                with static.program_guard(static.Program(), static.Program()):
                    with self.assertRaises(ValueError) as cm:
                        paddle.create_parameter([3, 4], "float32",
                                                attr=static.WeightNormParamAttr(dim=dim))
                self.assertEqual(str(cm.exception),
                                 "(InvalidArgument) WeightNormParamAttr: argument 'dim' expected "
                                 f"None or an int in [-2, 2), got {dim!r}")

    def test_dynamic_mode_refuses(self):
        paddle.disable_static()
        with self.assertRaises(NotImplementedError) as cm:
            paddle.create_parameter([3], "float32", attr=static.WeightNormParamAttr(dim=0))
        self.assertIn("(Unimplemented) WeightNormParamAttr: works in static graph mode only",
                      str(cm.exception))
        self.assertIs(paddle.static.WeightNormParamAttr, paddle.nn.param_attr.WeightNormParamAttr)


if __name__ == "__main__":
    unittest.main()
