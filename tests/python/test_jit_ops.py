"""Every op of the Python op table (op_table.py) captured by to_static and run by the executor,
against eager mode: the same outputs, and the same gradients through the static backward
program (the eager VJP rules appended at capture)."""
import numpy as np
import pytest

import skiff
from op_table import CASES, flat as _flat, make_inputs, run_case

ops = skiff._C.ops


def _inputs(case, seed=0):
    return make_inputs(case, seed)


def _run(case, tensors):
    return run_case(ops, case, tensors)


def _same(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    # The kernels are the same: equal, NaNs included (a few reductions may order sums
    # differently in a fused kernel, hence the ulp-level tolerance).
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12 if want.dtype == np.float64 else 1e-6,
                                   atol=0, equal_nan=True, err_msg=what)


def _forward_and_grads(case, arrays, static):
    tensors = [skiff.to_tensor(a) for a in arrays]
    for t in tensors:
        if t.dtype.is_floating_point:
            t.stop_gradient = False

    def fn(*ts):
        return _run(case, ts)

    f = skiff.jit.to_static(fn, full_graph=True) if static else fn
    skiff.seed(123)
    outs = _flat(f(*tensors))
    rng = np.random.default_rng(1)
    terms = [skiff.sum(o * skiff.to_tensor(rng.standard_normal(o.shape).astype(
        str(o.dtype).split(".")[-1]))) for o in outs if o.dtype.is_floating_point
        and not o.stop_gradient]
    grads = []
    if terms:
        loss = terms[0]
        for t in terms[1:]:
            loss = loss + t
        floats = [t for t in tensors if not t.stop_gradient]
        grads = skiff.grad([loss], floats, allow_unused=True)
    return [o.numpy() for o in outs], [None if g is None else g.numpy() for g in grads], f


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_captured_op_matches_eager(case):
    arrays = _inputs(case)
    want_out, want_grads, _ = _forward_and_grads(case, arrays, static=False)
    got_out, got_grads, f = _forward_and_grads(case, arrays, static=True)
    assert f.num_captures == 1
    assert len(got_out) == len(want_out)
    for k, (g, w) in enumerate(zip(got_out, want_out)):
        _same(g, w, f"{case.op} output {k}")
    assert len(got_grads) == len(want_grads)
    for k, (g, w) in enumerate(zip(got_grads, want_grads)):
        assert (g is None) == (w is None), f"{case.op} grad {k}: {g is None} vs {w is None}"
        if g is not None:
            _same(g, w, f"{case.op} grad of input {k}")
