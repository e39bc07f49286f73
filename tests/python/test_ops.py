"""Every bound op (skiff._C.ops) against numpy and PyTorch, forward and backward, from the table
in op_table.py. Backward: skiff.grad against float64 central differences, and against torch
autograd where torch is importable."""
import numpy as np
import pytest

import skiff
from op_table import CASES, EXCLUDED, torch, flat as _flat, make_inputs, run_case

ops = skiff._C.ops


def _inputs(case, seed=0):
    return make_inputs(case, seed)


def _run(case, tensors):
    return run_case(ops, case, tensors)


def _is_float(a):
    return np.asarray(a).dtype.kind == "f"


def _close(got, want, atol, what):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if want.dtype.kind == "b":
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-6,
                                   atol=atol, err_msg=what)


def test_every_op_has_a_case():
    names = set(skiff._C.op_names())
    covered = {c.op for c in CASES}
    assert not (names - covered - EXCLUDED), f"ops without a test case: {sorted(names - covered - EXCLUDED)}"
    assert not (covered - names), f"cases for unknown ops: {sorted(covered - names)}"


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_forward_numpy(case):
    if case.np_fn is None:
        pytest.skip("no numpy reference (checked against torch)")
    arrays = _inputs(case)
    out = _flat(_run(case, [skiff.to_tensor(a) for a in arrays]))
    ref = case.np_fn(*arrays)
    ref = list(ref) if isinstance(ref, (list, tuple)) else [ref]
    # A reference may cover a prefix of the outputs (values, not indices); never none of them.
    assert 1 <= len(ref) <= len(out), f"{case.op}: {len(out)} outputs, {len(ref)} references"
    for k, (o, r) in enumerate(zip(out[:len(ref)], ref, strict=True)):
        _close(o.numpy(), r, case.atol, f"{case.op} output {k}")


@pytest.mark.skipif(torch is None, reason="torch is not installed")
@pytest.mark.parametrize("case", [c for c in CASES if c.torch_fn], ids=repr)
def test_forward_torch(case):
    arrays = _inputs(case)
    out = _flat(_run(case, [skiff.to_tensor(a) for a in arrays]))
    ref = case.torch_fn(*[torch.from_numpy(np.ascontiguousarray(a)) for a in arrays])
    ref = list(ref) if isinstance(ref, (list, tuple)) else [ref]
    assert 1 <= len(ref) <= len(out), f"{case.op}: {len(out)} outputs, {len(ref)} torch results"
    for k, (o, r) in enumerate(zip(out[:len(ref)], ref, strict=True)):
        _close(o.numpy(), r.numpy(), case.atol, f"{case.op} output {k} vs torch")


def _differentiable(case):
    s = skiff._C.op_schema(case.op)
    has_float = any(_is_float(a) for a in _inputs(case))
    return case.grad and s["differentiable"] and s["grad_inputs"] and has_float


def _loss_weights(outs, seed=1):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(o.shape) if o.dtype.is_floating_point else None for o in outs]


def _skiff_grads(case, arrays):
    tensors = [skiff.to_tensor(a) for a in arrays]
    for t in tensors:
        if t.dtype.is_floating_point:
            t.stop_gradient = False
    outs = _flat(_run(case, tensors))
    ws = _loss_weights(outs)
    loss = None
    for o, w in zip(outs, ws):
        if w is not None:
            term = skiff.sum(o * skiff.to_tensor(w))
            loss = term if loss is None else loss + term
    float_inputs = [t for t in tensors if t.dtype.is_floating_point]
    grads = skiff.grad([loss], float_inputs, allow_unused=True)
    return grads, ws


def _loss_value(case, arrays, ws):
    with skiff.no_grad():
        outs = _flat(_run(case, [skiff.to_tensor(a) for a in arrays]))
    return sum(float((o.numpy() * w).sum()) for o, w in zip(outs, ws) if w is not None)


@pytest.mark.parametrize("case", [c for c in CASES if c.fd], ids=repr)
def test_backward_finite_differences(case):
    if not _differentiable(case):
        pytest.skip("not differentiable")
    arrays = _inputs(case)
    grads, ws = _skiff_grads(case, arrays)
    floats = [k for k, a in enumerate(arrays) if _is_float(a)]
    assert any(g is not None for g in grads), f"{case.op}: no input received a gradient"
    eps = 1e-6
    for k, g in zip(floats, grads, strict=True):
        if g is None:
            continue
        num = np.zeros_like(arrays[k])
        for j in np.ndindex(arrays[k].shape):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[k][j] += eps
            minus[k][j] -= eps
            num[j] = (_loss_value(case, plus, ws) - _loss_value(case, minus, ws)) / (2 * eps)
        _close(g.numpy(), num, 1e-5, f"{case.op} grad of input {k}")


@pytest.mark.skipif(torch is None, reason="torch is not installed")
@pytest.mark.parametrize("case", [c for c in CASES if c.torch_fn], ids=repr)
def test_backward_torch(case):
    if not _differentiable(case):
        pytest.skip("not differentiable")
    arrays = _inputs(case)
    grads, ws = _skiff_grads(case, arrays)
    tt = [torch.tensor(a, requires_grad=_is_float(a)) for a in arrays]
    outs = case.torch_fn(*tt)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    loss = sum((o * torch.from_numpy(w)).sum() for o, w in zip(outs, ws)
               if w is not None and o.dtype.is_floating_point)
    floats = [t for t in tt if t.requires_grad]
    tg = torch.autograd.grad(loss, floats, allow_unused=True)
    compared = 0
    for k, (g, r) in enumerate(zip(grads, tg, strict=True)):
        if g is None or r is None:
            assert g is None or not g.numpy().any(), f"{case.op} grad {k}: torch has none"
            continue
        _close(g.numpy(), r.numpy(), 1e-6, f"{case.op} grad of float input {k} vs torch")
        compared += 1
    assert compared, f"{case.op}: no gradient was compared with torch"


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_forward_float32(case):
    """The common dtype through the Python path: float32 inputs against the float64 result."""
    arrays = _inputs(case)
    # Random ops draw differently per dtype (one Philox value per float32, two per float64).
    if not any(_is_float(a) for a in arrays) or case.op in ("cast", "dropout", "uniform_inplace",
                                                            "gaussian_inplace"):
        pytest.skip("no float input")
    want = _flat(_run(case, [skiff.to_tensor(a) for a in arrays]))
    got = _flat(_run(case, [skiff.to_tensor(a.astype(np.float32) if _is_float(a) else a)
                            for a in arrays]))
    assert len(got) == len(want) >= 1
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        if w.dtype.is_floating_point:
            assert g.dtype == skiff.float32, f"{case.op} output {k}: {g.dtype}"
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=2e-4, atol=2e-5,
                                       err_msg=f"{case.op} output {k}")
        else:
            np.testing.assert_array_equal(g.numpy(), w.numpy(), err_msg=f"{case.op} output {k}")


class _InplaceOps:
    """skiff._C.ops with `op` replaced by its in-place variant."""

    def __init__(self, op):
        self.op = op

    def __getattr__(self, name):
        return getattr(ops, name + "_" if name == self.op else name)


INPLACE = [c for c in CASES if c.op + "_" in skiff._C.inplace_names()]


def test_every_inplace_variant_has_a_case():
    assert {c.op + "_" for c in INPLACE} == set(skiff._C.inplace_names())


@pytest.mark.parametrize("case", INPLACE, ids=repr)
def test_inplace_matches_out_of_place(case):
    arrays = _inputs(case)
    want = _flat(_run(case, [skiff.to_tensor(a) for a in arrays]))[0]
    tensors = [skiff.to_tensor(a) for a in arrays]
    inplace = case.call(_InplaceOps(case.op), *tensors) if case.call else \
        getattr(ops, case.op + "_")(*tensors)
    written = inplace if isinstance(inplace, skiff.Tensor) else _flat(inplace)[0]
    assert any(written is t for t in tensors), f"{case.op}_ does not return its input"
    np.testing.assert_allclose(written.numpy(), want.numpy(), rtol=1e-12, atol=1e-12)
