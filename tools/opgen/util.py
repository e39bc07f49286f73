"""Small helpers shared by the reader and the emitters."""
import os


def camel(name):
    return "".join(p.capitalize() for p in name.split("_"))


def split_top(text, sep=","):
    """Splits on `sep` outside brackets and quotes."""
    parts, depth, cur, quote = [], 0, "", False
    for ch in text:
        if ch == '"':
            quote = not quote
        elif not quote and ch in "([{":
            depth += 1
        elif not quote and ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0 and not quote:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def write_if_changed(path, text):
    """Writes `path` only when its content changes (keeps the build from recompiling), through a
    temporary file and a rename, so an interrupted run leaves no half-written file."""
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
