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
