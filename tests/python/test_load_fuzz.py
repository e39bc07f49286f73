"""A fixed-seed smoke of the restricted unpickler's fuzzer (tests/fuzz/unpickle_fuzz.py): the
same 2,000 mutated pickles every run (no spurious failures), in a subprocess whose address space
is capped. Long runs: scripts/fuzz.sh unpickle SECONDS."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_unpickle_fuzz_smoke(tmp_path):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=os.path.join(ROOT, "python"))
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "fuzz", "unpickle_fuzz.py"),
                        "--iterations", "2000", "--seed", "1", "--crash-dir", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 findings" in r.stdout
