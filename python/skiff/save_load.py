"""skiff.save / skiff.load (Paddle's paddle.save / paddle.load; Paddle keeps them in
paddle.framework.io, here a module of its own because skiff.framework is a module).

Format: a pickle (protocol 2-4) in which every Tensor is stored as the tuple (name, ndarray), the
form Paddle itself writes, so .pdparams/.pdopt files move between Paddle and Skiff both ways.
Loading turns those tuples back into Tensors (or keeps arrays with return_numpy=True).

Loading runs no code from the file: the pickle goes through `_restricted_unpickle`, which builds
only tensors, numpy arrays and Python containers and scalars and refuses any other global by
name. `load(path, weights_only=False)` (a Skiff keyword, PyTorch's name for it) restores
arbitrary pickles; use it only for files from a source you trust. `load` also reads the
safetensors files that the C++ front end (`skiff::save`) writes, as a dict name -> Tensor.

Files are written atomically: a temporary `<path>.tmp.<pid>.<random>` in the same directory
(created with mode 0666 less the umask, as the C++ writer does), fsync, rename, fsync of the
directory; a crash mid-save leaves the previous file intact, and the next save to that path
removes temporaries whose writing process no longer exists."""
import io as _pyio
import os
import pickle
import secrets

import numpy as np

from ._restricted_unpickle import UnsafePickleError, restricted_loads

__all__ = ["save", "load"]


def _tensor_class():
    from . import Tensor
    return Tensor


def _to_numpy(t):
    # A copy detached from the tensor's memory: the pickle is written later.
    return t.numpy()


def _reduce_tensor(t):
    name = getattr(t, "name", None) or ""
    return (tuple, ((name, _to_numpy(t)),))


def _is_saved_tensor(obj):
    return (isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str)
            and isinstance(obj[1], np.ndarray))


def _restore(obj, return_numpy):
    """Walks the loaded structure turning (name, ndarray) tuples into Tensors."""
    if _is_saved_tensor(obj):
        if return_numpy:
            return obj[1]
        from . import to_tensor
        t = to_tensor(obj[1])
        return t
    if isinstance(obj, dict):
        # In place: the object was just unpickled, and a dict subclass (OrderedDict, or any
        # mapping under weights_only=False) keeps its type and extra state.
        for k in list(obj):
            obj[k] = _restore(obj[k], return_numpy)
        return obj
    if isinstance(obj, list):
        return [_restore(v, return_numpy) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_restore(v, return_numpy) for v in obj)
    return obj


class _Pickler(pickle.Pickler):
    """Pickles Tensors (and subclasses such as Parameter) as Paddle's (name, ndarray) tuple."""

    def __init__(self, file, protocol, tensor_cls):
        super().__init__(file, protocol)
        self._tensor_cls = tensor_cls

    def reducer_override(self, obj):
        if isinstance(obj, self._tensor_cls):
            return _reduce_tensor(obj)
        return NotImplemented


def _dumps(obj, protocol):
    buf = _pyio.BytesIO()
    _Pickler(buf, protocol, _tensor_class()).dump(obj)
    return buf.getvalue()


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's live process (or not a pid): leave its file alone
    return True


def _remove_stale_temps(directory, base):
    """Removes `<base>.tmp.<pid>.<random>` files left by saves killed mid-write (same naming as
    the C++ writer, checkpoint.cc), skipping those whose process still runs."""
    prefix = base + ".tmp."
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if not name.startswith(prefix):
            continue
        pid = name[len(prefix):].split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _pid_alive(int(pid)):
            continue
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass


def _write_atomic(path, data):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    base = os.path.basename(path)
    _remove_stale_temps(directory, base)
    tmp = os.path.join(directory, f"{base}.tmp.{os.getpid()}.{secrets.token_hex(6)}")
    # 0666 less the umask: the mode of an ordinary new file, and of the C++ writer's files.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    dfd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def save(obj, path, protocol=4, **configs):
    """Saves `obj` (a Tensor, a state dict, or nested dicts/lists of Tensors, arrays and Python
    values) to `path` (a file name or a writable binary file object)."""
    if not isinstance(protocol, int) or isinstance(protocol, bool):
        raise ValueError("save: argument 'protocol' expected an int, got "
                         f"{type(protocol).__name__}")
    if protocol < 2 or protocol > 4:
        raise ValueError(f"Expected 1<'protocol'<5, but received protocol={protocol}")
    unknown = set(configs) - {"use_binary_format"}
    if unknown:
        raise ValueError(f"save: unknown configs {sorted(unknown)}")
    data = _dumps(obj, protocol)
    if hasattr(path, "write"):
        path.write(data)
        return
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError("save: argument 'path' expected a str, os.PathLike or a binary file "
                        f"object, got {type(path).__name__}")
    path = os.fspath(path)
    if path == "" or path.endswith(os.sep) or os.path.isdir(path):
        raise ValueError(f"save: argument 'path' expected a file name, got a directory: '{path}'")
    _write_atomic(path, data)


_CORRUPT_PICKLE_ERRORS = (pickle.UnpicklingError, EOFError, ValueError, AttributeError,
                          ImportError, IndexError, TypeError, KeyError, OverflowError,
                          RecursionError, LookupError)


def _is_safetensors(data):
    # safetensors: an 8-byte little-endian header length, then a JSON object. A pickle of
    # protocol >= 2 starts with 0x80, so the two never look alike.
    return len(data) >= 10 and data[:1] != b"\x80" and data[8:9] == b"{"


def _load_safetensors(path, where, return_numpy):
    from . import _C
    try:
        items, _metadata = _C.load_safetensors(path)
    except OSError as e:
        raise ValueError(f"load: {where} is a damaged safetensors file: {e}") from None
    if return_numpy:
        return {name: t.numpy() for name, t in items}
    return dict(items)


def load(path, **configs):
    """Loads what save() wrote: Tensors come back as Tensors (or numpy arrays with
    return_numpy=True). Also reads safetensors files (C++ `skiff::save`) as a dict of Tensors.

    configs: return_numpy (bool, default False); model_filename, params_filename (accepted
    for Paddle compatibility, unused); weights_only (bool, default True): the file may build
    only tensors, arrays and Python containers and scalars, and a pickle naming any other
    global is refused with an error naming it. weights_only=False unpickles anything, which
    runs whatever code the file names: only for files from a source you trust."""
    return_numpy = bool(configs.pop("return_numpy", False))
    weights_only = configs.pop("weights_only", True)
    if not isinstance(weights_only, bool):
        raise TypeError("load: argument 'weights_only' expected a bool, got "
                        f"{type(weights_only).__name__}")
    configs.pop("model_filename", None)
    configs.pop("params_filename", None)
    if configs:
        raise ValueError(f"load: unknown configs {sorted(configs)}")
    if hasattr(path, "read"):
        data = path.read()
        where = "the file object"
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError("load: argument 'path' expected a binary file object, got one whose "
                            f"read() returns {type(data).__name__}")
    else:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError("load: argument 'path' expected a str, os.PathLike or a binary file "
                            f"object, got {type(path).__name__}")
        path = os.fspath(path)
        if not os.path.exists(path):
            raise ValueError(f"load: file '{path}' does not exist")
        if os.path.isdir(path):
            raise ValueError(f"load: argument 'path' expected a file, got a directory: '{path}'")
        with open(path, "rb") as f:
            data = f.read()
        where = f"'{path}'"
        if _is_safetensors(data):
            return _load_safetensors(path, where, return_numpy)
    try:
        if weights_only:
            obj = restricted_loads(data, where=where, encoding="latin1")
        else:
            obj = pickle.loads(data, encoding="latin1")
    except (UnsafePickleError, MemoryError):
        raise
    except Exception as e:  # noqa: BLE001
        # Under weights_only only allow-listed constructors ran, so any failure (numpy's and
        # CPython's internal SystemError/RuntimeError included) means a damaged file; an
        # arbitrary pickle keeps exceptions that are not the unpickler's own.
        if not weights_only and not isinstance(e, _CORRUPT_PICKLE_ERRORS):
            raise
        raise ValueError(f"load: {where} is not a file written by skiff.save or paddle.save "
                         f"(truncated or corrupt?): {type(e).__name__}: {e}") from None
    return _restore(obj, return_numpy)
