"""paddle.get_flags / paddle.set_flags: the registry of the FLAGS_* Skiff honours.

Each flag has a type, a default (overridden at import by an environment variable of the same
name, as Paddle reads FLAGS_* from the environment) and an effect: setting one calls its apply
function, so `set_flags({'FLAGS_check_nan_inf': True})` really turns the check on. A name that is
not registered raises ValueError, as Paddle does for flags that are not public.

The flags:
- FLAGS_check_nan_inf (bool): every Layer call checks its Tensor inputs and outputs for nan/inf
  (skiff.amp.debugging.check_numerics) and raises naming the layer and the tensor.
- FLAGS_call_stack_level (int): 0/1 strip the C++ frames of error messages (Paddle's levels; Skiff's
  messages carry no C++ stack at any level), 2 keeps them; read, range checked.
- FLAGS_set_to_1d (bool): Paddle's 0-D compatibility switch; Skiff always keeps 0-D results.
- FLAGS_use_mkldnn (bool): oneDNN kernels (the CPU build always uses them where they exist).
- FLAGS_cudnn_deterministic / FLAGS_embedding_deterministic (bool/int): Skiff's CPU kernels are
  deterministic already; the values are kept for code that reads them back.
"""
import os

__all__ = ["get_flags", "set_flags"]


def _to_bool(name, value):
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("1", "0", "true", "false"):
        return value.lower() in ("1", "true")
    raise TypeError(f"(InvalidType) set_flags: flag '{name}' expected a bool, got "
                    f"{type(value).__name__} {value!r}")


def _to_int(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError(f"(InvalidType) set_flags: flag '{name}' expected an int, got "
                        f"{type(value).__name__} {value!r}")
    try:
        return int(value)
    except ValueError:
        raise TypeError(f"(InvalidType) set_flags: flag '{name}' expected an int, got "
                        f"{value!r}") from None


def _apply_check_nan_inf(on):
    from .nn.layer import layers
    layers._set_check_nan_inf(on)


def _check_call_stack_level(level):
    if level not in (0, 1, 2):
        raise ValueError(f"(InvalidArgument) set_flags: flag 'FLAGS_call_stack_level' expected "
                         f"0, 1 or 2, got {level}")


class _Flag:
    def __init__(self, convert, default, apply=None):
        self.convert = convert
        self.value = default
        self.apply = apply


_REGISTRY = {
    "FLAGS_check_nan_inf": _Flag(_to_bool, False, _apply_check_nan_inf),
    "FLAGS_call_stack_level": _Flag(_to_int, 1, _check_call_stack_level),
    "FLAGS_set_to_1d": _Flag(_to_bool, False),
    "FLAGS_use_mkldnn": _Flag(_to_bool, True),
    "FLAGS_cudnn_deterministic": _Flag(_to_bool, False),
    "FLAGS_embedding_deterministic": _Flag(_to_int, 0),
}


def _set(name, value):
    flag = _REGISTRY[name]
    v = flag.convert(name, value)
    if flag.apply is not None:
        flag.apply(v)
    flag.value = v


def _read_environment():
    """FLAGS_* environment variables set the initial values (as in Paddle); a value that does
    not parse is reported and ignored, so a stray variable cannot stop `import skiff`."""
    import warnings
    for name in _REGISTRY:
        if name in os.environ:
            try:
                _set(name, os.environ[name])
            except (TypeError, ValueError) as e:
                warnings.warn(f"ignoring the environment variable {name}: {e}")


def _names(flags, what):
    if isinstance(flags, str):
        return [flags]
    if isinstance(flags, (list, tuple)):
        for f in flags:
            if not isinstance(f, str):
                raise TypeError(f"{what}: flag names expected str, got {type(f).__name__}")
        return list(flags)
    raise TypeError("Flags in get_flags should be a list, tuple or string.")


def get_flags(flags):
    """{name: value} for a flag name or a list/tuple of names (Paddle's get_flags)."""
    out = {}
    for name in _names(flags, "get_flags"):
        if name not in _REGISTRY:
            raise ValueError(f"Flag {name} cannot get its value through this function.")
        out[name] = _REGISTRY[name].value
    return out


def set_flags(flags):
    """Sets each flag of the dict {name: value} (Paddle's set_flags); all names are checked
    before any is set."""
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    for name in flags:
        if name not in _REGISTRY:
            raise ValueError(f"Flag {name} cannot set its value through this function.")
    for name, value in flags.items():
        _set(name, value)
