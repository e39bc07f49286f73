#!/usr/bin/env bash
# Installs dependencies, builds, and runs the whole test suite (CTest: C++ tests and the textual
# IR tests; the pytest suites of tests/python).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
build_dir=${SKIFF_BUILD_DIR:-$root/build}
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" --timeout 900
