"""skiff.device: choose the device new tensors are created on (Paddle's paddle.device)."""
from .. import _C

from ..framework import is_compiled_with_cuda  # noqa: E402,F401


def set_device(device):
    """'cpu', 'gpu', 'gpu:1': creation ops allocate there from now on. Returns the Place."""
    return _C.set_device(device)


def get_device():
    """The current device as a string ('cpu', 'gpu:0')."""
    return _C.get_device()


def get_all_device_type():
    """'cpu', 'gpu' (with CUDA) and every loaded custom device type."""
    return (["cpu", "gpu"] if is_compiled_with_cuda() else ["cpu"]) + get_all_custom_device_type()


from .custom import (  # noqa: E402,F401
    CustomPlace, fallback_stats, get_all_custom_device_type, get_available_custom_device,
    get_fallback_policy, is_compiled_with_custom_device, load_plugin, plugin_info,
    reset_fallback_stats, set_fallback_policy, synchronize)


# Memory statistics of the caching allocator (skiff/device/best_fit_allocator.h). Paddle answers
# these only for GPU and custom devices (a CPU-only Paddle raises ValueError); Skiff's CPU
# tensors come from a caching allocator too, so here the CPU answers: `device` is None (the
# current device), 'cpu', 'gpu:x', a Place, or an int (a GPU id). paddle.device.cuda.* keep
# Paddle's CPU-only behaviour (device/cuda.py).

def _place(device, api):
    if device is None:
        return None
    if isinstance(device, bool) or not isinstance(device, (int, str, _C.Place)):
        raise ValueError(f"The device type {device} is not expected. Because {api} only support "
                         "int, str (format 'gpu:x' or '<custom_device>:x'), paddle.CUDAPlace or "
                         "paddle.CustomPlace. Please input appropriate device again!")
    if isinstance(device, int):
        if device < 0:
            raise ValueError(f"{api}: argument 'device' expected a device id >= 0, got {device}")
        if not is_compiled_with_cuda():
            raise ValueError(f"{api}: argument 'device' expected 'cpu', a Place or None (the id "
                             f"{device} names a GPU and this build has no CUDA), got {device}")
        return f"gpu:{device}"
    if isinstance(device, str) and device.startswith("gpu") and not is_compiled_with_cuda():
        raise ValueError(f"{api}: argument 'device' expected 'cpu', a Place or None (this build "
                         f"has no CUDA), got {device!r}")
    return device


def memory_allocated(device=None):
    """Bytes held by live tensors on `device` (the current one by default)."""
    return _C.memory_stats(_place(device, "paddle.device.memory_allocated"))["allocated_bytes"]


def max_memory_allocated(device=None):
    """The peak of memory_allocated since the start or the last reset_max_memory_allocated."""
    p = _place(device, "paddle.device.max_memory_allocated")
    return _C.memory_stats(p)["peak_allocated_bytes"]


def memory_reserved(device=None):
    """Bytes the caching allocator holds from the device (in use or cached)."""
    return _C.memory_stats(_place(device, "paddle.device.memory_reserved"))["reserved_bytes"]


def max_memory_reserved(device=None):
    """The peak of memory_reserved since the start or the last reset_max_memory_reserved."""
    p = _place(device, "paddle.device.max_memory_reserved")
    return _C.memory_stats(p)["peak_reserved_bytes"]


def reset_max_memory_allocated(device=None):
    """Starts max_memory_allocated over from the current memory_allocated."""
    _C.reset_peak_memory_stats(_place(device, "paddle.device.reset_max_memory_allocated"),
                               "allocated")


def reset_max_memory_reserved(device=None):
    """Starts max_memory_reserved over from the current memory_reserved."""
    _C.reset_peak_memory_stats(_place(device, "paddle.device.reset_max_memory_reserved"),
                               "reserved")


from . import cuda  # noqa: E402,F401
