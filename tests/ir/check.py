#!/usr/bin/env python3
"""Runs one textual IR test file through skiff-opt and checks the output (a tiny FileCheck).

A file holds one or more cases separated by a line `// -----`. Each case has:
  // RUN: <skiff-opt arguments>       (e.g. --passes=cse,dce); none means parse/verify/print
  // CHECK: text          the next output line containing `text` (in order)
  // CHECK-NEXT: text     the line right after the previous match contains `text`
  // CHECK-NOT: text      no line between the previous and the next match contains `text`
  // CHECK-ERROR: text    skiff-opt must fail and its error message must contain `text`
Whitespace runs compare as one space. Every successful case is also printed, parsed and printed
again: the text form must be a fixed point.

usage: check.py SKIFF_OPT FILE
"""
import re
import subprocess
import sys


def norm(s):
    return re.sub(r"\s+", " ", s.strip())


def run(opt, args, text):
    p = subprocess.run([opt] + args + ["-"], input=text, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check_case(opt, case, index):
    lines = case.splitlines()
    args, checks = [], []
    for ln in lines:
        m = re.match(r"\s*//\s*(RUN|CHECK|CHECK-NEXT|CHECK-NOT|CHECK-ERROR):\s?(.*)$", ln)
        if not m:
            continue
        if m.group(1) == "RUN":
            args += m.group(2).split()
        else:
            checks.append((m.group(1), norm(m.group(2))))
    rc, out, err = run(opt, args, case)
    errors = [c for c in checks if c[0] == "CHECK-ERROR"]
    where = f"case {index}"
    if errors:
        if rc == 0:
            return f"{where}: expected failure, got success:\n{out}"
        for _, text in errors:
            if text not in norm(err):
                return f"{where}: error message lacks '{text}':\n{err}"
        return None
    if rc != 0:
        return f"{where}: skiff-opt failed ({rc}):\n{err}"
    out_lines = [norm(x) for x in out.splitlines()]
    pos, nots = 0, []
    last = -1
    for kind, text in checks:
        if kind == "CHECK-NOT":
            nots.append(text)
            continue
        if kind == "CHECK-NEXT":
            if last + 1 >= len(out_lines) or text not in out_lines[last + 1]:
                got = out_lines[last + 1] if last + 1 < len(out_lines) else "<end>"
                return f"{where}: CHECK-NEXT '{text}' not on the next line; got '{got}'\n{out}"
            found = last + 1
        else:
            found = next((i for i in range(pos, len(out_lines)) if text in out_lines[i]), None)
            if found is None:
                return f"{where}: CHECK '{text}' not found after line {pos}:\n{out}"
        for n in nots:
            for i in range(pos, found):
                if n in out_lines[i]:
                    return f"{where}: CHECK-NOT '{n}' found on line {i}:\n{out}"
        nots = []
        last, pos = found, found + 1
    for n in nots:
        for i in range(pos, len(out_lines)):
            if n in out_lines[i]:
                return f"{where}: CHECK-NOT '{n}' found on line {i}:\n{out}"
    rc2, out2, err2 = run(opt, [], out)
    if rc2 != 0:
        return f"{where}: printed output does not parse back:\n{err2}\n{out}"
    if out2 != out:
        return f"{where}: print -> parse -> print is not a fixed point:\n{out}\n---\n{out2}"
    return None


def main():
    opt, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        cases = re.split(r"^// -----\s*$", f.read(), flags=re.M)
    failures = [e for i, c in enumerate(cases) if (e := check_case(opt, c, i))]
    for e in failures:
        print(f"{path}: {e}")
    print(f"{path}: {len(cases) - len(failures)}/{len(cases)} cases passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
