#!/usr/bin/env bash
# Installs Skiff as a Python user does and imports it without PYTHONPATH:
#   python3 -m venv --system-site-packages; pip install --no-build-isolation . (setup.py runs
#   the CMake build of skiff._C in SKIFF_BUILD_DIR: with the test's own, up-to-date build tree
#   that step is a no-op check, so the test costs no second build); pip wheel . likewise.
# Usage: venv_install_test.sh <source dir> <cmake build dir>
set -euo pipefail
src=$1
build=$2
python=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset PYTHONPATH
"$python" -m venv --system-site-packages "$tmp/venv"
venv_py=$tmp/venv/bin/python
export SKIFF_BUILD_DIR=$build PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
"$venv_py" -m pip install --no-build-isolation --no-deps -q "$src"
cd "$tmp"
"$venv_py" - "$tmp/venv" <<'PY'
import inspect, sys
import skiff as paddle
venv = sys.argv[1]
assert paddle.__file__.startswith(venv), f"imported {paddle.__file__}, not from {venv}"
assert paddle._C.__file__.startswith(venv), paddle._C.__file__
assert inspect.isfunction(paddle.tanh)
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
(x * x).sum().backward()
assert x.grad.numpy().tolist() == [2.0, 4.0]
paddle.utils.run_check()
print("installed", paddle.__version__, "at", paddle.__file__)
PY
"$venv_py" -m pip wheel --no-build-isolation --no-deps -q -w "$tmp/dist" "$src"
wheel=$(ls "$tmp"/dist/skiff-*.whl)
"$venv_py" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
for need in ("skiff/__init__.py", "skiff/_op_functions.py", "skiff/nn/functional/__init__.py"):
    assert need in names, f"{need} missing from {sys.argv[1]}"
assert any(n.startswith("skiff/_C") and n.endswith(".so") for n in names), "no skiff/_C*.so"
tag = sys.argv[1].rsplit("/", 1)[-1]
assert "-none-any" not in tag and "linux" in tag, f"a binary wheel needs a platform tag: {tag}"
print("wheel", sys.argv[1].rsplit("/", 1)[-1], len(names), "files")
PY
