"""skiff.save / skiff.load (Paddle's paddle.save / paddle.load; Paddle keeps them in
paddle.framework.io, here a module of its own because skiff.framework is a module).

Format: a pickle (protocol 2-4) in which every Tensor is stored as the tuple (name, ndarray), the
form Paddle itself writes, so .pdparams/.pdopt files move between Paddle and Skiff both ways.
Loading turns those tuples back into Tensors (or keeps arrays with return_numpy=True). Files are
written atomically: a temporary file in the same directory, fsync, rename, fsync of the
directory; a crash mid-save leaves the previous file intact."""
import io as _pyio
import os
import pickle
import tempfile

import numpy as np

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
        return type(obj)((k, _restore(v, return_numpy)) for k, v in obj.items()) \
            if type(obj) is not dict else {k: _restore(v, return_numpy) for k, v in obj.items()}
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


def _write_atomic(path, data):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=directory)
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


def load(path, **configs):
    """Loads what save() wrote: Tensors come back as Tensors (or numpy arrays with
    return_numpy=True)."""
    return_numpy = bool(configs.pop("return_numpy", False))
    configs.pop("model_filename", None)
    configs.pop("params_filename", None)
    if configs:
        raise ValueError(f"load: unknown configs {sorted(configs)}")
    if hasattr(path, "read"):
        data = path.read()
        where = "the file object"
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
    try:
        obj = pickle.loads(data, encoding="latin1")
    except (pickle.UnpicklingError, EOFError, ValueError, AttributeError, ImportError,
            IndexError, TypeError) as e:
        raise ValueError(f"load: {where} is not a file written by skiff.save or paddle.save "
                         f"(truncated or corrupt?): {type(e).__name__}: {e}") from None
    return _restore(obj, return_numpy)
