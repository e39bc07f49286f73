"""skiff.device: choose the device new tensors are created on (Paddle's paddle.device)."""
from .. import _C

is_compiled_with_cuda = _C.is_compiled_with_cuda


def set_device(device):
    """'cpu', 'gpu', 'gpu:1': creation ops allocate there from now on. Returns the Place."""
    return _C.set_device(device)


def get_device():
    """The current device as a string ('cpu', 'gpu:0')."""
    return _C.get_device()


def get_all_device_type():
    return ["cpu", "gpu"] if is_compiled_with_cuda() else ["cpu"]


def memory_allocated(device=None):
    """Bytes held by live tensors on `device` (the current one by default)."""
    return _C.memory_stats(device)["allocated_bytes"]


def max_memory_allocated(device=None):
    """The peak of memory_allocated since the start or the last reset_max_memory_allocated."""
    return _C.memory_stats(device)["peak_allocated_bytes"]


def memory_reserved(device=None):
    """Bytes the caching allocator holds from the device (in use or cached)."""
    return _C.memory_stats(device)["reserved_bytes"]


def reset_max_memory_allocated(device=None):
    _C.reset_peak_memory_stats(device)
