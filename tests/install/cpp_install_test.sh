#!/usr/bin/env bash
# Installs Skiff as a C++ user does (`cmake --install` into a fresh prefix) and uses it from
# outside the tree: no installed file names this source or build tree, examples/cpp builds
# against find_package(Skiff) and runs, and a one-file program builds with pkg-config alone.
# Usage: cpp_install_test.sh <source dir> <cmake build dir>
set -euo pipefail
# A failing step names itself (the steps' own output goes to /dev/null).
trap 'echo "cpp_install_test.sh: line $LINENO failed (exit $?): $BASH_COMMAND" >&2' ERR
src=$(realpath "$1")
build=$(realpath "$2")
# A fixed place in the build tree, so that a rerun reuses the examples' build.
work=$build/cpp_install_test
prefix=$work/prefix
rm -rf "$prefix"
mkdir -p "$work"
cmake --install "$build" --prefix "$prefix" >/dev/null

test -f "$prefix/lib/libskiff.so" && test -f "$prefix/lib/cmake/Skiff/SkiffConfig.cmake"
test -f "$prefix/include/skiff/skiff.h" && test -f "$prefix/include/skiff/inference.h"
test -f "$prefix/include/skiff/ops/generated/api.h"  # generated headers are installed too
if leaks=$(grep -rl -e "$src" -e "$build" "$prefix/include" "$prefix/lib/cmake" \
                                          "$prefix/lib/pkgconfig"); then
  echo "installed files name a path of this build:"
  echo "$leaks"
  exit 1
fi

launcher=()
if command -v ccache >/dev/null; then
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$src;ccache")
fi
cmake -S "$src/examples/cpp" -B "$work/examples" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" >/dev/null
cmake --build "$work/examples" -j "$(nproc)" >/dev/null
# Only the installed headers: no include path into the source or build tree.
if grep -E -- "-I$src|-isystem $src/(include|skiff)|-I$build" "$work/examples/build.ninja"; then
  echo "the examples' build reads headers from the tree, not the prefix"
  exit 1
fi
# Not grep -q: it would close the pipe at the first match, and ldd, killed by SIGPIPE, would fail
# the pipeline under pipefail now and then.
ldd "$work/examples/mlp_train" | grep -F "$prefix/lib/libskiff.so" >/dev/null
"$work/examples/mlp_train" --epochs 3 --min-accuracy 0.8 --checkpoint "$work/mlp.safetensors"
"$work/examples/skiff_demo" >/dev/null
"$work/examples/llama_generate" --help >/dev/null

cat >"$work/version_check.cc" <<'CC'
#include <cstdio>
#include <string>

#include "skiff/inference.h"
#include "skiff/version.h"

int main() {
  const std::string v = skiff::inference::GetVersion();
  std::printf("%s | %s\n", skiff_version(), v.c_str());
  return v.find(skiff_version()) == std::string::npos;
}
CC
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs skiff)
# shellcheck disable=SC2086  # pkg-config's flags are words
c++ "$work/version_check.cc" $flags -Wl,-rpath,"$prefix/lib" -o "$work/version_check"
"$work/version_check"
echo "installed into $prefix: find_package(Skiff) and pkg-config builds run"
