"""paddle.device.cuda: the GPU caching allocator's statistics. On a build without CUDA they
raise ValueError with a CPU-only Paddle's message (paddle.device.memory_allocated and its
siblings answer for the CPU's caching allocator)."""
from .. import _C


def _gpu(device, name):
    if not _C.is_compiled_with_cuda():
        raise ValueError(f"The API {name} is not supported in CPU-only PaddlePaddle. Please "
                         "reinstall PaddlePaddle with GPU support to call this API.")
    if device is None:
        return _C.get_device() if _C.get_device().startswith("gpu") else "gpu:0"
    if isinstance(device, bool) or not isinstance(device, (int, str, _C.Place)):
        raise ValueError(f"The device type {device} is not expected. Because {name} only support "
                         "int, str or paddle.CUDAPlace. Please input appropriate device again!")
    if isinstance(device, int):
        return f"gpu:{device}"
    if isinstance(device, str) and not device.startswith("gpu:"):
        raise ValueError(f"The current string {device} is not expected. Because {name} only "
                         "support string which is like 'gpu:x'. Please input appropriate string "
                         "again!")
    return device


def memory_allocated(device=None):
    return _C.memory_stats(_gpu(device, "paddle.device.cuda.memory_allocated"))["allocated_bytes"]


def max_memory_allocated(device=None):
    p = _gpu(device, "paddle.device.cuda.max_memory_allocated")
    return _C.memory_stats(p)["peak_allocated_bytes"]


def memory_reserved(device=None):
    return _C.memory_stats(_gpu(device, "paddle.device.cuda.memory_reserved"))["reserved_bytes"]


def max_memory_reserved(device=None):
    p = _gpu(device, "paddle.device.cuda.max_memory_reserved")
    return _C.memory_stats(p)["peak_reserved_bytes"]


def reset_max_memory_allocated(device=None):
    _C.reset_peak_memory_stats(_gpu(device, "paddle.device.cuda.reset_max_memory_allocated"),
                               "allocated")


def reset_max_memory_reserved(device=None):
    _C.reset_peak_memory_stats(_gpu(device, "paddle.device.cuda.reset_max_memory_reserved"),
                               "reserved")
