"""Parameters of saved programs in the safetensors format (the format skiff::save/load use in
C++, so the C++ inference predictor reads what jit.save writes). See include/skiff/checkpoint.h."""
import json
import struct

import numpy as np

from .. import _C
from ..save_load import _write_atomic

_CODES = {"float32": "F32", "float64": "F64", "float16": "F16", "bfloat16": "BF16",
          "int64": "I64", "int32": "I32", "int16": "I16", "int8": "I8", "uint8": "U8",
          "bool": "BOOL"}
_NUMPY = {"F32": np.float32, "F64": np.float64, "F16": np.float16, "I64": np.int64,
          "I32": np.int32, "I16": np.int16, "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_}


def _dtype_name(t):
    return str(t.dtype).split(".")[-1]


def _raw(t):
    name = _dtype_name(t)
    if name == "bfloat16":
        # Every bfloat16 is exact in float32: its bits are the top half of the float32's.
        bits = np.ascontiguousarray(t.astype("float32").numpy()).view(np.uint32) >> 16
        return bits.astype("<u2").tobytes()
    return np.ascontiguousarray(t.numpy()).astype(np.dtype(_NUMPY[_CODES[name]]).newbyteorder("<"),
                                                  copy=False).tobytes()


def save_file(tensors, path, metadata=None):
    """Writes {name: Tensor} to `path` atomically."""
    header, blobs, offset = {}, [], 0
    for name, t in tensors.items():
        code = _CODES.get(_dtype_name(t))
        if code is None:
            raise TypeError(f"jit.save: parameter {name!r} has dtype {t.dtype}, which "
                            f"safetensors cannot hold")
        raw = _raw(t)
        header[name] = {"dtype": code, "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    _write_atomic(path, struct.pack("<Q", len(text)) + text + b"".join(blobs))


def load_file(path):
    """({name: Tensor}, metadata) from a safetensors file; clear errors for damaged files."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError(f"jit.load: {path}: truncated file ({len(data)} bytes)")
    (n,) = struct.unpack("<Q", data[:8])
    if 8 + n > len(data):
        raise ValueError(f"jit.load: {path}: header of {n} bytes runs past the end of the file")
    try:
        header = json.loads(data[8:8 + n])
    except ValueError as e:
        raise ValueError(f"jit.load: {path}: bad header: {e}") from None
    metadata = header.pop("__metadata__", {})
    body = memoryview(data)[8 + n:]
    tensors = {}
    for name, entry in header.items():
        code, shape, (begin, end) = entry["dtype"], entry["shape"], entry["data_offsets"]
        if end > len(body) or begin > end:
            raise ValueError(f"jit.load: {path}: tensor {name!r} lies outside the file")
        if code == "BF16":
            bits = np.frombuffer(body[begin:end], dtype="<u2").astype(np.uint32) << 16
            arr = bits.view(np.float32).reshape(shape)
            tensors[name] = _C.ops.cast(_C.Tensor(arr.copy()), "bfloat16")
            continue
        if code not in _NUMPY:
            raise ValueError(f"jit.load: {path}: tensor {name!r} has unknown dtype {code}")
        arr = np.frombuffer(body[begin:end], dtype=np.dtype(_NUMPY[code]).newbyteorder("<"))
        tensors[name] = _C.Tensor(arr.reshape(shape).astype(_NUMPY[code]).copy())
    return tensors, metadata
