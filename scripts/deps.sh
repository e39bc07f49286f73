#!/usr/bin/env bash
# Installs every build, test and benchmark dependency of Skiff from Debian's packages.
# Idempotent: packages already present are skipped, so a warm machine pays only a dpkg query.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libdnnl-dev libomp-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-dev python3-numpy python3-pytest python3-yaml pybind11-dev
  clang libclang-rt-14-dev
  libgloo-dev liblapacke-dev libopenblas-dev nlohmann-json3-dev libkissfft-dev
  python3-pil python3-matplotlib fonts-dejavu-core
  python3-torch
  python3-pip python3-setuptools python3-venv python3-wheel
)
# python3-torch is the reference many Python tests compare against (forward and gradients), so
# it is a test dependency; `--bench` also installs the C++ peer and the tuned BLAS.
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(libtorch-dev libopenblas0-openmp)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} == 0 )); then
  exit 0
fi
echo "deps.sh: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
