#!/usr/bin/env bash
# Configures and builds Skiff into build/ (Release, Ninja). Extra arguments go to CMake, e.g.
#   scripts/build.sh -DSKIFF_SANITIZE=ON
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/deps.sh" >/tmp/skiff-deps.log 2>&1 || { cat /tmp/skiff-deps.log; exit 1; }
build_dir=${SKIFF_BUILD_DIR:-$root/build}
if [[ ! -f "$build_dir/build.ninja" || $# -gt 0 ]]; then
  cmake -S "$root" -B "$build_dir" -G Ninja -DPython3_EXECUTABLE=/usr/bin/python3 "$@" >/dev/null
fi
cmake --build "$build_dir" -j "$(nproc)"
