"""Custom (plugin) devices: Paddle's CustomDevice API over Skiff's device plugin ABI
(include/skiff/c/device_ext.h, docs/DEVICE_PLUGIN.md).

Plugins in SKIFF_PLUGIN_PATH or CUSTOM_DEVICE_ROOT load when skiff is imported; load_plugin
loads one later. Ops without a kernel on the device run on the CPU with copies
(fallback_stats() lists them); SKIFF_DEVICE_FALLBACK=error or set_fallback_policy('error')
turns those into errors.
"""
from .. import _C

_dev = _C.device
_dev._init_devices()  # loads the plugins named by the environment


def load_plugin(path):
    """Loads the device plugin at `path` (a shared library); returns its device type."""
    return _dev.load_plugin(str(path))


def get_all_custom_device_type():
    """The device types of the loaded plugins, e.g. ['emu_npu']."""
    return list(_dev.custom_device_types())


def get_available_custom_device():
    """Every device of the loaded plugins, e.g. ['emu_npu:0', 'emu_npu:1']."""
    return list(_dev.custom_devices())


def is_compiled_with_custom_device(device_type):
    """True if a plugin of `device_type` is loaded (Skiff needs no rebuild for a device)."""
    return device_type in get_all_custom_device_type()


# paddle.CustomPlace('emu_npu', 0): a class (isinstance works), a Place whose type is a loaded
# plugin's (skiff/python/framework_bind.cc, Note [Place classes]).
CustomPlace = _C.CustomPlace


def plugin_info(device_type):
    """The plugin behind `device_type`: path, vendor, ABI version, kernels (or None)."""
    return _dev.plugin_info(device_type)


def fallback_stats():
    """Ops that ran on the CPU instead of a custom device since the start or the last reset:
    a list of dicts with op, device, dtype, reason, count and time_ms, sorted by op."""
    return list(_dev.fallback_stats())


def reset_fallback_stats():
    _dev.reset_fallback_stats()


def set_fallback_policy(policy):
    """'warn' (run on the CPU, warn once per op and dtype), 'silent', or 'error'."""
    _dev.set_fallback_policy(policy)


def get_fallback_policy():
    return _dev.get_fallback_policy()


def synchronize(device=None):
    """Waits for the work queued on `device` (the current device by default)."""
    _dev.synchronize_device(device if device is not None else _C.get_device())
