#!/usr/bin/python3
"""Groups a `perf report` of a Skiff run by operator: where the CPU time of a training step
goes. oneDNN's JIT code (matmuls) has no symbols and is reported as one line.

    perf record -F 999 -o /tmp/llama.perf -- /usr/bin/python3 bench/llama/llama_bench.py \\
        --impl skiff --steps 10
    /usr/bin/python3 bench/llama/perf_ops.py /tmp/llama.perf
"""
import collections
import re
import subprocess
import sys

RULES = [
    (r"^\[JIT\]", "oneDNN JIT kernels (matmul)"),
    (r"libdnnl", "oneDNN (non-JIT)"),
    (r"Arith\)0", "add"), (r"Arith\)1", "subtract"), (r"Arith\)2", "multiply"),
    (r"Arith\)3", "divide"),
    (r"skiff::ops::(?:cpu::)?(?:\(anonymous namespace\)::)?"
     r"([a-z0-9_]+?)_(?:cpu|impl|update|kernel)\b",
     None),
    (r"skiff::ops::cpu::run_avx512<skiff::ops::([a-z0-9_]+?)_cpu", None),
    (r"skiff::ops::\(anonymous namespace\)::([a-z0-9_]+)", None),
    (r"memmove|memcpy", "memcpy (copies: contiguous(), concat, ...)"),
    (r"memset", "memset (zero fills)"),
    (r"_int_malloc|_int_free|malloc|free\b|cfree", "malloc/free"),
    (r"\[kernel", "kernel (page faults, syscalls)"),
    (r"python3|_PyEval|Py", "Python interpreter"),
    (r"libgomp|libomp|gomp", "OpenMP runtime (waiting/sync)"),
]


def classify(dso, sym):
    text = f"{dso} {sym}"
    for pat, name in RULES:
        m = re.search(pat, text)
        if m:
            return name if name else m.group(1)
    return f"other: {dso.strip()} {sym.strip()[:60]}"


def main(path):
    out = subprocess.run(["perf", "report", "-i", path, "--no-children", "--sort", "dso,symbol",
                          "-F", "overhead,dso,sym", "--stdio"], capture_output=True,
                         text=True).stdout
    totals = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S.*?)\s{2,}\[[.k]\]\s+(.*)", line)
        if not m:
            continue
        totals[classify(m.group(2), m.group(3))] += float(m.group(1))
    for name, pct in totals.most_common(30):
        print(f"{pct:6.2f}%  {name}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "perf.data")
