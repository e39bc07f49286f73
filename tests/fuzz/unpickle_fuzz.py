"""Seeded mutation fuzzer for skiff.load's restricted unpickler (atheris is not available, so a
plain loop: byte flips, inserts, deletes, splices of two seeds, and swaps of global names).

Every input must either load or raise ValueError / TypeError / MemoryError (a clear error);
anything else is a finding, as is a global outside the allow-list being resolved. Inputs that
fail are written to --crash-dir; after a hard crash, `unpickle-<seed>-current.pkl` there is the
input that caused it. The address space is capped (--max-mb), so a mutated shape
cannot make the machine swap.

  python3 tests/fuzz/unpickle_fuzz.py --iterations 2000 --seed 1      # CI smoke (deterministic)
  python3 tests/fuzz/unpickle_fuzz.py --seconds 3600 --seed $RANDOM   # a long run
Exit status: 0 when nothing was found, 1 otherwise.
"""
import argparse
import glob
import io
import os
import pickle
import random
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus", "unpickle")

# Globals an attacker would name; spliced into seeds in place of the allowed ones.
EVIL = [b"posix\nsystem", b"os\nsystem", b"builtins\neval", b"builtins\nexec",
        b"builtins\ngetattr", b"subprocess\nPopen", b"builtins\n__import__",
        b"numpy\nload", b"numpy.testing\nrun_module_suite", b"skiff\nload", b"pickle\nloads"]


def seeds_from_save():
    """Pickles written by skiff.save (each protocol) of the kinds of objects it stores."""
    import collections

    import numpy as np

    import skiff
    lin = skiff.nn.Linear(3, 2)
    opt = skiff.optimizer.Adam(parameters=lin.parameters())
    lin(skiff.ones([1, 3])).sum().backward()
    opt.step()
    objs = [lin.state_dict(), opt.state_dict(), skiff.ones([2, 2]),
            {"a": [1, 2.5, "s", b"b", None, True, (1, 2)], "n": np.arange(3, dtype=np.int16),
             "s": {1, 2}, "c": 1 + 2j, "d": np.dtype("float16"), "f": np.float32(1.5)},
            collections.OrderedDict(w=skiff.ones([3], dtype="int64"))]
    out = []
    for o in objs:
        for protocol in (2, 3, 4):
            buf = io.BytesIO()
            skiff.save(o, buf, protocol=protocol)
            out.append(buf.getvalue())
    out.append(pickle.dumps(collections.OrderedDict(p=lin.weight)))  # Parameter.__reduce__
    return out


def load_seeds():
    seeds = seeds_from_save()
    for path in sorted(glob.glob(os.path.join(CORPUS, "*"))):
        with open(path, "rb") as f:
            seeds.append(f.read())
    return seeds


def mutate(rng, data, seeds):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        if op == 0 and data:  # flip bits of a byte
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        elif op == 1 and data:  # an interesting byte value
            data[rng.randrange(len(data))] = rng.choice([0, 1, 0x7F, 0x80, 0xFF, ord("."),
                                                         ord("R"), ord("b"), ord("c")])
        elif op == 2:  # insert random bytes
            i = rng.randrange(len(data) + 1)
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 3 and data:  # delete a run
            i = rng.randrange(len(data))
            del data[i:i + rng.randint(1, 16)]
        elif op == 4:  # splice the tail of another seed
            other = rng.choice(seeds)
            i, j = rng.randrange(len(data) + 1), rng.randrange(len(other) + 1)
            data[i:] = other[j:]
        else:  # name an evil global (protocol 0-style GLOBAL opcode at a random place)
            i = rng.randrange(len(data) + 1)
            data[i:i] = b"c" + rng.choice(EVIL) + b"\n"
    return bytes(data)


def check_one(data, skiff_load, allowed_errors):
    """None if `data` loads or fails cleanly, else a description of the finding."""
    try:
        skiff_load(io.BytesIO(data))
    except allowed_errors:
        return None
    except RecursionError:
        return None  # deep nesting is refused by Python's own limit: a clean error
    except Exception as e:  # noqa: BLE001 - every other exception is the finding
        return f"{type(e).__name__}: {e}"
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-mb", type=int, default=3072)
    ap.add_argument("--crash-dir", default=os.path.join(ROOT, "build", "fuzz-crashes"))
    args = ap.parse_args(argv)
    if not args.iterations and not args.seconds:
        args.iterations = 2000
    # ASan reserves terabytes of shadow address space, so an address-space cap would stop it at
    # start; under ASan the allocator's own size limit (scripts/sanitize.sh) plays that part.
    if "libasan" not in os.environ.get("LD_PRELOAD", ""):
        cap = args.max_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import skiff
    from skiff import _restricted_unpickle as ru

    # A resolved global outside the allow-list is a finding even if nothing then fails.
    resolved = []
    base_find = ru.RestrictedUnpickler.find_class

    def spying_find(self, module, name):
        obj = base_find(self, module, name)
        if (module, name) not in ru.ALLOWED_GLOBALS:
            resolved.append((module, name))
        return obj

    ru.RestrictedUnpickler.find_class = spying_find
    allowed = (ValueError, TypeError, MemoryError)
    seeds = load_seeds()
    for s in seeds:  # every seed itself loads
        skiff.load(io.BytesIO(s))
    rng = random.Random(args.seed)
    start, n, findings = time.time(), 0, []
    # Each input is written here before it runs: after a hard crash (a signal) it is the culprit.
    os.makedirs(args.crash_dir, exist_ok=True)
    current = os.path.join(args.crash_dir, f"unpickle-{args.seed}-current.pkl")
    while True:
        if args.iterations and n >= args.iterations:
            break
        if args.seconds and time.time() - start >= args.seconds:
            break
        data = mutate(rng, rng.choice(seeds), seeds)
        n += 1
        with open(current, "wb") as f:
            f.write(data)
        what = check_one(data, skiff.load, allowed)
        if resolved:
            what, resolved[:] = f"resolved a global outside the allow-list: {resolved}", []
        if what:
            os.makedirs(args.crash_dir, exist_ok=True)
            path = os.path.join(args.crash_dir, f"unpickle-{args.seed}-{n}.pkl")
            with open(path, "wb") as f:
                f.write(data)
            findings.append(f"{path}: {what}")
    os.unlink(current)
    elapsed = time.time() - start
    print(f"unpickle_fuzz: {n} inputs in {elapsed:.1f} s (seed {args.seed}), "
          f"{len(findings)} findings")
    for f in findings[:20]:
        print("  " + f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
