"""paddle.autograd forward-mode AD (dual_level, enter/exit_dual_level, make_dual, unpack_dual):
tangents equal torch.autograd.forward_ad's, levels behave as Paddle's, bad input raises."""
import inspect

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as tfwd

import skiff as paddle
from skiff.autograd import dual_level, enter_dual_level, exit_dual_level, make_dual, unpack_dual


def _t(x):
    return torch.tensor(x.numpy())


def test_names_and_signatures():
    for f in (enter_dual_level, exit_dual_level, make_dual, unpack_dual):
        assert inspect.isfunction(f)
    assert list(inspect.signature(exit_dual_level).parameters) == ["level"]
    sig = inspect.signature(make_dual)
    assert list(sig.parameters) == ["tensor", "tangent", "level"]
    assert sig.parameters["level"].kind is inspect.Parameter.KEYWORD_ONLY
    assert list(inspect.signature(unpack_dual).parameters) == ["tensor", "level"]
    assert isinstance(dual_level, type)
    for name in ("dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"):
        assert getattr(paddle.autograd, name) is globals()[name]


CASES = [
    ("tanh_matmul", lambda m, x, w: m.tanh(m.matmul(w, x)) * x),
    ("softmax_log", lambda m, x, w: m.log(m.nn.functional.softmax(x, -1) + 1.0) if m is paddle
     else torch.log(torch.softmax(x, -1) + 1.0)),
    ("pow_exp_sum", lambda m, x, w: (m.exp(x) * x ** 3).sum() + (w * w).mean()),
    ("broadcast", lambda m, x, w: x.reshape([1, -1]) * w if m is paddle
     else x.reshape(1, -1) * w),
]


@pytest.mark.parametrize("name,f", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_jvp_equals_torch_forward_ad(name, f, dtype):
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal(4).astype(dtype))
    v = paddle.to_tensor(rng.standard_normal(4).astype(dtype))
    w = paddle.to_tensor(rng.standard_normal([4, 4]).astype(dtype))
    with dual_level():
        out = f(paddle, make_dual(x, v), w)
        primal, tangent = unpack_dual(out)
    with tfwd.dual_level():
        tout = f(torch, tfwd.make_dual(_t(x), _t(v)), _t(w))
        tprimal, ttangent = tfwd.unpack_dual(tout)
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(primal.numpy(), tprimal.detach().numpy(), rtol=tol, atol=tol)
    np.testing.assert_allclose(tangent.numpy(), ttangent.numpy(), rtol=tol * 10, atol=tol * 10)


def test_two_duals_and_a_constant_input():
    x, y, c = paddle.randn([3]), paddle.randn([3]), paddle.randn([3])
    vx, vy = paddle.randn([3]), paddle.randn([3])
    with dual_level():
        dx, dy = make_dual(x, vx), make_dual(y, vy)
        out = dx * dy + paddle.sin(c)
        _, t = unpack_dual(out)
        # the tangent of the product rule: vx * y + x * vy
        np.testing.assert_allclose(t.numpy(), (vx * y + x * vy).numpy(), rtol=1e-5, atol=1e-6)
        assert unpack_dual(paddle.sin(c)).tangent is None  # depends on no dual
        assert unpack_dual(dx).tangent is vx               # the tangent as given
        assert unpack_dual(out).tangent is t               # computed once
        _, t_sign = unpack_dual(paddle.sign(dx))
        np.testing.assert_array_equal(t_sign.numpy(), np.zeros(3, np.float32))


def test_dual_shares_memory_and_backward_reaches_the_primal():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    with dual_level():
        d = make_dual(x, paddle.ones([3]))
        assert d.data_ptr() == x.data_ptr()
        y = (d * d).sum()
        _, t = unpack_dual(y)
        np.testing.assert_allclose(float(t), 2.0 * (1 + 2 + 3))
        y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_levels_nest_and_exit_forgets_tangents():
    x, v = paddle.randn([2]), paddle.randn([2])
    assert unpack_dual(x) == (x, None)  # outside every level
    level = enter_dual_level()
    assert level == 0
    d = make_dual(x, v)
    out = d * 2.0
    inner = enter_dual_level()
    assert inner == 1
    # the inner level knows no duals; the outer one is reachable by level=
    assert unpack_dual(out).tangent is None
    np.testing.assert_allclose(unpack_dual(out, level=0).tangent.numpy(), (v * 2.0).numpy())
    exit_dual_level(inner)
    exit_dual_level()
    primal, tangent = unpack_dual(out)
    assert tangent is None and primal is out

    @dual_level()
    def decorated():
        return unpack_dual(make_dual(x, v) * 3.0).tangent

    np.testing.assert_allclose(decorated().numpy(), (v * 3.0).numpy(), rtol=1e-6)
    assert unpack_dual(x)[1] is None


def test_bad_input():
    x = paddle.randn([2])
    with pytest.raises(RuntimeError, match="no level exists, make sure to enter_dual_level"):
        make_dual(x, x)
    with pytest.raises(RuntimeError, match="not the last one"):
        exit_dual_level()
    with dual_level() as level:
        with pytest.raises(RuntimeError, match="not the last one"):
            exit_dual_level(level + 1)
        with pytest.raises(ValueError, match=r"\(InvalidArgument\) make_dual: argument 'tangent' "
                                             r"expected shape \[2\]"):
            make_dual(x, paddle.randn([3]))
        with pytest.raises(ValueError, match=r"\(InvalidArgument\) make_dual: argument 'tangent'"):
            make_dual(x, paddle.randn([2]).astype("float64"))
        with pytest.raises(TypeError, match=r"\(InvalidType\) make_dual: argument 'tensor' "
                                            r"expected a Tensor, got list"):
            make_dual([1.0], x)
        with pytest.raises(TypeError, match=r"\(InvalidType\) make_dual: argument 'tensor' "
                                            r"expected a floating point Tensor, got int64"):
            make_dual(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2]))
        with pytest.raises(RuntimeError, match=r"\(PreconditionNotMet\) unpack_dual: level 5"):
            unpack_dual(x, level=5)
        with pytest.raises(TypeError, match=r"\(InvalidType\) unpack_dual: argument 'tensor'"):
            unpack_dual(np.zeros(2))
