"""Paddle API conformance table: which of Paddle's public names Skiff exports, and with what signature.

Reads tests/python/paddle_api/paddle_api.json (Paddle's `__all__` per module and the parameters of the
functions whose definitions were read from Paddle's source), imports skiff (run with PYTHONPATH=python)
and writes docs/API_COVERAGE.md: per module the covered, missing and deliberately absent names, the
coverage percentage, and per covered name whether its parameters (names, order, defaults) match.

    PYTHONPATH=python python3 tools/api_coverage.py            # rewrite docs/API_COVERAGE.md
    PYTHONPATH=python python3 tools/api_coverage.py --check    # exit 1 when the file is stale

Coverage counts deliberately absent names out of the denominator: they are out of scope on purpose
(the reason is in ABSENT), not forgotten. tests/python/test_api_conformance.py regenerates the
table in memory and compares it with the committed file.
"""
import argparse
import ast
import importlib
import inspect
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "python", "paddle_api", "paddle_api.json")
DOC = os.path.join(ROOT, "docs", "API_COVERAGE.md")

_CUDA = "CUDA-only kernel in Paddle (no CPU implementation to follow)"
_LEGACY = "static-graph/legacy API of an older Paddle, removed or replaced in 3.0"

# Names Skiff leaves out on purpose, with the reason. A name listed here that Skiff does export is
# reported as covered (the list only explains what is absent).
ABSENT = {
    "paddle": {
        "get_cuda_rng_state": "CUDA RNG state; Skiff has no CUDA generator",
        "set_cuda_rng_state": "CUDA RNG state; Skiff has no CUDA generator",
    },
    "paddle.Tensor": {
        "create_tensor": _LEGACY,
    },
    "paddle.linalg": {"fp8_fp8_fp8_dual_gemm_fused": _CUDA},
    "paddle.nn": {
        "TripletMarginDistanceLoss": "a draft name in the 2.3-era fork's __all__ the data came "
                                     "from; Paddle released the layer as "
                                     "TripletMarginWithDistanceLoss, which Skiff exports",
    },
    "paddle.nn.functional": {
        "flashmask_attention": _CUDA, "flash_attn_qkvpacked": _CUDA,
        "flash_attn_varlen_qkvpacked": _CUDA, "sparse_attention": _CUDA,
    },
    "paddle.incubate.autograd": {
        "prim2orig": "Paddle's primitive-op static program transform; Skiff has no prim IR",
        "enable_prim": "Paddle's primitive-op static program transform; Skiff has no prim IR",
        "disable_prim": "Paddle's primitive-op static program transform; Skiff has no prim IR",
        "prim_enabled": "Paddle's primitive-op static program transform; Skiff has no prim IR",
    },
    "paddle.static": {"ParallelExecutor": _LEGACY, "xpu_places": "XPU devices are not supported"},
    "paddle.jit": {"TracedLayer": _LEGACY, "ProgramTranslator": _LEGACY},
}


def load_data(path=DATA):
    with open(path) as f:
        return json.load(f)


def _import(module):
    """skiff's counterpart of a Paddle module (or of paddle.Tensor, whose methods are listed)."""
    name = "skiff" + module[len("paddle"):]
    try:
        return importlib.import_module(name)
    except ImportError:
        parent, _, attr = name.rpartition(".")
        try:
            return getattr(importlib.import_module(parent), attr, None)
        except ImportError:
            return None


def _constant(node):
    """The value of a literal or of arithmetic on literals (Paddle writes `lower=1.0 / 8.0`)."""
    if isinstance(node, ast.BinOp):
        ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
               ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b}
        op = ops.get(type(node.op))
        if op is None:
            raise ValueError("not a constant")
        return op(_constant(node.left), _constant(node.right))
    return ast.literal_eval(node)


def _normalize(text):
    """A default as comparable text: constants by value, other expressions as written."""
    try:
        value = _constant(ast.parse(text, mode="eval").body)
    except (ValueError, SyntaxError, TypeError, ZeroDivisionError):
        return text
    if isinstance(value, float):
        return repr(float(f"{value:.15g}"))  # 1.0507009873554804934 and its float repr agree
    return repr(value)


def skiff_params(obj):
    """Positional-or-keyword parameters of a Skiff function or class (__init__ without self) as
    [name, default text or None]; None when Python cannot read a signature."""
    target = obj
    if inspect.isclass(obj):
        target = obj.__init__
        if target is object.__init__:
            return []
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    out = []
    for p in sig.parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            continue
        out.append([p.name, None if p.default is p.empty else repr(p.default)])
    if inspect.isclass(obj) and out and out[0][0] == "self":
        out = out[1:]
    return out


def compare(paddle_params, ours):
    """'match', 'defaults differ: ...', 'names differ: ...' or 'no signature'."""
    if ours is None:
        return "no signature"
    names_p = [p[0] for p in paddle_params]
    names_s = [p[0] for p in ours]
    if names_p != names_s:
        return f"names differ: Skiff ({', '.join(names_s)})"
    diffs = []
    for (n, dp), (_, ds) in zip(paddle_params, ours):
        if dp is None and ds is None:
            continue
        if dp is None or ds is None or _normalize(dp) != _normalize(ds):
            diffs.append(f"{n}: Paddle {dp}, Skiff {ds}")
    return "match" if not diffs else "defaults differ: " + "; ".join(diffs)


def _bound(module, paddle_params, ours):
    """A Tensor method's first parameter is the tensor itself: its name (x, input, self) is
    never passed by keyword, so only the parameters after it are compared."""
    if module != "paddle.Tensor" or ours is None:
        return paddle_params, ours
    return paddle_params[1:], ours[1:]


def absent_reason(module, name):
    table = ABSENT.get(module, {})
    return table.get(name, table.get("*"))


def survey(data):
    """Per module: covered {name: status or None}, missing [names], absent {name: reason}."""
    result = {}
    for module, entries in data.items():
        if module.startswith("_"):
            continue
        mod = _import(module)
        covered, missing, absent = {}, [], {}
        for name, entry in entries.items():
            obj = getattr(mod, name, None) if mod is not None else None
            if obj is None:
                reason = absent_reason(module, name)
                if reason:
                    absent[name] = reason
                else:
                    missing.append(name)
                continue
            status = None
            if "params" in entry and (inspect.isroutine(obj) or inspect.isclass(obj)):
                status = compare(*_bound(module, entry["params"], skiff_params(obj)))
            covered[name] = status
        result[module] = {"covered": covered, "missing": missing, "absent": absent}
    return result


def percent(info):
    denom = len(info["covered"]) + len(info["missing"])
    return 100.0 * len(info["covered"]) / denom if denom else 100.0


def render(data, result):
    meta = data.get("_meta", {})
    lines = [
        "# Paddle API coverage",
        "",
        "Generated by `tools/api_coverage.py` from `tests/python/paddle_api/paddle_api.json` (Paddle's",
        "public names read from its source; see the sources there). Do not edit by hand: run",
        "`PYTHONPATH=python python3 tools/api_coverage.py`; `tests/python/test_api_conformance.py` fails",
        "when this file is stale.",
        "",
        f"Paddle version: {meta.get('paddle_version', '?')}.",
        "",
        "Coverage = covered / (covered + missing); deliberately absent names are not counted.",
        "Signature: for the names whose parameters were read from Paddle's source, whether Skiff's",
        "positional parameters have Paddle's names, order and defaults.",
        "",
        "| module | Paddle names | covered | missing | absent | coverage | signatures checked | matching |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    tot_c = tot_m = 0
    for module, info in result.items():
        checked = [s for s in info["covered"].values() if s is not None]
        ok = [s for s in checked if s == "match"]
        n = len(info["covered"]) + len(info["missing"]) + len(info["absent"])
        tot_c += len(info["covered"])
        tot_m += len(info["missing"])
        lines.append(f"| `{module}` | {n} | {len(info['covered'])} | {len(info['missing'])} | "
                     f"{len(info['absent'])} | {percent(info):.1f}% | {len(checked)} | {len(ok)} |")
    total = 100.0 * tot_c / (tot_c + tot_m) if tot_c + tot_m else 100.0
    lines += ["", f"All modules: {tot_c} covered, {tot_m} missing, {total:.1f}%.", ""]
    for module, info in result.items():
        src = meta.get("sources", {}).get(module, {})
        lines += [f"## `{module}`", ""]
        if src:
            lines += [f"Source: {src.get('repo')} `{src.get('path')}` at "
                      f"{src.get('commit') or '(commit not reported)'} ({src.get('vintage')}).", ""]
        lines += [f"Coverage {percent(info):.1f}%.", ""]
        if info["missing"]:
            lines += ["Missing: " + ", ".join(f"`{n}`" for n in sorted(info["missing"])) + ".", ""]
        if info["absent"]:
            by_reason = {}
            for n, r in sorted(info["absent"].items()):
                by_reason.setdefault(r, []).append(n)
            lines.append("Deliberately absent:")
            lines += [f"- {r}: " + ", ".join(f"`{n}`" for n in ns) for r, ns in by_reason.items()]
            lines.append("")
        checked = {n: s for n, s in sorted(info["covered"].items()) if s is not None}
        unchecked = sorted(n for n, s in info["covered"].items() if s is None)
        if checked:
            lines += ["| covered name | signature |", "| --- | --- |"]
            lines += [f"| `{n}` | {s} |" for n, s in checked.items()]
            lines.append("")
        if unchecked:
            lines += ["Covered, signature not in the data yet: "
                      + ", ".join(f"`{n}`" for n in unchecked) + ".", ""]
    return "\n".join(lines).rstrip() + "\n"


def generate():
    data = load_data()
    return render(data, survey(data))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when docs/API_COVERAGE.md is stale")
    args = ap.parse_args(argv)
    text = generate()
    if args.check:
        with open(DOC) as f:
            stale = f.read() != text
        if stale:
            print("docs/API_COVERAGE.md is stale: run PYTHONPATH=python python3 tools/api_coverage.py")
        return 1 if stale else 0
    with open(DOC, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
