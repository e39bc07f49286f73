"""paddle.static.nn.cond / while_loop / switch_case: eagerly, and inside paddle.jit.to_static
(captured as cf.if / cf.while), with the same values and gradients; errors name the argument."""
import numpy as np
import pytest

import skiff as paddle
from skiff.static import nn as snn


def _t(values, dtype="float64", stop_gradient=True):
    t = paddle.to_tensor(np.asarray(values, dtype=dtype))
    t.stop_gradient = stop_gradient
    return t


def _branchy(x):
    return snn.cond(x.sum() > 0, lambda: (x * x.sin(), x + 1.0), lambda: (x.exp() - x, x * 2.0))


def test_cond_eager_runs_one_branch_and_keeps_the_structure():
    x = _t([1.0, 2.0])
    a, b = _branchy(x)
    np.testing.assert_allclose(a.numpy(), np.array([1.0, 2.0]) * np.sin([1.0, 2.0]))
    assert isinstance(_branchy(x), tuple)
    single = snn.cond(x.sum() < 0, lambda: x, lambda: x * 3.0)
    assert isinstance(single, paddle.Tensor)
    np.testing.assert_allclose(single.numpy(), [3.0, 6.0])
    assert snn.cond(x.sum() < 0, lambda: x) is None  # the missing false_fn returns None
    as_list = snn.cond(paddle.to_tensor(True), lambda: [x], lambda: [x])
    assert isinstance(as_list, list) and len(as_list) == 1


def test_cond_to_static_matches_eager_on_both_branches_with_one_capture():
    f = paddle.jit.to_static(_branchy)
    for values in ([0.5, 1.5], [-0.5, -1.5]):
        want = _branchy(_t(values))
        got = f(_t(values))
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-12)
    assert f.num_captures == 1
    assert "cf.if" in str(f.concrete_program.main_program)


def test_cond_gradients_in_to_static_match_eager():
    def loss(x, w):
        u = x * 3.0
        r = snn.cond(x.sum() > 0, lambda: x.sin() * w * u, lambda: (x * w).exp() + u)
        return (r * r).sum()

    f = paddle.jit.to_static(loss)
    w = _t([0.7, -1.2], stop_gradient=False)
    for values in ([0.5, 1.5], [-0.5, 0.25]):
        xe, xs = _t(values, stop_gradient=False), _t(values, stop_gradient=False)
        le = loss(xe, w)
        gx_e, gw_e = paddle.grad(le, [xe, w])
        ls = f(xs, w)
        gx_s, gw_s = paddle.grad(ls, [xs, w])
        np.testing.assert_allclose(ls.numpy(), le.numpy(), rtol=1e-12)
        np.testing.assert_allclose(gx_s.numpy(), gx_e.numpy(), rtol=1e-10)
        np.testing.assert_allclose(gw_s.numpy(), gw_e.numpy(), rtol=1e-10)


def _loop(x, n):
    i = paddle.zeros([], dtype="int64")
    i, s = snn.while_loop(lambda i, s: i < n, lambda i, s: [i + 1, s.sin() + x], [i, x])
    return s


def test_while_loop_eager_and_to_static_with_a_dynamic_trip_count():
    f = paddle.jit.to_static(_loop)
    x = _t([0.1, -0.4, 0.9])
    for k in (0, 1, 5):
        n = paddle.to_tensor(k, dtype="int64")
        np.testing.assert_allclose(f(x, n).numpy(), _loop(x, n).numpy(), rtol=1e-12)
    assert f.num_captures == 1
    assert "cf.while" in str(f.concrete_program.main_program)


def test_while_loop_gradients_in_to_static_match_eager():
    def loss(x, n):
        return (_loop(x, n) ** 2).sum()

    f = paddle.jit.to_static(loss)
    for k in (1, 4):
        n = paddle.to_tensor(k, dtype="int64")
        xe, xs = _t([0.3, -0.8], stop_gradient=False), _t([0.3, -0.8], stop_gradient=False)
        (ge,) = paddle.grad(loss(xe, n), [xe])
        (gs,) = paddle.grad(f(xs, n), [xs])
        np.testing.assert_allclose(gs.numpy(), ge.numpy(), rtol=1e-10)


def test_while_loop_body_may_return_a_single_tensor():
    out = snn.while_loop(lambda s: s.sum() < 10.0, lambda s: s * 2.0, [_t([1.0, 2.0])])
    assert isinstance(out, list)
    np.testing.assert_allclose(out[0].numpy(), [4.0, 8.0])


@pytest.mark.parametrize("form", ["dict", "pairs", "list"])
def test_switch_case_eager_and_to_static(form):
    def pick(x, index):
        fns = [lambda: x * 2.0, lambda: x.exp(), lambda: x - 1.0]
        branch_fns = {"dict": {0: fns[0], 1: fns[1], 2: fns[2]},
                      "pairs": [(0, fns[0]), (1, fns[1]), (2, fns[2])],
                      "list": fns}[form]
        return snn.switch_case(index, branch_fns, default=lambda: x * 0.0)

    f = paddle.jit.to_static(pick)
    x = _t([0.5, -2.0])
    for k in (0, 1, 2, 9):
        index = paddle.to_tensor(k, dtype="int64")
        np.testing.assert_allclose(f(x, index).numpy(), pick(x, index).numpy(), rtol=1e-12)
    assert f.num_captures == 1
    # Without a default, the largest index is the default.
    out = snn.switch_case(paddle.to_tensor(7), {1: lambda: x, 4: lambda: x * 5.0})
    np.testing.assert_allclose(out.numpy(), x.numpy() * 5.0)


def test_errors_name_the_argument():
    x = _t([1.0, 2.0])
    with pytest.raises(TypeError, match="cond: argument 'pred' expected a bool tensor with one "
                                        "element"):
        snn.cond(x.sum(), lambda: x, lambda: x)
    with pytest.raises(ValueError, match=r"got shape \[2\]"):
        snn.cond(x > 0, lambda: x, lambda: x)
    with pytest.raises(TypeError, match="cond: argument 'true_fn' expected a callable or None"):
        snn.cond(x.sum() > 0, 3, lambda: x)

    @paddle.jit.to_static
    def mismatched(x):
        return snn.cond(x.sum() > 0, lambda: {"a": x}, lambda: {"b": x})

    with pytest.raises(ValueError, match="cond: argument 'false_fn' expected a result of the "
                                         "structure true_fn returned"):
        mismatched(x)

    @paddle.jit.to_static
    def other_dtypes(x):
        return snn.cond(x.sum() > 0, lambda: x, lambda: x.astype("float32"))

    with pytest.raises(TypeError, match="cond: argument 'false_fn output 0' expected float64 "
                                        "\\(as true_fn\\), got float32"):
        other_dtypes(x)

    with pytest.raises(ValueError, match="while_loop: argument 'body' expected to return loop "
                                         "vars of the structure of loop_vars"):
        snn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1], [paddle.zeros([], "int64"), x])

    @paddle.jit.to_static
    def loop_changes_dtype(x):
        return snn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s.astype("float32")],
                              [paddle.zeros([], "int64"), x])

    with pytest.raises(TypeError, match="while_loop: argument 'body output 1' expected float64 "
                                        "\\(as loop_vars\\), got float32"):
        loop_changes_dtype(x)
    with pytest.raises(TypeError, match="switch_case: argument 'branch_index' expected an "
                                        "integer tensor with one element, got a float64"):
        snn.switch_case(x.sum(), [lambda: x])


def test_gradients_do_not_call_the_branches_again():
    # The backward replays the captured branch; the closure's `x` is rebound before backward
    # and the branch functions must not be called again (they would read the new x).
    calls = []

    def f(x):
        def twice():
            calls.append(1)
            return x * x

        y = snn.cond(x.sum() > 0, twice, lambda: x)
        x = y * 3.0
        return x.sum()

    g = paddle.jit.to_static(f)
    for fn in (f, g):
        x = _t([1.0, 2.0], stop_gradient=False)
        (gx,) = paddle.grad(fn(x), [x])
        np.testing.assert_allclose(gx.numpy(), [6.0, 12.0])
    assert len(calls) == 2  # once eagerly, once captured


def test_static_programs_with_control_flow_and_gradients():
    from skiff import static

    paddle.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [3], "float64")
            x.stop_gradient = False
            n = static.data("n", [1], "int64")
            y = static.nn.cond(x.sum() > 0, lambda: x * x, lambda: x - 1.0)
            i = paddle.zeros([1], dtype="int64")
            _, s = static.nn.while_loop(lambda i, s: i < n, lambda i, s: [i + 1, s * 2.0], [i, y])
            z = static.nn.switch_case(n, {1: lambda: s + 1.0, 2: lambda: s + 2.0},
                                      default=lambda: s)
            (gx,) = static.gradients([z.sum()], [x])
        exe = static.Executor()
        exe.run(startup)
        for xv, k in (([1.0, 2.0, 3.0], 2), ([-1.0, -2.0, 0.0], 1), ([1.0, 1.0, 1.0], 0)):
            xs = np.array(xv)
            got_z, got_g = exe.run(main, feed={"x": xs, "n": np.array([k], dtype="int64")},
                                   fetch_list=[z, gx])
            y_np, dy = (xs * xs, 2 * xs) if xs.sum() > 0 else (xs - 1.0, np.ones(3))
            add = {1: 1.0, 2: 2.0}.get(k, 0.0)
            np.testing.assert_allclose(got_z, y_np * 2.0 ** k + add)
            np.testing.assert_allclose(got_g, dy * 2.0 ** k)
    finally:
        paddle.disable_static()


def test_nested_structures_cross_cond_and_while_loop():
    def f(x):
        r = snn.cond(x.sum() > 0, lambda: {"y": x * 2.0, "pair": (x, x + 1.0)},
                     lambda: {"y": x - 1.0, "pair": (x * 0.0, x)})
        i = paddle.zeros([], dtype="int64")
        i, state = snn.while_loop(lambda i, st: i < 2,
                                  lambda i, st: [i + 1, {"a": st["a"] * 2.0, "b": st["b"]}],
                                  [i, {"a": r["y"], "b": r["pair"][1]}])
        return state["a"] + state["b"], r["pair"][0]

    g = paddle.jit.to_static(f)
    for values in ([1.0, 2.0], [-1.0, -3.0]):
        for got, want in zip(g(_t(values)), f(_t(values))):
            np.testing.assert_allclose(got.numpy(), want.numpy())
    assert g.num_captures == 1


def test_second_order_through_cond_and_while_loop_in_a_static_program():
    from skiff import static

    def loss(x, n):
        y = static.nn.cond(x.sum() > 0, lambda: x * x * x, lambda: x.exp())
        i = paddle.zeros([1], dtype="int64")
        _, s = static.nn.while_loop(lambda i, s: i < n, lambda i, s: [i + 1, s.sin() * x], [i, y])
        return s.sum()

    paddle.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [3], "float64")
            x.stop_gradient = False
            n = static.data("n", [1], "int64")
            (g1,) = static.gradients([loss(x, n)], [x])
            (g2,) = static.gradients([(g1 * g1).sum()], [x])
        exe = static.Executor()
        exe.run(startup)
        feeds = [(np.array([0.5, 1.0, 1.5]), 2), (np.array([-0.5, 0.2, -1.0]), 3)]
        got = [exe.run(main, feed={"x": xv, "n": np.array([k], dtype="int64")},
                       fetch_list=[g1, g2]) for xv, k in feeds]
    finally:
        paddle.disable_static()
    for (xv, k), (s1, s2) in zip(feeds, got):
        xe = _t(xv, stop_gradient=False)
        (e1,) = paddle.grad(loss(xe, paddle.to_tensor([k], dtype="int64")), [xe], create_graph=True)
        (e2,) = paddle.grad((e1 * e1).sum(), [xe])
        np.testing.assert_allclose(s1, e1.numpy(), rtol=1e-10)
        np.testing.assert_allclose(s2, e2.numpy(), rtol=1e-10)


def test_an_error_in_a_branch_propagates_and_leaves_no_partial_op():
    def boom():
        raise KeyError("boom")

    @paddle.jit.to_static
    def f(x):
        try:
            snn.cond(x.sum() > 0, boom, lambda: x)
        except KeyError:
            pass  # the half-built cf.if is gone: the program stays valid
        return snn.cond(x.sum() > 0, lambda: x * 2.0, lambda: x)

    np.testing.assert_allclose(f(_t([1.0, 2.0])).numpy(), [2.0, 4.0])
    assert str(f.concrete_program.main_program).count("cf.if") == 1
    assert not paddle._C.jit.is_capturing()


def test_case_runs_the_first_true_pair_or_the_default():
    def pick(x):
        s = x.sum()
        return snn.case([(s > 10.0, lambda: x * 10.0), (s > 0.0, lambda: x + 1.0)],
                        default=lambda: x * 0.0)

    def last_is_default(x):
        return snn.case([(x.sum() > 0.0, lambda: x * 2.0), (x.sum() > 100.0, lambda: x - 5.0)])

    f, g = paddle.jit.to_static(pick), paddle.jit.to_static(last_is_default)
    for values in ([5.0, 6.0], [1.0, 2.0], [-1.0, -2.0]):
        np.testing.assert_allclose(f(_t(values)).numpy(), pick(_t(values)).numpy())
        np.testing.assert_allclose(g(_t(values)).numpy(), last_is_default(_t(values)).numpy())
    np.testing.assert_allclose(last_is_default(_t([-1.0, -2.0])).numpy(), [-6.0, -7.0])
    assert f.num_captures == 1
    with pytest.raises(TypeError, match=r"case: argument 'pred_fn_pairs\[0\]' expected a "
                                        r"\(pred, fn\) pair"):
        snn.case([_t([1.0])])
