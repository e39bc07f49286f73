#!/usr/bin/env bash
# ASan + UBSan runs (UBSan findings abort: halt_on_error).
#   scripts/sanitize.sh            everything: a gcc -DSKIFF_SANITIZE=ON build in build-asan/ and the
#                                  whole CTest suite (C++ tests, IR text tests, every pytest file
#                                  with libasan preloaded into Python). About 3x the normal run.
#   scripts/sanitize.sh --subset   what CI runs (.ci/run): the base, core and IR test executables
#                                  from the clang ASan+UBSan build that scripts/fuzz.sh also uses
#                                  (build-fuzz/; no ops library, so it adds minutes, not tens).
#   scripts/sanitize.sh --tsan     ThreadSanitizer: a gcc -DSKIFF_TSAN=ON build in build-tsan/, the
#                                  executor's C++ thread tests (executor_threads_test, the executor
#                                  and to_static suites) and the Python suites that run Skiff from
#                                  several threads (compiled programs and jit.load'ed layers called
#                                  from 8 threads, to_static, DataLoader, predictor pools, the
#                                  profiler) with libtsan preloaded into Python; one OpenMP thread
#                                  (libgomp is not instrumented, so its barriers would be false
#                                  reports).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

if [[ ${1:-} == --subset ]]; then
  fuzz_dir=${SKIFF_FUZZ_BUILD_DIR:-$root/build-fuzz}
  cxx=${CXX_FUZZ:-$(command -v clang++-14 || command -v clang++)}
  cc=${CC_FUZZ:-$(command -v clang-14 || command -v clang)}
  if [[ ! -f $fuzz_dir/build.ninja ]]; then
    cmake -S "$root" -B "$fuzz_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DSKIFF_FUZZ=ON \
      -DSKIFF_BUILD_PYTHON=OFF -DSKIFF_BUILD_BENCH=OFF \
      -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
  fi
  tests=(base_test core_test ir_test)
  cmake --build "$fuzz_dir" -j "$(nproc)" --target "${tests[@]}"
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
  for t in "${tests[@]}"; do
    echo "== $t (ASan+UBSan)"
    "$fuzz_dir/bin/$t" --gtest_brief=1
  done
  exit 0
fi

if [[ ${1:-} == --tsan ]]; then
  tsan_dir=${SKIFF_TSAN_BUILD_DIR:-$root/build-tsan}
  SKIFF_BUILD_DIR=$tsan_dir bash "$root/scripts/build.sh" -DSKIFF_TSAN=ON -DSKIFF_BUILD_BENCH=OFF
  # exitcode=66: a report fails the run even where Python would exit 0 after it. The
  # suppressions are reports TSan cannot judge (each with why), none in Skiff's code.
  export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:exitcode=66:suppressions=$root/scripts/tsan_suppressions.txt}
  export OMP_NUM_THREADS=1
  for t in executor_threads_test static_test control_flow_test program_transforms_test; do
    echo "== $t (TSan)"
    "$tsan_dir/bin/$t" --gtest_brief=1
  done
  # Python is not instrumented; CPython's GIL is a pthread mutex and condition variable, which
  # TSan intercepts, so the happens-before edges between threads that take turns are seen.
  # The extension of this build is found through SKIFF_EXTENSION_DIR (skiff/__init__.py); -s
  # lets a report reach the log (pytest would capture it inside a passing test).
  for t in test_jit_threads test_jit test_io test_inference test_profiler; do
    echo "== python $t (TSan)"
    (cd "$root" && LD_PRELOAD="$(gcc -print-file-name=libtsan.so)" PYTHONPATH="$root/python" \
      SKIFF_EXTENSION_DIR="$tsan_dir/python/skiff" /usr/bin/python3 -m pytest -q -s -p no:cacheprovider \
      "tests/python/$t.py")
  done
  exit 0
fi

asan_dir=${SKIFF_ASAN_BUILD_DIR:-$root/build-asan}
SKIFF_BUILD_DIR=$asan_dir bash "$root/scripts/build.sh" -DSKIFF_SANITIZE=ON -DSKIFF_BUILD_BENCH=OFF
# Python is not instrumented: the runtime must come first, and CPython's own allocations at exit
# are not leaks of ours.
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
# Tests that ask for huge buffers on purpose (the numel-overflow checks) get a null pointer and
# the framework's own bad_alloc error instead of ASan's allocation-size abort.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:allocator_may_return_null=1:max_allocation_size_mb=3072}
cd "$asan_dir"
ctest --output-on-failure -j "$(nproc)" --timeout 2700 "$@"
