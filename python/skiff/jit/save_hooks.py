"""Paddle's jit.save pre-save hooks: functions called as hook(layer, input_spec, configs) by
every jit.save before it captures and writes, in the order they were hung (each at most once).
hang_a_pre_save_hook returns a handle whose remove() takes the hook off again."""
import threading

_hooks = []
_lock = threading.Lock()


class HookRemoveHelper:
    """Removes the hook it was returned for."""

    def __init__(self, hook):
        self._hook = hook

    def remove(self):
        delete_a_pre_save_hook(self._hook)


def hang_a_pre_save_hook(hook):
    if not callable(hook):
        raise TypeError(f"hang_a_pre_save_hook: argument 'hook' expected a callable, got "
                        f"{type(hook).__name__}")
    with _lock:
        if hook not in _hooks:
            _hooks.append(hook)
    return HookRemoveHelper(hook)


def delete_a_pre_save_hook(hook):
    with _lock:
        if hook in _hooks:
            _hooks.remove(hook)


def clear_pre_save_hooks():
    with _lock:
        _hooks.clear()


def run_pre_save_hooks(layer, input_spec, configs):
    with _lock:
        hooks = list(_hooks)
    for hook in hooks:
        hook(layer, input_spec, configs)
