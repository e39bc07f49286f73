"""Conformance with Paddle's public API, from the data in paddle_api/paddle_api.json (read from
Paddle's source): every name Skiff exports that the data has parameters for takes Paddle's
parameter names in Paddle's order, and docs/API_COVERAGE.md is what tools/api_coverage.py writes."""
import importlib.util
import inspect
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_spec = importlib.util.spec_from_file_location("api_coverage", os.path.join(ROOT, "tools", "api_coverage.py"))
api_coverage = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_coverage)

DATA = api_coverage.load_data()

# (module, name) -> why Skiff's parameter names differ from Paddle's on purpose. Keep it short.
EXCEPTIONS = {
    ("paddle.nn.functional", "embedding"):
        "Paddle 3.0's documented order is (..., norm_type, sparse, scale_grad_by_freq, name), which Skiff"
        " follows; the later stored source the data came from puts scale_grad_by_freq before sparse",
}


def _checked_names():
    for module, entries in DATA.items():
        if module.startswith("_"):
            continue
        mod = api_coverage._import(module)
        for name, entry in entries.items():
            obj = getattr(mod, name, None) if mod is not None else None
            if obj is not None and "params" in entry:
                yield module, name, entry, obj


CHECKED = list(_checked_names())


def test_data_is_paddles_api():
    meta = DATA["_meta"]
    assert "3.0" in meta["paddle_version"]
    for module, entries in DATA.items():
        if module.startswith("_"):
            continue
        assert module in meta["sources"], module
        assert entries, module
        for name, entry in entries.items():
            assert entry["kind"] in ("function", "class", "dtype", "method"), (module, name)
            for p in entry.get("params", []):
                assert isinstance(p[0], str) and p[0].isidentifier(), (module, name, p)
    # a few names every Paddle 3.0 program uses
    assert {"to_tensor", "matmul", "einsum", "Tensor"} <= DATA["paddle"].keys()
    assert {"relu", "cross_entropy", "scaled_dot_product_attention"} <= DATA["paddle.nn.functional"].keys()


def test_signatures_were_checked():
    assert len(CHECKED) >= 5


@pytest.mark.parametrize("module,name,entry,obj", CHECKED, ids=[f"{m}.{n}" for m, n, _, _ in CHECKED])
def test_parameter_names_in_paddles_order(module, name, entry, obj):
    if (module, name) in EXCEPTIONS:
        pytest.skip(EXCEPTIONS[(module, name)])
    paddle, ours = api_coverage._bound(module, entry["params"], api_coverage.skiff_params(obj))
    assert ours is not None, f"{module}.{name}: no Python signature"
    assert [p[0] for p in ours] == [p[0] for p in paddle], f"{module}.{name}"


def test_compare_reports_differences():
    paddle = [["x", None], ["axis", "-1"], ["name", "None"]]
    assert api_coverage.compare(paddle, [["x", None], ["axis", "-1"], ["name", "None"]]) == "match"
    assert api_coverage.compare(paddle, [["x", None], ["dim", "-1"], ["name", "None"]]).startswith("names differ")
    assert api_coverage.compare(paddle, [["x", None], ["axis", "0"], ["name", "None"]]).startswith("defaults differ")
    assert api_coverage.compare(paddle, None) == "no signature"
    # a default written with other quotes or spacing is the same value
    assert api_coverage.compare([["norm", "'backward'"]], [["norm", '"backward"']]) == "match"


def test_skiff_params_of_functions_and_classes():
    def f(x, axis=None, *args, out=None, **kw):
        pass

    class C:
        def __init__(self, a, b=1.0):
            pass

    assert api_coverage.skiff_params(f) == [["x", None], ["axis", "None"]]
    assert api_coverage.skiff_params(C) == [["a", None], ["b", "1.0"]]
    assert inspect.isclass(C)


def test_coverage_doc_is_up_to_date():
    with open(api_coverage.DOC) as f:
        committed = f.read()
    assert committed == api_coverage.generate(), (
        "docs/API_COVERAGE.md is stale: run PYTHONPATH=python python3 tools/api_coverage.py")


# Wrappers fixed to take Paddle's parameters (found by the table above).
def test_trunc_takes_input():
    import numpy as np
    import skiff as paddle
    x = paddle.to_tensor([1.7, -1.7, 0.2])
    np.testing.assert_array_equal(paddle.trunc(input=x).numpy(), np.trunc(x.numpy()))
    y = paddle.to_tensor([2.5, -0.5])
    assert paddle.trunc_(input=y) is y
    np.testing.assert_array_equal(y.numpy(), [2.0, -0.0])


def test_celu_silu_inplace_and_thresholded_relu_value():
    import numpy as np
    import torch
    import skiff as paddle
    import skiff.nn.functional as F
    data = np.array([-2.0, -0.3, 0.0, 0.4, 3.0], dtype=np.float32)
    want = torch.nn.functional.celu(torch.tensor(data), alpha=0.5).numpy()
    np.testing.assert_allclose(F.celu(paddle.to_tensor(data), 0.5).numpy(), want, rtol=1e-6)
    x = paddle.to_tensor(data)
    assert F.celu(x, 0.5, inplace=True) is x
    np.testing.assert_allclose(x.numpy(), want, rtol=1e-6)
    x = paddle.to_tensor(data)
    F.silu(x, inplace=True)
    np.testing.assert_allclose(x.numpy(), torch.nn.functional.silu(torch.tensor(data)).numpy(), rtol=1e-6)
    out = F.thresholded_relu(paddle.to_tensor(data), threshold=0.2, value=-1.0)
    np.testing.assert_array_equal(out.numpy(), np.where(data > 0.2, data, -1.0).astype(np.float32))
    with pytest.raises(ZeroDivisionError):
        F.celu(paddle.to_tensor(data), 0.0)


def test_data_is_built_from_the_transcribed_sources(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "paddle_api.json"
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "python", "paddle_api", "build_paddle_api.py"),
                    str(out)], check=True, capture_output=True)
    with open(os.path.join(ROOT, "tests", "python", "paddle_api", "paddle_api.json")) as f:
        assert f.read() == out.read_text(), "run tests/python/paddle_api/build_paddle_api.py"
