#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, -DSKIFF_FUZZ=ON) into build-fuzz/ and runs them
# on copies of the committed seed corpora (tests/fuzz/corpus, tests/ir/fuzz_corpus), so the
# committed seeds stay as they are. Crashes go to build-fuzz/crashes/ (exit status 1).
#   scripts/fuzz.sh [TARGET...|all|smoke] [SECONDS per target, default 600]
# SKIFF_FUZZ_SEED fixes the seed of every target (CI sets it); unset, each run draws its own.
# Targets: ir_parser_fuzz, safetensors_fuzz, npy_fuzz, model_dir_fuzz (C++), unpickle (Python, the
# restricted unpickler of skiff.load; needs the normal build for skiff._C).
# `smoke` = the targets CI runs (ir_parser_fuzz safetensors_fuzz npy_fuzz unpickle): they need only
# base/core/ir, not the ops library, so the extra build stays small; model_dir_fuzz builds every
# kernel with clang+ASan and runs here only (see docs/RELIABILITY.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}
seconds=${2:-600}
case "$what" in
  all) targets=(ir_parser_fuzz safetensors_fuzz npy_fuzz model_dir_fuzz unpickle) ;;
  smoke) targets=(ir_parser_fuzz safetensors_fuzz npy_fuzz unpickle) ;;
  *) targets=("$@"); seconds=600
     if [[ ${#targets[@]} -ge 2 && ${targets[-1]} =~ ^[0-9]+$ ]]; then
       seconds=${targets[-1]}; unset 'targets[-1]'
     fi ;;
esac
fuzz_dir=${SKIFF_FUZZ_BUILD_DIR:-$root/build-fuzz}
cxx=${CXX_FUZZ:-$(command -v clang++-14 || command -v clang++)}
cc=${CC_FUZZ:-$(command -v clang-14 || command -v clang)}

cpp=()
for t in "${targets[@]}"; do [[ $t != unpickle ]] && cpp+=("$t"); done
if [[ ${#cpp[@]} -gt 0 ]]; then
  if [[ ! -f $fuzz_dir/build.ninja ]]; then
    cmake -S "$root" -B "$fuzz_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DSKIFF_FUZZ=ON \
      -DSKIFF_BUILD_PYTHON=OFF -DSKIFF_BUILD_BENCH=OFF \
      -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
  fi
  cmake --build "$fuzz_dir" -j "$(nproc)" --target "${cpp[@]}"
fi

corpus_of() {
  case "$1" in
    ir_parser_fuzz) echo "$root/tests/ir/fuzz_corpus" ;;
    safetensors_fuzz) echo "$root/tests/fuzz/corpus/safetensors" ;;
    npy_fuzz) echo "$root/tests/fuzz/corpus/npy" ;;
    model_dir_fuzz) echo "$root/tests/fuzz/corpus/model_dir" ;;
  esac
}

status=0
mkdir -p "$fuzz_dir/crashes"
for t in "${targets[@]}"; do
  start=$(date +%s)
  if [[ $t == unpickle ]]; then
    PYTHONPATH=$root/python OMP_NUM_THREADS=1 /usr/bin/python3 "$root/tests/fuzz/unpickle_fuzz.py" \
      --seconds "$seconds" --seed "${SKIFF_FUZZ_SEED:-$RANDOM}" --crash-dir "$fuzz_dir/crashes" \
      || status=1
  else
    work=$fuzz_dir/corpus/$t
    mkdir -p "$work"
    cp -n "$(corpus_of "$t")"/* "$work"/ 2>/dev/null || true
    # -rss_limit_mb: a loader that allocates what a header claims is a finding, not an OOM kill.
    seed=()
    [[ -n ${SKIFF_FUZZ_SEED:-} ]] && seed=(-seed="$SKIFF_FUZZ_SEED")
    "$fuzz_dir/bin/$t" "${seed[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -print_final_stats=1 -artifact_prefix="$fuzz_dir/crashes/$t-" "$work" \
      2>"$fuzz_dir/$t.log" || { status=1; tail -40 "$fuzz_dir/$t.log"; }
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$fuzz_dir/$t.log" | sed "s/^/$t: /" || true
  fi
  echo "$t: $(( $(date +%s) - start )) s"
done
exit $status
