"""nn.Layer, the base class of every model part (Paddle's paddle.nn.Layer)."""
import collections
import re
import warnings

from ... import Tensor
from ...profiler.utils import RecordEvent as _ProfilerEvent, TracerEventType as _EventType
from ...profiler.utils import _is_enabled as _profiling
from .. import unique_name
from ..parameter import EagerParamBase, make_parameter

_FORWARD = _EventType.Forward
_CHECK_NAN_INF = [False]  # FLAGS_check_nan_inf (skiff.flags): check every layer call


def _set_check_nan_inf(on):
    _CHECK_NAN_INF[0] = bool(on)


def _check_nan_inf(layer, inputs, outputs):
    """Raises (skiff.amp.debugging.check_numerics) if a dense float input or output of the
    layer call holds nan or inf; symbolic tensors of a static program are skipped."""
    from ...amp.debugging import check_numerics
    outs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    for kind, ts in (("input", inputs), ("output", outs)):
        for i, t in enumerate(ts):
            if isinstance(t, Tensor) and not t.is_symbolic and t.dtype.is_floating_point:
                check_numerics(t, type(layer).__name__, f"{kind}{i}")

__all__ = ["Layer"]


def _camel_to_snake(name):
    """Paddle's rule: Conv2D -> conv2d, MaxPool2D -> max_pool2d, ReLU -> re_lu (no split after a
    digit)."""
    s1 = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", s1).lower()


class HookRemoveHelper:
    """Returned by register_forward_*_hook; remove() unregisters the hook."""

    _next_id = 0

    def __init__(self, hooks):
        self._hooks = hooks
        self._id = HookRemoveHelper._next_id
        HookRemoveHelper._next_id += 1

    def remove(self):
        self._hooks.pop(self._id, None)


class Layer:
    """Base class of layers: owns parameters, buffers and sublayers registered by attribute
    assignment; `layer(x)` runs forward with the forward pre/post hooks."""

    def __init__(self, name_scope=None, dtype="float32"):
        self.training = True
        if name_scope is None:
            name_scope = _camel_to_snake(type(self).__name__)
        self._full_name = unique_name.generate(name_scope)
        self._helper_name = self._full_name
        self._dtype = dtype
        self._parameters = collections.OrderedDict()
        self._buffers = collections.OrderedDict()
        self._non_persistable_buffer_names_set = set()
        self._sub_layers = collections.OrderedDict()
        self._forward_pre_hooks = collections.OrderedDict()
        self._forward_post_hooks = collections.OrderedDict()
        self._casted_by_pure_fp16 = False
        self._state_dict_hooks = collections.OrderedDict()

    # ------------------------------------------------------------------ modes
    def train(self):
        """Training mode for this layer and its sublayers (dropout active, batch stats)."""
        self.training = True
        for layer in self.sublayers():
            layer.training = True
        return self

    def eval(self):
        self.training = False
        for layer in self.sublayers():
            layer.training = False
        return self

    def full_name(self):
        return self._full_name

    # ------------------------------------------------------------------ calling
    def forward(self, *inputs, **kwargs):
        raise NotImplementedError(f"Layer '{type(self).__name__}' does not implement forward")

    def __call__(self, *inputs, **kwargs):
        if self._forward_pre_hooks:
            for hook in list(self._forward_pre_hooks.values()):
                result = hook(self, inputs)
                if result is not None:
                    inputs = result if isinstance(result, tuple) else (result,)
        if _profiling():  # a Forward range per layer call, as Paddle's profiler shows
            with _ProfilerEvent(type(self).__name__, _FORWARD):
                outputs = self.forward(*inputs, **kwargs)
        else:
            outputs = self.forward(*inputs, **kwargs)
        if self._forward_post_hooks:
            for hook in list(self._forward_post_hooks.values()):
                result = hook(self, inputs, outputs)
                if result is not None:
                    outputs = result
        if _CHECK_NAN_INF[0]:
            _check_nan_inf(self, inputs, outputs)
        return outputs

    def register_forward_pre_hook(self, hook):
        """hook(layer, inputs) -> None or new inputs; runs before forward."""
        helper = HookRemoveHelper(self._forward_pre_hooks)
        self._forward_pre_hooks[helper._id] = hook
        return helper

    def register_forward_post_hook(self, hook):
        """hook(layer, inputs, outputs) -> None or new outputs; runs after forward."""
        helper = HookRemoveHelper(self._forward_post_hooks)
        self._forward_post_hooks[helper._id] = hook
        return helper

    # ------------------------------------------------------------------ creation
    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False,
                         default_initializer=None):
        """A new parameter named `<layer full name>.w_<n>` (or `.b_<n>`), initialized by the
        attr's initializer, else the global one, else default_initializer, else Xavier
        uniform (weights) / zeros (biases). attr=False returns None."""
        if dtype is None:
            dtype = self._dtype
        return make_parameter(shape, attr, dtype, is_bias, default_initializer,
                              name_prefix=self._full_name)

    def create_variable(self, name=None, persistable=None, dtype=None):
        from ... import zeros
        t = zeros([0], dtype=dtype or self._dtype)
        t.name = name or unique_name.generate(self._full_name + ".var")
        t.persistable = bool(persistable)
        return t

    def create_tensor(self, name=None, persistable=None, dtype=None):
        return self.create_variable(name, persistable, dtype)

    def add_parameter(self, name, parameter):
        """Registers `parameter` (or None) under `name`."""
        if "_parameters" not in self.__dict__:
            raise RuntimeError("super().__init__() should be called first")
        if not isinstance(name, str):
            raise TypeError(f"The name of parameter should be a string, but received "
                            f"{type(name).__name__}.")
        if "." in name:
            raise KeyError("The name of parameter can not contain `.`, because when you access "
                           "the newly added parameter in the form of `self.**.**`, it will cause "
                           "AttributeError.")
        if name == "":
            raise KeyError("The name of parameter can not be empty.")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"The parameter '{name}' already exists.")
        if parameter is not None and not isinstance(parameter, EagerParamBase):
            raise TypeError(f"The parameter to be added should be a Parameter, but received "
                            f"{type(parameter).__name__}.")
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name, sublayer):
        if sublayer is not None and not isinstance(sublayer, Layer):
            raise TypeError(f"The sublayer to be added should be a Layer, but received "
                            f"{type(sublayer).__name__}.")
        self._sub_layers[str(name)] = sublayer
        return sublayer

    def register_buffer(self, name, tensor, persistable=True):
        """A tensor the layer owns that is not trained (e.g. running statistics); persistable
        buffers are in state_dict."""
        if "_buffers" not in self.__dict__:
            raise ValueError("super().__init__() should be called first")
        if not isinstance(name, str):
            raise TypeError(f"The name of buffer should be a string, but received "
                            f"{type(name).__name__}.")
        if "." in name:
            raise KeyError("The name of buffer can not contain `.`")
        if name == "":
            raise KeyError("The name of buffer can not be empty.")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists.")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"The registered buffer should be a Tensor, but received "
                            f"{type(tensor).__name__}.")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    # ------------------------------------------------------------------ traversal
    def parameters(self, include_sublayers=True):
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_parameters(self, prefix="", include_sublayers=True, remove_duplicate=True):
        seen = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers \
            else [(prefix, self)]
        for layer_prefix, layer in layers:
            for name, p in layer._parameters.items():
                if p is None or (remove_duplicate and id(p) in seen):
                    continue
                seen.add(id(p))
                yield (layer_prefix + ("." if layer_prefix else "") + name), p

    def children(self):
        for _, layer in self.named_children():
            yield layer

    def named_children(self):
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def sublayers(self, include_self=False):
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_sublayers(self, prefix="", include_self=False, layers_set=None):
        if layers_set is None:
            layers_set = set()
        if include_self and id(self) not in layers_set:
            layers_set.add(id(self))
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            layer_prefix = prefix + ("." if prefix else "") + key
            if id(layer) in layers_set:
                continue
            yield from layer.named_sublayers(prefix=layer_prefix, include_self=True,
                                             layers_set=layers_set)

    def buffers(self, include_sublayers=True):
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix="", include_sublayers=True):
        seen = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers \
            else [(prefix, self)]
        for layer_prefix, layer in layers:
            for name, b in layer._buffers.items():
                if b is None or id(b) in seen:
                    continue
                seen.add(id(b))
                yield (layer_prefix + ("." if layer_prefix else "") + name), b

    def apply(self, fn):
        """Calls fn on every sublayer (children first) and on self; returns self."""
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    def clear_gradients(self, set_to_zero=True):
        for p in self.parameters():
            if p.trainable:
                p.clear_gradient(set_to_zero)

    # ------------------------------------------------------------------ state
    def register_state_dict_hook(self, hook):
        helper = HookRemoveHelper(self._state_dict_hooks)
        self._state_dict_hooks[helper._id] = hook
        return helper

    def _state_dict_impl(self, destination=None, include_sublayers=True,
                         structured_name_prefix="", include_non_persistable_buffer=False,
                         use_hook=True):
        if destination is None:
            destination = collections.OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                destination[structured_name_prefix + name] = p
        for name, b in self._buffers.items():
            if b is None:
                continue
            if not include_non_persistable_buffer and \
                    name in self._non_persistable_buffer_names_set:
                continue
            destination[structured_name_prefix + name] = b
        if include_sublayers:
            for key, layer in self._sub_layers.items():
                if layer is not None:
                    layer._state_dict_impl(destination, include_sublayers,
                                           structured_name_prefix + key + ".",
                                           include_non_persistable_buffer, use_hook)
        if use_hook:
            for hook in self._state_dict_hooks.values():
                result = hook(destination)
                if result is not None:
                    destination = result
        return destination

    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True, keep_vars=True):
        """Parameters and persistable buffers by structured name (`fc.weight`); the values are
        the layer's own tensors (no copies)."""
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix,
                                     False, use_hook)

    def to_static_state_dict(self, destination=None, include_sublayers=True,
                             structured_name_prefix="", use_hook=True):
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix,
                                     True, use_hook)

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Copies values into the layer's tensors; returns (missing_keys, unexpected_keys).
        Shape mismatches are skipped with a warning (and count as missing), as in Paddle."""
        from ... import no_grad
        from .._assign import assign_into
        import numpy as np
        from ... import Tensor
        if not hasattr(state_dict, "get") or not hasattr(state_dict, "keys"):
            raise TypeError("set_state_dict: argument 'state_dict' expected a dict of Tensors, "
                            f"got {type(state_dict).__name__}")
        missing_keys, unexpected_keys, match_keys = [], [], set()
        matched = []
        for key, param in self._state_dict_impl(use_hook=False).items():
            key_name = key if use_structured_name else getattr(param, "name", key)
            state = state_dict.get(key_name, None)
            if state is not None and not isinstance(state, (Tensor, np.ndarray)):
                raise TypeError(f"set_state_dict: argument 'state_dict' expected a Tensor or "
                                f"numpy array for key '{key_name}', got "
                                f"{type(state).__name__}")
            if state is None:
                missing_keys.append(key)
                warnings.warn(f"Skip loading for {key}. {key_name} is not found in the provided "
                              "dict.")
                continue
            shape = list(state.shape() if callable(state.shape) else state.shape)
            if shape != list(param.shape):
                missing_keys.append(key)
                warnings.warn(f"Skip loading for {key}. {key_name} receives a shape {shape}, but "
                              f"the expected shape is {list(param.shape)}.")
                continue
            match_keys.add(key_name)
            matched.append((param, state))
        for key in state_dict.keys():
            if key not in match_keys:
                unexpected_keys.append(key)
        with no_grad():
            for param, state in matched:
                assign_into(param, state)
        return missing_keys, unexpected_keys

    set_dict = set_state_dict
    load_dict = set_state_dict

    def to(self, device=None, dtype=None, blocking=None):
        """Casts floating parameters and buffers to `dtype` (in place: the layer keeps its
        Parameter objects). Only the CPU device exists in this build, so `device` is checked."""
        if device is not None:
            dev = str(device).lower()
            if not (dev.startswith("cpu") or dev.startswith("place(cpu")):
                from ... import is_compiled_with_cuda
                if not is_compiled_with_cuda():
                    raise ValueError(f"Layer.to: device {device!r} is not available (CPU-only "
                                     "build)")
        if dtype is not None:
            self._cast_floating(dtype)
        return self

    def _cast_floating(self, dtype):
        from ... import _C, no_grad
        with no_grad():
            for layer in self.sublayers(include_self=True):
                for name, p in list(layer._parameters.items()):
                    if p is None or not _is_floating(p.dtype) or p.dtype == dtype:
                        continue
                    casted = _C.ops.cast(p.detach(), dtype)
                    new = EagerParamBase(casted, name=p.name, trainable=p.trainable,
                                         optimize_attr=p.optimize_attr, regularizer=p.regularizer,
                                         do_model_average=p.do_model_average,
                                         need_clip=p.need_clip)
                    layer._parameters[name] = new
                for name, b in list(layer._buffers.items()):
                    if b is None or not _is_floating(b.dtype) or b.dtype == dtype:
                        continue
                    layer._buffers[name] = _C.ops.cast(b, dtype)
                layer._dtype = dtype

    def astype(self, dtype=None):
        return self.to(dtype=dtype)

    def float(self, excluded_layers=None):
        return self.to(dtype="float32")

    def float16(self, excluded_layers=None):
        return self.to(dtype="float16")

    def bfloat16(self, excluded_layers=None):
        return self.to(dtype="bfloat16")

    # ------------------------------------------------------------------ attributes
    def __getattr__(self, name):
        d = self.__dict__
        if "_parameters" in d:
            if name in d["_parameters"]:
                return d["_parameters"][name]
            if name in d["_sub_layers"]:
                return d["_sub_layers"][name]
            if name in d["_buffers"]:
                return d["_buffers"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, EagerParamBase):
            if params is None:
                raise ValueError("super().__init__() should be called first")
            _remove_from(name, d, skip="_parameters")
            params[name] = value
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"assignment to parameter '{name}' should be of type Parameter "
                                f"or None, but got '{type(value).__name__}'")
            params[name] = None
            return
        if isinstance(value, Layer):
            layers = d.get("_sub_layers")
            if layers is None:
                raise ValueError("super().__init__() should be called first")
            _remove_from(name, d, skip="_sub_layers")
            layers[name] = value
            return
        layers = d.get("_sub_layers")
        if layers is not None and name in layers:
            if value is not None:
                raise TypeError(f"assignment to sublayer '{name}' should be of type Layer or "
                                f"None, but got '{type(value).__name__}'")
            layers[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"assignment to buffer '{name}' should be of type Tensor or "
                                f"None, but got '{type(value).__name__}'")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        for key in ("_parameters", "_sub_layers", "_buffers"):
            store = self.__dict__.get(key)
            if store is not None and name in store:
                del store[name]
                self.__dict__.get("_non_persistable_buffer_names_set", set()).discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        attrs = list(object.__dir__(self))
        return sorted(set(attrs + list(self._parameters) + list(self._sub_layers)
                          + list(self._buffers)))

    # ------------------------------------------------------------------ printing
    def extra_repr(self):
        return ""

    def __repr__(self):
        lines = []
        extra = self.extra_repr()
        for name, layer in self._sub_layers.items():
            if layer is None:
                continue
            text = repr(layer).replace("\n", "\n  ")
            lines.append(f"({name}): {text}")
        main = type(self).__name__ + "("
        if extra:
            main += extra
        if lines:
            main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


def _remove_from(name, d, skip):
    for key in ("_parameters", "_sub_layers", "_buffers"):
        if key != skip and key in d and name in d[key]:
            del d[key][name]
    d.pop(name, None)


def _is_floating(dtype):
    return str(dtype).split(".")[-1] in ("float16", "bfloat16", "float32", "float64")
