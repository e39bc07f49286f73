"""Checks shared by the weight reparametrizations (weight_norm, spectral_norm) before they
register their forward pre-hook on a layer's parameter."""


def reparametrized_parameter(layer, name, hook_type, op):
    """The parameter `name` of `layer`, refusing a second `hook_type` hook on it and a name that
    is not a parameter, with Paddle's error classes; `op` names the API in the message."""
    for hook in layer._forward_pre_hooks.values():
        if isinstance(hook, hook_type) and hook.name == name:
            raise RuntimeError(f"(AlreadyExists) {op}: cannot register two {op} hooks on the "
                               f"same parameter {name!r}")
    if name not in layer._parameters or layer._parameters[name] is None:
        raise ValueError(f"(InvalidArgument) {op}: argument 'name' expected a parameter of "
                         f"{type(layer).__name__}, got {name!r}")
    return layer._parameters[name]
