"""The training text: the docstrings of Python's standard library plus Debian's license texts
(/usr/share/common-licenses). Both are on every Debian 12 machine that has python3 (a build
dependency), so nothing is downloaded. A few MB of English prose about programming."""
import ast
import os
import sysconfig

LICENSES = "/usr/share/common-licenses"


def _docstrings(path):
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (SyntaxError, UnicodeDecodeError, ValueError, OSError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node)
            if doc and len(doc) >= 40:
                out.append(doc.strip())
    return out


def stdlib_files():
    root = sysconfig.get_paths()["stdlib"]
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames
                             if d not in ("test", "tests", "idlelib", "site-packages",
                                          "dist-packages", "lib2to3", "__pycache__")
                             and not d.startswith("config-"))
        if rel.split(os.sep)[0] in ("test", "tests"):
            continue
        files.extend(os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".py"))
    return files


def build_corpus(max_bytes=None):
    """The corpus text (deterministic for a given machine)."""
    parts = []
    size = 0
    for path in stdlib_files():
        docs = _docstrings(path)
        parts.extend(docs)
        size += sum(len(d) + 2 for d in docs)
        if max_bytes is not None and size >= max_bytes:
            break
    if os.path.isdir(LICENSES):
        for name in sorted(os.listdir(LICENSES)):
            p = os.path.join(LICENSES, name)
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, encoding="utf-8", errors="replace") as f:
                    parts.append(f.read().strip())
    text = "\n\n".join(parts) + "\n"
    if max_bytes is not None:
        text = text[:max_bytes]
    return text


def load_or_build(path, max_bytes=None):
    """Reads the corpus cached at `path`, building (and caching) it on first use."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return f.read()
    text = build_corpus(max_bytes)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return text


if __name__ == "__main__":
    t = build_corpus()
    print(f"{len(t):,} characters, {len(t.encode('utf-8')):,} bytes")
    print(t[:500])
