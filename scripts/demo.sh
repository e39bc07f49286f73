#!/usr/bin/env bash
# The main job for now: builds Skiff and runs the C++ demo that exercises tensors and operators.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
"${SKIFF_BUILD_DIR:-$root/build}/bin/skiff_demo"
