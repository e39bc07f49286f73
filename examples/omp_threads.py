"""Thread count for the example jobs, chosen before skiff (OpenMP) is imported.

--threads N, or auto: every core unless the machine is already busy. On an oversubscribed machine
OpenMP's barriers wait for descheduled threads and two threads run several times slower than one.
"""
import os


def choose_threads(argv):
    """Sets OMP_NUM_THREADS from argv (unless the environment already does) and returns a note
    saying how many threads and why."""
    if "OMP_NUM_THREADS" in os.environ:
        return f"{os.environ['OMP_NUM_THREADS']} (OMP_NUM_THREADS)"
    want = "auto"
    for i, a in enumerate(argv):
        if a == "--threads" and i + 1 < len(argv):
            want = argv[i + 1]
        elif a.startswith("--threads="):
            want = a.split("=", 1)[1]
    cores = os.cpu_count() or 1
    if want == "auto":
        busy = os.getloadavg()[0]
        n = cores if busy < 0.5 * cores else 1
        why = f"auto: load average {busy:.1f} on {cores} cores"
    else:
        n, why = int(want), "--threads"
    os.environ["OMP_NUM_THREADS"] = str(n)
    return f"{n} ({why})"
